import { PasswordInput, Text } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import type { PricerUserRow } from '@pfp/contract';
import { useResetPricerPassword } from '../shared/api';
import { EMPTY_RESET_PASSWORD, resetPasswordSchema, type ResetPasswordValues } from './pricerForms';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';

const t = zh.trader.pricers;
const d = t.resetDialog;

/** SPEC §5 "Reset password" of a customer's login. Mount with a new key on every open. */
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
  // A new password also unlocks the customer's login (server side, issue 30); 解锁 on the row unlocks without one.
  return (
    <NewPasswordDialog
      opened={opened && user !== null}
      login={user?.username ?? ''}
      consequence={d.customerEffect}
      reset={(newPassword) => resetPassword.mutateAsync({ userId: user!.id, newPassword })}
      onClose={onClose}
    />
  );
}

/**
 * A login's new password, typed twice, and what the reset does to the login's sessions: the customer's
 * (客户管理) and an 授权点价人's (its dialog) by the same rule. Mount with a new key on every open.
 */
export function NewPasswordDialog({
  opened,
  login,
  consequence,
  reset,
  onClose,
}: {
  opened: boolean;
  login: string;
  consequence: string;
  reset: (newPassword: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const form = useForm<ResetPasswordValues>({
    initialValues: EMPTY_RESET_PASSWORD,
    validate: schemaResolver(resetPasswordSchema, { sync: true }),
  });
  const saving = form.submitting;
  const field = fieldsOf(form);
  const save = saveThenClose(
    (values: ResetPasswordValues) => reset(values.new_password),
    { done: t.passwordReset, failed: t.resetFailed },
    onClose,
  );

  return (
    <FormDialog
      opened={opened}
      title={d.title(login)}
      saving={saving}
      onClose={onClose}
      onSubmit={form.onSubmit(save)}
      cancelLabel={d.cancel}
      submitLabel={saving ? d.resetting : d.submit}
    >
      <Text size="sm">{consequence}</Text>
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
