import { PasswordInput, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { useCreatePricer } from '../shared/api';
import {
  canSubmitCreate,
  createPricerSchema,
  EMPTY_CREATE_PRICER,
  toCreatePricerInput,
  type CreatePricerValues,
} from './pricerForms';
import { FormDialog, saveThenClose } from '../shared/FormDialog';

const t = zh.trader.pricers;
const d = t.createDialog;

/** SPEC §5 "Create customer": Enter submits, Escape cancels. Mount with a new key on every open. */
export function CreatePricerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const createPricer = useCreatePricer();
  const form = useForm<CreatePricerValues>({
    initialValues: EMPTY_CREATE_PRICER,
    validate: schemaResolver(createPricerSchema, { sync: true }),
  });
  const saving = form.submitting;

  const save = saveThenClose(
    (values: CreatePricerValues) => createPricer.mutateAsync(toCreatePricerInput(values)),
    { done: t.created, failed: t.createFailed },
    onClose,
  );

  return (
    <FormDialog
      opened={opened}
      title={d.title}
      saving={saving}
      onClose={onClose}
      onSubmit={form.onSubmit(save)}
      cancelLabel={d.cancel}
      submitLabel={saving ? d.creating : d.submit}
      submitDisabled={!canSubmitCreate(form.values)}
    >
      <TextInput
        label={d.username}
        placeholder={d.usernamePlaceholder}
        withAsterisk
        autoComplete="off"
        disabled={saving}
        data-autofocus
        {...form.getInputProps('username')}
      />
      <PasswordInput
        label={d.password}
        placeholder={d.passwordPlaceholder}
        withAsterisk
        autoComplete="new-password"
        disabled={saving}
        {...form.getInputProps('password')}
      />
      <TextInput
        label={d.phone}
        placeholder={d.phonePlaceholder}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        disabled={saving}
        {...form.getInputProps('phone')}
      />
    </FormDialog>
  );
}
