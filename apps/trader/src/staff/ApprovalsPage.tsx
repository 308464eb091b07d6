import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@pfp/mantine';
import type { ApprovalRequest } from '@pfp/contract';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState } from 'react';
import { useCan } from '../shared/roles';
import { errorText, useApprovalRequests, useDecideRequest, useProfile } from '../shared/api';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { PageHeading } from '../shared/PageHeading';
import { TONE } from '../shared/tones';

const t = zh.roles.approvals;
const actionLabel = (a: string) => zh.roles.policy.actions[a]?.replace(/（.*）$/, '') ?? a;

function valueText(key: string, v: unknown): string {
  if (typeof v === 'number')
    return `${formatNumber(v, key === 'balance' || key === 'credit_line' || key === 'fee_open' ? 2 : 0)} ${t.units[key] ?? ''}`.trim();
  return t.values[String(v)] ?? String(v ?? '');
}

/** What the request changes: each figure before → after (元, 手). */
export function changeText(r: Pick<ApprovalRequest, 'action' | 'body' | 'before' | 'after'>): string {
  const parts: string[] = [];
  if (r.action === 'record-funds') {
    const b = r.body as { kind?: string; amount?: number; bank_ref?: string };
    parts.push(
      t.funds(zh.margin.kinds[b.kind ?? ''] ?? '', formatNumber(Number(b.amount ?? 0), 2), b.bank_ref || null),
    );
  }
  for (const [k, v] of Object.entries(r.after ?? {})) {
    if (!(k in t.fields)) continue;
    const before = r.before?.[k];
    parts.push(`${t.fields[k]}：${before === undefined ? '' : `${valueText(k, before)} → `}${valueText(k, v)}`);
  }
  return parts.join('；');
}

/** /trader/approvals: the requests others made, to approve or reject; one's own are shown, never decidable. */
export function ApprovalsPage() {
  const requests = useApprovalRequests();
  const decide = useDecideRequest();
  const { profile } = useProfile();
  const may = useCan()('approveRequest');
  const [approving, setApproving] = useState<ApprovalRequest | null>(null);
  const [rejecting, setRejecting] = useState<ApprovalRequest | null>(null);
  const [reason, setReason] = useState('');
  const items = requests.data?.items ?? [];
  const pending = items.filter((r) => r.status === 'pending');
  const done = items.filter((r) => r.status !== 'pending');
  const run = (d: Parameters<typeof decide.mutate>[0], ok: string, close: () => void) =>
    decide.mutate(d, {
      onSuccess: () => notify(ok, 'success'),
      onError: (e) => notify(t.failed(errorText(e)), 'error'),
      onSettled: close,
    });
  return (
    <Stack gap="md">
      <PageHeading subtitle={t.subtitle} />
      {requests.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.loadFailed(errorText(requests.error))}
        </Alert>
      ) : null}
      <Card withBorder radius="md" padding="md">
        <Title order={3} size="h4" mb="xs">
          {t.pending}
        </Title>
        {requests.isPending ? (
          <Group justify="center" py="md">
            <Loader size="sm" />
          </Group>
        ) : pending.length ? (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t.pending}>
            {pending.map((r) => {
              const own = r.maker === profile?.user_id;
              return (
                <Card
                  component="li"
                  key={r.id}
                  withBorder
                  radius="sm"
                  padding="sm"
                  aria-label={`${actionLabel(r.action)} · ${r.subject_label}`}
                >
                  <Group justify="space-between" align="flex-start" gap="xs">
                    <Stack gap={2} style={{ flex: '1 1 16rem', minWidth: 0 }}>
                      <Text fw={600}>
                        {actionLabel(r.action)} · {r.subject_label}
                      </Text>
                      <Text size="sm">{changeText(r)}</Text>
                      <Text size="sm" c="gray.7">
                        {t.madeBy(r.maker_name, formatDateTime(r.created_at))}
                      </Text>
                    </Stack>
                    {own ? (
                      <Badge variant="outline" color="gray">
                        {t.own}
                      </Badge>
                    ) : may ? (
                      <Group gap="xs">
                        <Button size="xs" color={TONE.primary} onClick={() => setApproving(r)}>
                          {t.approve}
                        </Button>
                        <Button size="xs" variant="default" onClick={() => (setReason(''), setRejecting(r))}>
                          {t.reject}
                        </Button>
                      </Group>
                    ) : null}
                  </Group>
                </Card>
              );
            })}
          </Stack>
        ) : (
          <Text c="gray.7">{t.empty}</Text>
        )}
      </Card>
      {done.length ? (
        <Card withBorder radius="md" padding="md">
          <Title order={3} size="h4" mb="xs">
            {t.history}
          </Title>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t.history}>
            {done.map((r) => (
              <li key={r.id}>
                <Group gap="xs" wrap="wrap">
                  <Badge color={r.status === 'approved' ? TONE.success : TONE.danger} variant="filled">
                    {t.statuses[r.status]}
                  </Badge>
                  <Text size="sm">
                    {actionLabel(r.action)} · {r.subject_label} · {changeText(r)}
                  </Text>
                  <Text size="sm" c="gray.7">
                    {t.madeBy(r.maker_name, formatDateTime(r.created_at))}
                    {r.checker_name ? ` · ${t.decidedBy(r.checker_name)}` : ''}
                    {r.reason ? ` · ${t.reasonOf(r.reason)}` : ''}
                  </Text>
                </Group>
              </li>
            ))}
          </Stack>
        </Card>
      ) : null}
      <ConfirmDialog
        opened={approving !== null}
        title={t.approve}
        busy={decide.isPending}
        onClose={() => setApproving(null)}
        onConfirm={() => approving && run({ id: approving.id, approve: true }, t.approved, () => setApproving(null))}
        cancelLabel={t.cancel}
        confirmLabel={t.approve}
        confirmColor={TONE.primary}
      >
        {approving ? (
          <Text>
            {t.approveConfirm(actionLabel(approving.action), approving.subject_label)} {changeText(approving)}
          </Text>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        opened={rejecting !== null}
        title={t.reject}
        busy={decide.isPending}
        onClose={() => setRejecting(null)}
        onConfirm={() =>
          rejecting &&
          run({ id: rejecting.id, approve: false, reason: reason.trim() }, t.rejected, () => setRejecting(null))
        }
        cancelLabel={t.cancel}
        confirmLabel={t.reject}
        confirmColor={TONE.danger}
        confirmDisabled={!reason.trim()}
      >
        <TextInput
          label={t.rejectReason}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={200}
          data-autofocus
        />
      </ConfirmDialog>
    </Stack>
  );
}
