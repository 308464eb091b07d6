import { Alert, Checkbox, NumberInput, Text, TextInput, Textarea } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { DateField } from '@pfp/ui';
import { useState } from 'react';
import { useRecordSignedAgreement, useSaveAgreement } from '../shared/api';
import { FormDialog, saveThenClose } from '../shared/FormDialog';

const t = zh.agreement.console;

/** Today in Beijing, 'YYYY-MM-DD' (the signed date's default). */
const beijingToday = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** 发布新版本: title, text, and whether every customer must accept it before fixing again. */
export function SaveAgreementDialog(props: {
  opened: boolean;
  onClose: () => void;
  initial: { title: string; text: string };
}) {
  const save = useSaveAgreement();
  const [title, setTitle] = useState(props.initial.title);
  const [text, setText] = useState(props.initial.text);
  const [required, setRequired] = useState(true);
  const submit = saveThenClose(
    () => save.mutateAsync({ title, text, required }),
    { done: t.published, failed: (reason) => reason },
    props.onClose,
  );
  return (
    <FormDialog
      opened={props.opened}
      title={t.formTitle}
      saving={save.isPending}
      onClose={props.onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(undefined);
      }}
      cancelLabel={t.cancel}
      submitLabel={save.isPending ? t.publishing : t.publish}
      size="lg"
    >
      <TextInput label={t.titleField} value={title} onChange={(e) => setTitle(e.currentTarget.value)} required />
      <Textarea
        label={t.textField}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        autosize
        minRows={8}
        maxRows={16}
        required
      />
      <Checkbox label={t.requiredField} checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
      <Alert color={required ? 'orange' : 'gray'} variant="light">
        {required ? t.requiredHint : t.notRequiredHint}
      </Alert>
    </FormDialog>
  );
}

/** 登记签署: the signed paper's or e-signature's number, date and file name against a version. */
export function RecordSignedDialog(props: {
  customer: { user_id: number; name: string } | null;
  version: number;
  onClose: () => void;
}) {
  const record = useRecordSignedAgreement();
  const [version, setVersion] = useState<number | string>(props.version);
  const [reference, setReference] = useState('');
  const [signedOn, setSignedOn] = useState(beijingToday());
  const [fileName, setFileName] = useState('');
  const c = props.customer;
  const submit = saveThenClose(
    () =>
      record.mutateAsync({
        user_id: c!.user_id,
        version: Number(version),
        reference,
        signed_on: signedOn,
        file_name: fileName || null,
      }),
    { done: t.recorded, failed: (reason) => reason },
    props.onClose,
  );
  return (
    <FormDialog
      opened={c !== null}
      title={c ? t.recordTitle(c.name) : ''}
      saving={record.isPending}
      onClose={props.onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(undefined);
      }}
      cancelLabel={t.cancel}
      submitLabel={record.isPending ? t.saving : t.save}
    >
      <Text size="sm" c="gray.7">
        {t.recordHint}
      </Text>
      <NumberInput label={t.versionField} value={version} onChange={setVersion} min={1} allowDecimal={false} />
      <TextInput label={t.referenceField} value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      <DateField label={t.signedOnField} value={signedOn} onChange={setSignedOn} max={beijingToday()} />
      <TextInput label={t.fileField} value={fileName} onChange={(e) => setFileName(e.currentTarget.value)} />
    </FormDialog>
  );
}
