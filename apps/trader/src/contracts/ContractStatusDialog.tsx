import { Alert, Group, Loader, Stack, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import type { ContractPausePreview, ContractRow, ContractStatus } from '@pfp/contract';
import { errorText, useContractPausePreview, useUpdateContractStatus } from '../shared/api';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { TONE } from '../shared/tones';

const t = zh.trader.contracts;
const d = t.statusDialog;

export interface StatusChange {
  contract: ContractRow;
  to: 'paused' | 'active';
}

/**
 * 暂停 / 激活 of one contract, confirmed after the trader reads what it will do to the contract's live
 * orders and 条件单 (issue 30): the counts come from contract-pause-preview when the dialog opens.
 */
export function ContractStatusDialog({ change, onClose }: { change: StatusChange | null; onClose: () => void }) {
  const update = useUpdateContractStatus();
  const preview = useContractPausePreview(change ? change.contract.id : null);
  const busy = update.isPending;
  const pausing = change?.to === 'paused';

  const confirm = async () => {
    if (!change) return;
    try {
      await update.mutateAsync({ contract_id: change.contract.id, new_status: change.to });
      notify(t.statusUpdated, 'success', 3000);
      onClose();
    } catch (err) {
      notify(t.statusUpdateFailed(errorText(err)), 'error');
    }
  };

  const p = preview.data;
  return (
    <ConfirmDialog
      opened={change !== null}
      title={change ? (pausing ? d.pauseTitle(change.contract.name) : d.activateTitle(change.contract.name)) : ''}
      busy={busy}
      onClose={onClose}
      onConfirm={() => void confirm()}
      cancelLabel={d.cancel}
      confirmLabel={busy ? d.updating : pausing ? d.confirmPause : d.confirmActivate}
      confirmColor={pausing ? TONE.warning : TONE.success}
      // The trader confirms what was counted: not before the count is there.
      confirmDisabled={!p}
    >
      <StatusEffect preview={preview} to={change?.to ?? 'paused'} />
    </ConfirmDialog>
  );
}

/**
 * What a status change does to the contract's live orders and 条件单, from its preview (this dialog, and
 * the edit dialog's status select).
 */
export function StatusEffect({
  preview,
  to,
}: {
  preview: { isPending: boolean; isError: boolean; error: unknown; data: ContractPausePreview | undefined };
  to: ContractStatus;
}) {
  if (preview.isPending)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">{d.loading}</Text>
      </Group>
    );
  if (preview.isError)
    return (
      <Alert color={TONE.danger} variant="light" role="alert">
        {d.previewFailed(errorText(preview.error))}
      </Alert>
    );
  const p = preview.data;
  if (!p) return null;
  const [effect, detail] =
    to === 'paused'
      ? [
          d.pauseEffect(p.working_orders, p.waiting_conditionals),
          d.pauseDetail(p.working_lots, p.waiting_conditional_lots),
        ]
      : to === 'active'
        ? [d.activateEffect(p.waiting_conditionals), d.activateDetail]
        : [d.closeEffect(p.working_orders, p.waiting_conditionals), null];
  return (
    <Stack gap={4} data-testid="contract-status-effect">
      <Text size="sm" fw={600}>
        {effect}
      </Text>
      {detail ? (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      ) : null}
    </Stack>
  );
}
