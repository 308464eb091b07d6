import { Button, Group, Stack } from '@pfp/mantine';
import type { LooseKeys, UseFormReturnType } from '@mantine/form';
import type { FormEventHandler, ReactNode } from 'react';
import { notify } from '@pfp/ui';
import { errorText } from './api';
import { ConsoleModal } from './ConsoleModal';
import { TONE } from './tones';

export interface FormDialogProps {
  opened: boolean;
  title: ReactNode;
  /** While the form saves, the dialog stays open and its buttons are disabled. */
  saving: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  cancelLabel: string;
  submitLabel: string;
  submitDisabled?: boolean;
  size?: 'md' | 'lg';
  /** A button of its own on the left of the row. */
  sideAction?: ReactNode;
  children: ReactNode;
}

/** The console's form dialog: the fields, then 取消 and the submit button; Enter submits, Escape cancels. */
export function FormDialog(props: FormDialogProps) {
  const { opened, title, saving, onSubmit, cancelLabel, submitLabel, submitDisabled, size, sideAction, children } =
    props;
  const close = () => {
    if (!saving) props.onClose();
  };
  return (
    <ConsoleModal opened={opened} onClose={close} title={title} busy={saving} size={size}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {children}
          <Group justify="flex-end" mt="sm">
            {sideAction}
            <Button variant="default" onClick={close} disabled={saving}>
              {cancelLabel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving || submitDisabled}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}

/** What a dialog's save tells: the success, the failure with the server's reason; toast durations if not the defaults. */
export interface SaveTexts {
  done: string;
  failed: (reason: string) => string;
  ms?: { done: number; failed: number };
}

/** A dialog's save: on success its toast and close; on failure the reason, and the dialog keeps its values. */
export function saveThenClose<V>(run: (values: V) => Promise<unknown>, texts: SaveTexts, onClose: () => void) {
  return async (values: V) => {
    try {
      await run(values);
      notify(texts.done, 'success', texts.ms?.done);
      onClose();
    } catch (err) {
      notify(texts.failed(errorText(err)), 'error', texts.ms?.failed);
    }
  };
}

/** What every field of a form dialog takes: its label and placeholder, the form's value and error, disabled while saving. */
export const fieldsOf =
  <V,>(form: UseFormReturnType<V>) =>
  (path: LooseKeys<V>, label: string, placeholder?: string) => ({
    label,
    placeholder,
    disabled: form.submitting,
    ...form.getInputProps(path),
  });
