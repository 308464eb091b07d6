import { Checkbox, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import type { PricerUserRow } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { useUpdatePricerProfile } from '../shared/api';
import { fieldsOf, FormDialog, saveThenClose } from '../shared/FormDialog';
import {
  editPricerSchema,
  editValuesOf,
  marginZeroProblem,
  toProfileInput,
  type EditPricerValues,
} from './pricerForms';
import { CustomerRateField } from './CustomerRateField';

const t = zh.trader.pricers;
const c = zh.customers;

/**
 * 编辑客户 (issue 29): 客户全称, 联系人, 手机号 and 点价前确认 (the desk's confirm sheet, default on).
 * Only what changed is sent. Mount with a new key on every open.
 */
export function EditPricerDialog({ user, onClose }: { user: PricerUserRow | null; onClose: () => void }) {
  const update = useUpdatePricerProfile();
  const initial = user ? editValuesOf(user) : null;
  const form = useForm<EditPricerValues>({
    initialValues: initial ?? {
      user_id: 0,
      full_name: '',
      contact_name: '',
      phone: '',
      confirm_before_fix: true,
      margin_pct: '',
      margin_zero_ok: false,
    },
    validate: schemaResolver(editPricerSchema, { sync: true }),
  });
  const saving = form.submitting;
  const field = fieldsOf(form);

  const save = saveThenClose(
    async (values: EditPricerValues) => {
      const input = initial ? toProfileInput(values, initial) : null;
      if (input) await update.mutateAsync(input);
    },
    { done: c.saved, failed: c.saveFailed },
    onClose,
  );

  return (
    <FormDialog
      opened={user !== null}
      title={c.editTitle(user?.username ?? '')}
      saving={saving}
      onClose={onClose}
      onSubmit={form.onSubmit((values) => {
        const zero = marginZeroProblem(values);
        if (zero) return form.setFieldError('margin_zero_ok', zero);
        if (initial && !toProfileInput(values, initial)) {
          notify(c.unchanged, 'info', 2000);
          onClose();
          return;
        }
        return save(values);
      })}
      cancelLabel={c.cancel}
      submitLabel={saving ? c.saving : c.save}
    >
      <TextInput autoComplete="off" data-autofocus {...field('full_name', c.fullName, c.fullNamePlaceholder)} />
      <TextInput autoComplete="off" {...field('contact_name', c.contactName, c.contactNamePlaceholder)} />
      <TextInput
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        {...field('phone', t.createDialog.phone, t.createDialog.phonePlaceholder)}
      />
      <Checkbox
        label={c.confirmBeforeFix}
        description={c.confirmBeforeFixHelp}
        disabled={saving}
        {...form.getInputProps('confirm_before_fix', { type: 'checkbox' })}
      />
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
