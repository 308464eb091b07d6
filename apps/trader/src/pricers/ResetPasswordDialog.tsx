import { Button, PasswordInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import type { PricerUserRow } from '@pfp/contract';
import { errorText, useResetPricerPassword, useUnlockPricer } from '../shared/api';
import { EMPTY_RESET_PASSWORD, resetPasswordSchema, type ResetPasswordValues } from './pricerForms';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';
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
  const field = fieldsOf(form);

  const save = (values: ResetPasswordValues, of: PricerUserRow) =>
    saveThenClose(
      () => resetPassword.mutateAsync({ userId: of.id, newPassword: values.new_password }),
      { done: t.passwordReset, failed: t.resetFailed },
      onClose,
    )(values);

  return (
    <FormDialog
      opened={opened && user !== null}
      title={d.title(user?.username ?? '')}
      saving={saving}
      onClose={onClose}
      onSubmit={form.onSubmit((values) => (user ? save(values, user) : undefined))}
      cancelLabel={d.cancel}
      submitLabel={saving ? d.resetting : d.submit}
      sideAction={
        <Button variant="subtle" color={TONE.info} onClick={() => void unlockOnly()} disabled={saving} mr="auto">
          {unlock.isPending ? t.unlocking : t.unlock}
        </Button>
      }
    >
      <PasswordInput
        withAsterisk
        autoComplete="new-password"
        data-autofocus
        {...field('new_password', d.newPassword)}
      />
      <PasswordInput withAsterisk autoComplete="new-password" {...field('confirm', d.confirmPassword)} />
    </FormDialog>
  );
}
