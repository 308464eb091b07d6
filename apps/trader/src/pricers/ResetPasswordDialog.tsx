import { PasswordInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import type { PricerUserRow } from '@pfp/contract';
import { useResetPricerPassword } from '../shared/api';
import { EMPTY_RESET_PASSWORD, resetPasswordSchema, type ResetPasswordValues } from './pricerForms';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';

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
  // A new password also unlocks the customer's login (server side, issue 30); 解锁 on the row unlocks without one.
  const saving = form.submitting;
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
