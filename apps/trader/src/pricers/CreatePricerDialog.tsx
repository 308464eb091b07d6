import { PasswordInput, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { useCreatePricer } from '../shared/api';
import {
  canSubmitCreate,
  createPricerSchema,
  EMPTY_CREATE_PRICER,
  marginZeroProblem,
  toCreatePricerInput,
  type CreatePricerValues,
} from './pricerForms';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';
import { CustomerRateField } from './CustomerRateField';

const t = zh.trader.pricers;
const d = t.createDialog;
const c = zh.customers;

/** SPEC §5 "Create customer": Enter submits, Escape cancels. Mount with a new key on every open. */
export function CreatePricerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const createPricer = useCreatePricer();
  const form = useForm<CreatePricerValues>({
    initialValues: EMPTY_CREATE_PRICER,
    validate: schemaResolver(createPricerSchema, { sync: true }),
  });
  const saving = form.submitting;
  const field = fieldsOf(form);

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
      onSubmit={form.onSubmit((values) => {
        const zero = marginZeroProblem(values);
        if (zero) return form.setFieldError('margin_zero_ok', zero);
        return save(values);
      })}
      cancelLabel={d.cancel}
      submitLabel={saving ? d.creating : d.submit}
      submitDisabled={!canSubmitCreate(form.values)}
    >
      <TextInput
        withAsterisk
        autoComplete="off"
        data-autofocus
        {...field('username', d.username, d.usernamePlaceholder)}
      />
      <PasswordInput
        withAsterisk
        autoComplete="new-password"
        {...field('password', d.password, d.passwordPlaceholder)}
      />
      <TextInput autoComplete="off" {...field('full_name', c.fullName, c.fullNamePlaceholder)} />
      <TextInput autoComplete="off" {...field('contact_name', c.contactName, c.contactNamePlaceholder)} />
      <TextInput type="tel" inputMode="numeric" autoComplete="off" {...field('phone', d.phone, d.phonePlaceholder)} />
      <CustomerRateField
        form={{
          values: form.values,
          submitting: saving,
          errors: form.errors,
          setPct: (value) => form.setFieldValue('margin_pct', value),
          setZeroOk: (checked) => {
            form.setFieldValue('margin_zero_ok', checked);
            form.clearFieldError('margin_zero_ok');
          },
        }}
      />
    </FormDialog>
  );
}
