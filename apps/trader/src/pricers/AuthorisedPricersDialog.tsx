import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@pfp/mantine';
import type { AuthorisedPricer, PricerUserRow } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState } from 'react';
import {
  errorText,
  useAuthorisedPricers,
  useResetAuthorisedPricerPassword,
  useSetAuthorisedPricerActive,
} from '../shared/api';
import { ConsoleModal } from '../shared/ConsoleModal';
import { useCan } from '../shared/roles';
import { TONE } from '../shared/tones';
import { AuthorisedPricerForm } from './AuthorisedPricerForm';
import { NewPasswordDialog } from './ResetPasswordDialog';

const t = zh.authorisedPricers;

/** What the dialog shows: the list, a form (new or one person's), the 停用/恢复 confirmation, or a new password. */
type Step =
  | { kind: 'list' }
  | { kind: 'add' }
  | { kind: 'edit'; person: AuthorisedPricer }
  | { kind: 'status'; person: AuthorisedPricer }
  | { kind: 'reset'; person: AuthorisedPricer };

export const customerLabel = (user: PricerUserRow) => user.full_name || user.username;

/**
 * 授权点价人 of one customer (客户管理 → a customer's 授权点价人, docs/authorised-pricers.md): who may fix
 * for it, each with their own login; 新增, 编辑, 停用 / 恢复 after a confirmation that says what
 * happens to the person's session and their waiting 条件单 (kept), and 重置密码 as 客户管理's (the same
 * dialog and rule, in its place while open). Mount with a new key on every open.
 */
export function AuthorisedPricersDialog({ user, onClose }: { user: PricerUserRow | null; onClose: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const list = useAuthorisedPricers(user?.id ?? null);
  const setActive = useSetAuthorisedPricerActive();
  const resetPassword = useResetAuthorisedPricerPassword();
  const mayReset = useCan()('resetAuthorisedPricerPassword');
  const busy = setActive.isPending;
  if (!user) return null;
  const customer = customerLabel(user);
  const back = () => setStep({ kind: 'list' });
  if (step.kind === 'reset') {
    const { person } = step;
    return (
      <NewPasswordDialog
        opened
        login={person.username}
        consequence={person.primary ? t.resetPrimaryEffect : t.resetEffect(person.name, person.username)}
        reset={(newPassword) => resetPassword.mutateAsync({ person_id: person.id, new_password: newPassword })}
        onClose={back}
      />
    );
  }

  const title =
    step.kind === 'status'
      ? step.person.active
        ? t.confirm.deactivateTitle(step.person.name)
        : t.confirm.reactivateTitle(step.person.name)
      : step.kind === 'add'
        ? t.add
        : step.kind === 'edit'
          ? `${t.edit} ${step.person.name}`
          : t.title(customer);

  const changeStatus = async (person: AuthorisedPricer) => {
    try {
      await setActive.mutateAsync({ person_id: person.id, active: !person.active });
      notify(person.active ? t.deactivated(person.name) : t.reactivated(person.name), 'success');
      back();
    } catch (err) {
      notify(t.statusFailed(errorText(err)), 'error');
    }
  };

  return (
    <ConsoleModal opened onClose={step.kind === 'list' ? onClose : back} title={title} busy={busy} size="lg">
      {step.kind === 'add' || step.kind === 'edit' ? (
        <AuthorisedPricerForm
          userId={user.id}
          customer={customer}
          person={step.kind === 'edit' ? step.person : null}
          onDone={back}
        />
      ) : step.kind === 'status' ? (
        <Stack gap="md" data-testid="authorised-pricer-confirm">
          {step.person.active ? (
            <>
              <Text size="sm" fw={600}>
                {t.confirm.deactivateBody(step.person.name, step.person.username)}
              </Text>
              <Text size="sm">{step.person.primary ? t.confirm.deactivatePrimary : t.confirm.deactivateSession}</Text>
              <Text size="sm">{t.confirm.deactivateConditionals(step.person.live_conditionals)}</Text>
            </>
          ) : (
            <Text size="sm">{t.confirm.reactivateBody(step.person.name, step.person.username)}</Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={back} disabled={busy}>
              {t.confirm.cancel}
            </Button>
            <Button
              color={step.person.active ? TONE.danger : TONE.success}
              onClick={() => void changeStatus(step.person)}
              disabled={busy}
              data-autofocus
            >
              {busy
                ? t.confirm.updating
                : step.person.active
                  ? t.confirm.confirmDeactivate
                  : t.confirm.confirmReactivate}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t.intro}
          </Text>
          {list.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t.loading}</Text>
            </Group>
          ) : list.isError ? (
            <Alert color={TONE.danger} variant="light" role="alert">
              {t.loadFailed(errorText(list.error))}
            </Alert>
          ) : list.data.persons.length === 0 ? (
            <Alert color={TONE.warning} variant="light">
              {t.empty}
            </Alert>
          ) : (
            <Stack gap="xs" role="list" aria-label={t.title(customer)}>
              {list.data.persons.map((p) => (
                <PersonCard
                  key={p.id}
                  person={p}
                  onEdit={() => setStep({ kind: 'edit', person: p })}
                  onStatus={() => setStep({ kind: 'status', person: p })}
                  onReset={mayReset ? () => setStep({ kind: 'reset', person: p }) : undefined}
                />
              ))}
            </Stack>
          )}
          <Group justify="space-between" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.close}
            </Button>
            <Button color={TONE.primary} onClick={() => setStep({ kind: 'add' })}>
              {t.add}
            </Button>
          </Group>
        </Stack>
      )}
    </ConsoleModal>
  );
}

function PersonCard({
  person: p,
  onEdit,
  onStatus,
  onReset,
}: {
  person: AuthorisedPricer;
  onEdit: () => void;
  onStatus: () => void;
  /** Absent: the signed-in member's roles may not reset a password. */
  onReset?: () => void;
}) {
  return (
    <Paper withBorder p="sm" role="listitem" aria-label={p.name} data-person={p.username}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{p.name}</Text>
            <Badge variant="outline" color={p.active ? TONE.success : TONE.muted}>
              {p.active ? t.active : t.inactive}
            </Badge>
            {p.primary ? (
              <Badge variant="light" color={TONE.info}>
                {t.primary}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm">{t.loginLine(p.username)}</Text>
          <Text size="sm" c="dimmed">
            {t.idLine(p.id_type ? (t.idTypes[p.id_type] ?? p.id_type) : null, p.id_last4)} · {t.phoneLine(p.phone)}
          </Text>
          {p.live_conditionals > 0 ? (
            <Text size="sm" c="dimmed">
              {t.waiting(p.live_conditionals)}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="outline"
            color={TONE.info}
            onClick={onEdit}
            aria-label={`${t.edit} ${p.name}`}
          >
            {t.edit}
          </Button>
          {onReset ? (
            <Button
              size="compact-sm"
              variant="outline"
              color={TONE.warning}
              onClick={onReset}
              aria-label={`${t.resetPassword} ${p.name}`}
            >
              {t.resetPassword}
            </Button>
          ) : null}
          <Button
            size="compact-sm"
            variant="outline"
            color={p.active ? TONE.danger : TONE.success}
            onClick={onStatus}
            aria-label={`${p.active ? t.deactivate : t.reactivate} ${p.name}`}
          >
            {p.active ? t.deactivate : t.reactivate}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
