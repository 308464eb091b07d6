import { Button, Group, PasswordInput, Select, Stack, Text, TextInput } from '@pfp/mantine';
import { schemaResolver, useForm } from '@mantine/form';
import {
  addAuthorisedPricerInput,
  ID_TYPES,
  type AuthorisedPricer,
  type IdType,
  type UpdateAuthorisedPricerInput,
} from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { notify } from '@pfp/ui';
import { errorText, useAddAuthorisedPricer, useUpdateAuthorisedPricer } from '../shared/api';
import { fieldsOf } from '../shared/FormDialog';
import { TONE } from '../shared/tones';

const t = zh.authorisedPricers;
const f = t.form;

interface Values {
  user_id: number;
  name: string;
  id_type: IdType | '';
  id_last4: string;
  phone: string;
  username: string;
  password: string;
}

/** The person's fields a change may send (the login is set once, when the person is added). */
const EDITABLE = ['name', 'id_type', 'id_last4', 'phone'] as const;

/** What changed of a person: the update's fields, or null when nothing did. */
export function personChanges(values: Values, person: AuthorisedPricer): UpdateAuthorisedPricerInput | null {
  const changed = EDITABLE.filter((k) => values[k].trim() !== (person[k] ?? ''));
  if (!changed.length) return null;
  return Object.fromEntries([
    ['person_id', person.id],
    ...changed.map((k) => [k, values[k].trim()]),
  ]) as UpdateAuthorisedPricerInput;
}

/**
 * 新增 or 编辑 one 授权点价人: name, 证件类型, the ID's last 4 (never the whole number), phone; a new
 * person also gets their login and initial password. The server's own schema checks the new person.
 */
export function AuthorisedPricerForm(props: {
  userId: number;
  customer: string;
  person: AuthorisedPricer | null;
  onDone: () => void;
}) {
  const { person } = props;
  const add = useAddAuthorisedPricer();
  const update = useUpdateAuthorisedPricer();
  const form = useForm<Values>({
    initialValues: {
      user_id: props.userId,
      name: person?.name ?? '',
      id_type: person?.id_type ?? '',
      id_last4: person?.id_last4 ?? '',
      phone: person?.phone ?? '',
      username: person?.username ?? '',
      password: '',
    },
    validate: person
      ? schemaResolver(addAuthorisedPricerInput.pick({ name: true, id_type: true, id_last4: true, phone: true }), {
          sync: true,
        })
      : schemaResolver(addAuthorisedPricerInput, { sync: true }),
  });
  const saving = form.submitting;
  const field = fieldsOf(form);

  const submit = form.onSubmit(async (values) => {
    try {
      if (person) {
        const changes = personChanges(values, person);
        if (!changes) {
          notify(f.unchanged, 'info', 2000);
          return props.onDone();
        }
        await update.mutateAsync(changes);
        notify(t.saved(values.name.trim()), 'success');
      } else {
        await add.mutateAsync({ ...values, id_type: values.id_type as IdType });
        notify(t.added(values.name.trim()), 'success');
      }
      props.onDone();
    } catch (err) {
      notify(t.saveFailed(errorText(err)), 'error');
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput autoComplete="off" data-autofocus withAsterisk {...field('name', f.name, f.namePlaceholder)} />
        <Select
          data-testid="person-id-type"
          withAsterisk
          allowDeselect={false}
          data={ID_TYPES.map((value) => ({ value, label: t.idTypes[value] ?? value }))}
          {...field('id_type', f.idType)}
        />
        <TextInput
          autoComplete="off"
          maxLength={4}
          withAsterisk
          description={f.idLast4Help}
          {...field('id_last4', f.idLast4, f.idLast4Placeholder)}
        />
        <TextInput
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          withAsterisk
          {...field('phone', f.phone, f.phonePlaceholder)}
        />
        {person ? null : (
          <>
            <TextInput autoComplete="off" withAsterisk {...field('username', f.username, f.usernamePlaceholder)} />
            <PasswordInput
              autoComplete="new-password"
              withAsterisk
              {...field('password', f.password, f.passwordPlaceholder)}
            />
            <Text size="sm" c="dimmed">
              {f.addEffect(props.customer)}
            </Text>
          </>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={props.onDone} disabled={saving}>
            {f.cancel}
          </Button>
          <Button type="submit" color={TONE.primary} disabled={saving}>
            {saving ? f.saving : f.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
