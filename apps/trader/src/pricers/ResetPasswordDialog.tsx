import { Button, Group, Modal, PasswordInput, Stack } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState, type FormEvent } from 'react';
import type { PricerUserRow } from '@pfp/contract';
import { errorText, useResetPricerPassword } from '../shared/api';
import { validateResetPassword, type ResetPasswordErrors, type ResetPasswordForm } from './pricerForms';
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
  const [form, setForm] = useState<ResetPasswordForm>({ newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<ResetPasswordErrors>({});
  const [saving, setSaving] = useState(false);

  const set = (field: keyof ResetPasswordForm, value: string) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => {
      if (!(field in previous)) return previous;
      const next = { ...previous };
      delete next[field];
      return next;
    });
  };

  const close = () => {
    if (!saving) onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || !user) return;
    const found = validateResetPassword(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await resetPassword.mutateAsync({ userId: user.id, newPassword: form.newPassword });
      notify(t.passwordReset, 'success');
      setSaving(false);
      onClose();
    } catch (err) {
      notify(t.resetFailed(errorText(err)), 'error');
      setSaving(false);
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
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={d.newPassword}
            withAsterisk
            autoComplete="new-password"
            value={form.newPassword}
            error={errors.newPassword}
            disabled={saving}
            onChange={(event) => set('newPassword', event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label={d.confirmPassword}
            withAsterisk
            autoComplete="new-password"
            value={form.confirm}
            error={errors.confirm}
            disabled={saving}
            onChange={(event) => set('confirm', event.currentTarget.value)}
          />
          <Group justify="flex-end" mt="sm">
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
