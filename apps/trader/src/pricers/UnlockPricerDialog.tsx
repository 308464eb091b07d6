import { Text } from '@pfp/mantine';
import type { PricerUserRow } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { errorText, useUnlockPricer } from '../shared/api';
import { ConfirmDialog } from '../shared/ConfirmDialog';
import { TONE } from '../shared/tones';

const t = zh.trader.pricers;
const d = zh.lockout;

/** Confirms the unlock of a customer's login (unlock-pricer, audited: issue 30): what it forgets, then 解除锁定. */
export function UnlockPricerDialog({ user, onClose }: { user: PricerUserRow | null; onClose: () => void }) {
  const unlock = useUnlockPricer();
  const busy = unlock.isPending;
  const confirm = async () => {
    if (!user) return;
    try {
      await unlock.mutateAsync(user.id);
      notify(t.unlocked, 'success');
      onClose();
    } catch (err) {
      notify(t.unlockFailed(errorText(err)), 'error');
    }
  };
  return (
    <ConfirmDialog
      opened={user !== null}
      title={user ? d.title(user.username) : ''}
      busy={busy}
      onClose={onClose}
      onConfirm={() => void confirm()}
      cancelLabel={d.cancel}
      confirmLabel={busy ? d.unlocking : d.confirm}
      confirmColor={TONE.info}
    >
      <Text size="sm">{d.body}</Text>
      <Text size="sm" c="dimmed">
        {d.caution}
      </Text>
    </ConfirmDialog>
  );
}
