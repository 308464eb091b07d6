import { Button, Checkbox, Group, Modal, PasswordInput, Select, Stack, TextInput } from '@pfp/mantine';
import { BROKERS, zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useState, type FormEvent } from 'react';
import type { ProfileInput, TraderProfile } from '@pfp/contract';
import { errorText } from '../shared/api';
import {
  formFromProfile,
  toProfileInput,
  validateSettings,
  type SettingsErrors,
  type SettingsForm,
} from './settingsForm';
import { TONE } from '../shared/tones';

const t = zh.trader.settings;
const BROKER_OPTIONS = [...BROKERS];

export interface SettingsDialogProps {
  opened: boolean;
  profile: TraderProfile | null;
  onClose: () => void;
  /** Saves and reloads the profile; a rejection keeps the dialog open. */
  onSave: (input: ProfileInput) => Promise<void>;
}

/**
 * SPEC §2 "Settings dialog" (系统配置). Mount it with a new key on every open: the form is
 * preloaded from the profile with a blank password.
 */
export function SettingsDialog({ opened, profile, onClose, onSave }: SettingsDialogProps) {
  const [form, setForm] = useState<SettingsForm>(() => formFromProfile(profile));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [saving, setSaving] = useState(false);

  const update = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    // Typing in a field clears its error.
    setErrors((previous) => {
      if (!(field in previous)) return previous;
      const next = { ...previous };
      delete next[field as keyof SettingsErrors];
      return next;
    });
  };

  const close = () => {
    if (saving) return;
    setForm(formFromProfile(profile));
    setErrors({});
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found = validateSettings(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await onSave(toProfileInput(form));
      notify(t.saved, 'success', 2000);
      setSaving(false);
      onClose();
    } catch (err) {
      notify(t.saveFailed(errorText(err)), 'error', 3000);
      setSaving(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t.title}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      closeButtonProps={{ disabled: saving, 'aria-label': zh.shell.close }}
      centered
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t.companyName}
            placeholder={t.companyNamePlaceholder}
            withAsterisk
            value={form.company_name}
            error={errors.company_name}
            disabled={saving}
            onChange={(event) => update('company_name', event.currentTarget.value)}
            data-autofocus
          />
          <Checkbox
            label={t.isSim}
            description={t.isSimHint}
            checked={form.is_sim}
            disabled={saving}
            onChange={(event) => {
              const isSim = event.currentTarget.checked;
              update('is_sim', isSim);
              // The broker fields disappear with their errors.
              if (isSim)
                setErrors((previous) => (previous.company_name ? { company_name: previous.company_name } : {}));
            }}
          />
          {!form.is_sim ? (
            <>
              <Select
                label={t.broker}
                placeholder={t.brokerPlaceholder}
                withAsterisk
                searchable
                nothingFoundMessage={t.noBrokerMatch}
                data={BROKER_OPTIONS}
                value={form.broker_name || null}
                error={errors.broker_name}
                disabled={saving}
                onChange={(value) => update('broker_name', value ?? '')}
                comboboxProps={{ withinPortal: true }}
              />
              <TextInput
                label={t.futuresAccount}
                placeholder={t.futuresAccountPlaceholder}
                withAsterisk
                autoComplete="off"
                value={form.futures_account}
                error={errors.futures_account}
                disabled={saving}
                onChange={(event) => update('futures_account', event.currentTarget.value)}
              />
              <PasswordInput
                label={t.futuresPassword}
                placeholder={t.futuresPasswordPlaceholder}
                autoComplete="new-password"
                value={form.futures_password}
                disabled={saving}
                onChange={(event) => update('futures_password', event.currentTarget.value)}
              />
            </>
          ) : null}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {t.cancel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving}>
              {saving ? t.saving : t.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
