import { Alert, Group, Loader, Stack, Text } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import type { PricerUserRow } from '@pfp/contract';
import { errorText, usePricerDeactivatePreview, useUpdatePricerStatus } from '../shared/api';
import { nextPricerStatus } from './pricerForms';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { TONE } from '../shared/tones';

const t = zh.trader.pricers;
const d = t.statusDialog;

/**
 * Confirms 停用 (the customer can no longer sign in; their working orders and 条件单 are cancelled, as
 * counted by pricer-deactivate-preview when the dialog opens: issue 30) or 启用 of one customer.
 */
export function PricerStatusDialog({ user, onClose }: { user: PricerUserRow | null; onClose: () => void }) {
  const updateStatus = useUpdatePricerStatus();
  const busy = updateStatus.isPending;
  const next = user ? nextPricerStatus(user.status) : 'inactive';
  const deactivating = next === 'inactive';
  const preview = usePricerDeactivatePreview(user && deactivating ? user.id : null);
  const p = preview.data;

  const confirm = async () => {
    if (!user) return;
    try {
      await updateStatus.mutateAsync({ user_id: user.id, new_status: next });
      notify(deactivating ? t.deactivated : t.activated, 'success');
      onClose();
    } catch (err) {
      notify(t.statusUpdateFailed(errorText(err)), 'error');
    }
  };

  return (
    <ConfirmDialog
      opened={user !== null}
      title={user ? (deactivating ? d.deactivateTitle(user.username) : d.activateTitle(user.username)) : ''}
      busy={busy}
      onClose={onClose}
      onConfirm={() => void confirm()}
      cancelLabel={d.cancel}
      confirmLabel={busy ? d.updating : deactivating ? d.confirmDeactivate : d.confirmActivate}
      confirmColor={deactivating ? TONE.danger : TONE.success}
      // 停用 is confirmed after its count is read.
      confirmDisabled={deactivating && !p}
    >
      <Text size="sm">{deactivating ? d.deactivateBody : d.activateBody}</Text>
      {!deactivating ? (
        <Text size="sm" c="dimmed">
          {d.activateTokens}
        </Text>
      ) : preview.isPending ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{d.loading}</Text>
        </Group>
      ) : preview.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {d.previewFailed(errorText(preview.error))}
        </Alert>
      ) : p ? (
        <Stack gap={4} data-testid="pricer-status-effect">
          <Text size="sm" fw={600}>
            {d.deactivateEffect(p.working_orders, p.waiting_conditionals)}
          </Text>
          <Text size="sm" c="dimmed">
            {d.deactivateDetail(p.working_lots, p.waiting_conditional_lots)}
          </Text>
        </Stack>
      ) : null}
    </ConfirmDialog>
  );
}
