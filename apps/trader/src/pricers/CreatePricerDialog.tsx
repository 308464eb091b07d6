import { Button, Group, Modal, PasswordInput, Stack, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { errorText, useCreatePricer } from '../shared/api';
import {
  canSubmitCreate,
  createPricerSchema,
  EMPTY_CREATE_PRICER,
  toCreatePricerInput,
  type CreatePricerValues,
} from './pricerForms';
import { TONE } from '../shared/tones';

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

  const close = () => {
    if (!saving) onClose();
  };

  const save = async (values: CreatePricerValues) => {
    try {
      await createPricer.mutateAsync(toCreatePricerInput(values));
      notify(t.created, 'success');
      onClose();
    } catch (err) {
      notify(t.createFailed(errorText(err)), 'error');
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
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="sm">
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
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {d.cancel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving || !canSubmitCreate(form.values)}>
              {saving ? d.creating : d.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
