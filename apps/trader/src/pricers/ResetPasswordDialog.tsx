import { Button, Group, Modal, PasswordInput, Stack } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import type { PricerUserRow } from '@pfp/contract';
import { errorText, useResetPricerPassword, useUnlockPricer } from '../shared/api';
import { EMPTY_RESET_PASSWORD, resetPasswordSchema, type ResetPasswordValues } from './pricerForms';
import { TONE } from '../shared/tones';

const t = zh.trader.pricers;
const d = t.resetDialog;

/** SPEC §5 "Reset password". Mount with a new key on every open. */
export function ResetPasswordDialog({
  opened,
  user,
  onClose,
}: {
  opened: boolean;
  user: PricerUserRow | null;
  onClose: () => void;
}) {
  const resetPassword = useResetPricerPassword();
  const form = useForm<ResetPasswordValues>({
    initialValues: EMPTY_RESET_PASSWORD,
    validate: schemaResolver(resetPasswordSchema, { sync: true }),
  });
  const unlock = useUnlockPricer();
  const saving = form.submitting || unlock.isPending;

  /** A customer locked out by failed logins (the password may be right): unlocked without a new password. */
  const unlockOnly = async () => {
    if (!user) return;
    try {
      await unlock.mutateAsync(user.id);
      notify(t.unlocked, 'success');
      onClose();
    } catch (err) {
      notify(t.unlockFailed(errorText(err)), 'error');
    }
  };

  const close = () => {
    if (!saving) onClose();
  };

  const save = async (values: ResetPasswordValues) => {
    if (!user) return;
    try {
      await resetPassword.mutateAsync({ userId: user.id, newPassword: values.new_password });
      notify(t.passwordReset, 'success');
      onClose();
    } catch (err) {
      notify(t.resetFailed(errorText(err)), 'error');
    }
  };

  return (
    <Modal
      opened={opened && user !== null}
      onClose={close}
      title={d.title(user?.username ?? '')}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      closeButtonProps={{ disabled: saving, 'aria-label': zh.shell.close }}
      centered
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={d.newPassword}
            withAsterisk
            autoComplete="new-password"
            disabled={saving}
            data-autofocus
            {...form.getInputProps('new_password')}
          />
          <PasswordInput
            label={d.confirmPassword}
            withAsterisk
            autoComplete="new-password"
            disabled={saving}
            {...form.getInputProps('confirm')}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="subtle" color={TONE.info} onClick={() => void unlockOnly()} disabled={saving} mr="auto">
              {unlock.isPending ? t.unlocking : t.unlock}
            </Button>
            <Button variant="default" onClick={close} disabled={saving}>
              {d.cancel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving}>
              {saving ? d.resetting : d.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
