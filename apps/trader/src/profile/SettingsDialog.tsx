import { Button, Checkbox, PasswordInput, Select, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { BROKERS, zh } from '@pfp/i18n';
import type { ProfileInput, TraderProfile } from '@pfp/contract';
import { settingsSchema, toProfileInput, valuesFromProfile, type SettingsValues } from './settingsForm';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';
import { MarginSettingsDialog } from '../shared/MarginSettingsDialog';
import { useState } from 'react';

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
 * preloaded from the profile with a blank password. Typing in a field clears its error.
 */
export function SettingsDialog({ opened, profile, onClose, onSave }: SettingsDialogProps) {
  const form = useForm<SettingsValues>({
    initialValues: valuesFromProfile(profile),
    validate: schemaResolver(settingsSchema, { sync: true }),
  });
  const saving = form.submitting;
  const field = fieldsOf(form);
  const isSim = form.values.tq_account_config.is_sim;

  const close = () => {
    form.reset();
    onClose();
  };

  const save = saveThenClose(
    (values: SettingsValues) => onSave(toProfileInput(values)),
    { done: t.saved, failed: t.saveFailed, ms: { done: 2000, failed: 3000 } },
    onClose,
  );

  const simProps = form.getInputProps('tq_account_config.is_sim', { type: 'checkbox' });
  // The company's margin rates (issue 41), once the company exists: their own dialog over this one.
  const [marginOpen, setMarginOpen] = useState(false);
  return (
    <>
      {marginOpen ? <MarginSettingsDialog onClose={() => setMarginOpen(false)} /> : null}
      <FormDialog
        sideAction={
          profile?.tenant_id ? (
            <Button variant="subtle" mr="auto" onClick={() => setMarginOpen(true)} disabled={saving}>
              {zh.marginDefaults.settings.title}
            </Button>
          ) : null
        }
        opened={opened}
        title={t.title}
        saving={saving}
        onClose={close}
        onSubmit={form.onSubmit(save)}
        cancelLabel={t.cancel}
        submitLabel={saving ? t.saving : t.save}
      >
        <TextInput withAsterisk data-autofocus {...field('company_name', t.companyName, t.companyNamePlaceholder)} />
        <Checkbox
          label={t.isSim}
          description={t.isSimHint}
          disabled={saving}
          {...simProps}
          onChange={(event) => {
            simProps.onChange(event);
            // The broker fields disappear with their errors.
            if (event.currentTarget.checked) {
              form.clearFieldError('tq_account_config.broker_name');
              form.clearFieldError('tq_account_config.futures_account');
            }
          }}
        />
        {!isSim ? (
          <>
            <Select
              label={t.broker}
              placeholder={t.brokerPlaceholder}
              withAsterisk
              searchable
              nothingFoundMessage={t.noBrokerMatch}
              data={BROKER_OPTIONS}
              disabled={saving}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('tq_account_config.broker_name')}
              value={form.values.tq_account_config.broker_name || null}
              onChange={(value) => form.setFieldValue('tq_account_config.broker_name', value ?? '')}
            />
            <TextInput
              withAsterisk
              autoComplete="off"
              {...field('tq_account_config.futures_account', t.futuresAccount, t.futuresAccountPlaceholder)}
            />
            <PasswordInput
              autoComplete="new-password"
              {...field('tq_account_config.futures_password', t.futuresPassword, t.futuresPasswordPlaceholder)}
            />
          </>
        ) : null}
      </FormDialog>
    </>
  );
}
