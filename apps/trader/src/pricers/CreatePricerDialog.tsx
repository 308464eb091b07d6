import { Button, Group, Modal, PasswordInput, Stack, TextInput } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState, type FormEvent } from 'react';
import { errorText, useCreatePricer } from '../shared/api';
import {
  canSubmitCreate,
  toCreatePricerInput,
  validateCreatePricer,
  type CreatePricerErrors,
  type CreatePricerForm,
} from './pricerForms';
import { TONE } from '../shared/tones';

const t = zh.trader.pricers;
const d = t.createDialog;

/** SPEC §5 "Create customer": Enter submits, Escape cancels. Mount with a new key on every open. */
export function CreatePricerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const createPricer = useCreatePricer();
  const [form, setForm] = useState<CreatePricerForm>({ username: '', password: '', phone: '' });
  const [errors, setErrors] = useState<CreatePricerErrors>({});
  const [saving, setSaving] = useState(false);

  const set = (field: keyof CreatePricerForm, value: string) => {
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
    if (saving || !canSubmitCreate(form)) return;
    const found = validateCreatePricer(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await createPricer.mutateAsync(toCreatePricerInput(form));
      notify(t.created, 'success');
      setSaving(false);
      onClose();
    } catch (err) {
      notify(t.createFailed(errorText(err)), 'error');
      setSaving(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={d.title}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      closeButtonProps={{ disabled: saving, 'aria-label': zh.shell.close }}
      centered
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={d.username}
            placeholder={d.usernamePlaceholder}
            withAsterisk
            autoComplete="off"
            value={form.username}
            error={errors.username}
            disabled={saving}
            onChange={(event) => set('username', event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label={d.password}
            placeholder={d.passwordPlaceholder}
            withAsterisk
            autoComplete="new-password"
            value={form.password}
            error={errors.password}
            disabled={saving}
            onChange={(event) => set('password', event.currentTarget.value)}
          />
          <TextInput
            label={d.phone}
            placeholder={d.phonePlaceholder}
            type="tel"
            inputMode="numeric"
            autoComplete="off"
            value={form.phone}
            error={errors.phone}
            disabled={saving}
            onChange={(event) => set('phone', event.currentTarget.value)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {d.cancel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving || !canSubmitCreate(form)}>
              {saving ? d.creating : d.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
