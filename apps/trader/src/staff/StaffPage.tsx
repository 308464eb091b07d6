import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@pfp/mantine';
import { APPROVAL_ACTIONS, STAFF_ROLES, type ApprovalAction, type StaffMember, type StaffRole } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState } from 'react';
import {
  errorText,
  useApprovalPolicy,
  useCreateStaff,
  useSetApprovalPolicy,
  useStaff,
  useUpdateStaff,
} from '../shared/api';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { FormDialog } from '../shared/FormDialog';
import { PageHeading } from '../shared/PageHeading';
import { TONE } from '../shared/tones';

const t = zh.roles.staff;
const p = zh.roles.policy;

function RolesField({ value, onChange }: { value: StaffRole[]; onChange: (r: StaffRole[]) => void }) {
  return (
    <Checkbox.Group label={t.form.roles} value={value} onChange={(v) => onChange(v as StaffRole[])}>
      <Stack gap={6} mt={6}>
        {STAFF_ROLES.map((r) => (
          <Checkbox key={r} value={r} label={`${zh.roles.labels[r]}（${zh.roles.duties[r]}）`} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** /trader/staff (管理员): the company's staff, their roles and status, and the approval policy. */
export function StaffPage() {
  const staff = useStaff();
  const update = useUpdateStaff();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [disabling, setDisabling] = useState<StaffMember | null>(null);
  const setStatus = (m: StaffMember, status: 'active' | 'disabled') =>
    update.mutate(
      { user_id: m.user_id, status },
      {
        onSuccess: () => notify(t.updated(m.full_name), 'success'),
        onError: (e) => notify(errorText(e), 'error'),
        onSettled: () => setDisabling(null),
      },
    );
  return (
    <Stack gap="md">
      <PageHeading subtitle={t.subtitle} actions={<Button onClick={() => setAdding(true)}>{t.add}</Button>} />
      {staff.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {errorText(staff.error)}
        </Alert>
      ) : null}
      <Card withBorder radius="md" padding="md">
        {staff.isPending ? (
          <Group justify="center" py="md">
            <Loader size="sm" />
          </Group>
        ) : (
          <Table.ScrollContainer minWidth={460}>
            <Table striped withTableBorder aria-label={t.title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.columns.nameAndUsername}</Table.Th>
                  <Table.Th>{t.columns.roles}</Table.Th>
                  <Table.Th style={{ whiteSpace: 'nowrap' }}>{t.columns.status}</Table.Th>
                  <Table.Th style={{ whiteSpace: 'nowrap' }}>{t.columns.actions}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(staff.data?.items ?? []).map((m) => (
                  <Table.Tr key={m.user_id}>
                    {/* Name over login in one cell: on an 820 px tablet the row keeps its status and buttons in view. */}
                    <Table.Td>
                      <Text size="sm">{m.full_name || m.username}</Text>
                      <Text size="xs" c="gray.7">
                        {m.username ?? ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{zh.roles.roleList(m.roles)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {/* Never 在… : the badge keeps its whole word when the roles column takes the room. */}
                      <Badge
                        style={{ minWidth: 'max-content' }}
                        color={m.status === 'active' ? TONE.success : 'gray.7'}
                        variant="outline"
                      >
                        {m.status === 'active' ? t.active : t.disabled}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button size="xs" variant="light" onClick={() => setEditing(m)}>
                          {t.edit}
                        </Button>
                        {m.status === 'active' ? (
                          <Button size="xs" variant="subtle" color={TONE.danger} onClick={() => setDisabling(m)}>
                            {t.disable}
                          </Button>
                        ) : (
                          <Button size="xs" variant="subtle" onClick={() => setStatus(m, 'active')}>
                            {t.enable}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <PolicyCard />
      {adding ? <AddStaffDialog onClose={() => setAdding(false)} /> : null}
      {editing ? <EditRolesDialog member={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        opened={disabling !== null}
        title={t.disable}
        busy={update.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && setStatus(disabling, 'disabled')}
        cancelLabel={t.form.cancel}
        confirmLabel={t.disable}
        confirmColor={TONE.danger}
      >
        <Text>{disabling ? t.disableConfirm(disabling.full_name) : ''}</Text>
      </ConfirmDialog>
    </Stack>
  );
}

function AddStaffDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateStaff();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fullName, setFullName] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [error, setError] = useState<string | null>(null);
  return (
    <FormDialog
      opened
      title={t.form.title}
      saving={create.isPending}
      onClose={onClose}
      cancelLabel={t.form.cancel}
      submitLabel={t.form.save}
      submitDisabled={!username.trim() || !password || !fullName.trim() || !roles.length}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          { username, password, full_name: fullName, roles },
          {
            onSuccess: () => (notify(t.created(fullName), 'success'), onClose()),
            onError: (err) => setError(errorText(err)),
          },
        );
      }}
    >
      {error ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <TextInput
        label={t.form.fullName}
        value={fullName}
        onChange={(e) => setFullName(e.currentTarget.value)}
        data-autofocus
      />
      <TextInput
        label={t.form.username}
        value={username}
        onChange={(e) => setUsername(e.currentTarget.value)}
        autoComplete="off"
      />
      <PasswordInput
        label={t.form.password}
        description={t.form.passwordHint}
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        autoComplete="new-password"
      />
      <RolesField value={roles} onChange={setRoles} />
    </FormDialog>
  );
}

function EditRolesDialog({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const update = useUpdateStaff();
  const [roles, setRoles] = useState<StaffRole[]>([...member.roles]);
  const [error, setError] = useState<string | null>(null);
  return (
    <FormDialog
      opened
      title={t.form.editTitle(member.full_name)}
      saving={update.isPending}
      onClose={onClose}
      cancelLabel={t.form.cancel}
      submitLabel={t.form.save}
      submitDisabled={!roles.length}
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { user_id: member.user_id, roles },
          {
            onSuccess: () => (notify(t.updated(member.full_name), 'success'), onClose()),
            onError: (err) => setError(errorText(err)),
          },
        );
      }}
    >
      {error ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <RolesField value={roles} onChange={setRoles} />
    </FormDialog>
  );
}

/** 复核规则: which calls wait for a second person, and the thresholds of funds and contracts. */
function PolicyCard() {
  const policy = useApprovalPolicy();
  if (policy.isPending || !policy.data) return null;
  return <PolicyForm key={JSON.stringify(policy.data)} initial={policy.data} />;
}

function PolicyForm({ initial }: { initial: NonNullable<ReturnType<typeof useApprovalPolicy>['data']> }) {
  const save = useSetApprovalPolicy();
  const [actions, setActions] = useState<ApprovalAction[]>(initial.actions);
  const [funds, setFunds] = useState<number | string>(initial.thresholds.funds_amount);
  const [lots, setLots] = useState<number | string>(initial.thresholds.contract_quantity);
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={3} size="h4">
        {p.title}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {p.subtitle}
      </Text>
      {!initial.has_checker ? (
        <Alert color={TONE.warning} variant="light" mb="sm">
          {p.noChecker}
        </Alert>
      ) : null}
      <Stack gap="sm">
        <Checkbox.Group value={actions} onChange={(v) => setActions(v as ApprovalAction[])} aria-label={p.title}>
          <Stack gap={6}>
            {APPROVAL_ACTIONS.map((a) => (
              <Checkbox key={a} value={a} label={p.actions[a]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group gap="sm" wrap="wrap">
          <NumberInput label={p.fundsAmount} value={funds} onChange={setFunds} min={0} thousandSeparator="," w={200} />
          <NumberInput
            label={p.contractQuantity}
            value={lots}
            onChange={setLots}
            min={0}
            allowDecimal={false}
            w={200}
          />
        </Group>
        <Group>
          <Button
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                { actions, thresholds: { funds_amount: Number(funds) || 0, contract_quantity: Number(lots) || 0 } },
                { onSuccess: () => notify(p.saved, 'success'), onError: (e) => notify(errorText(e), 'error') },
              )
            }
          >
            {p.save}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
