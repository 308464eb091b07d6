import { Button, Group, Modal, Stack } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { FormEventHandler, ReactNode } from 'react';
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
  children: ReactNode;
}

/** The console's form dialog: the fields, then 取消 and the submit button; Enter submits, Escape cancels. */
export function FormDialog(props: FormDialogProps) {
  const { opened, title, saving, onSubmit, cancelLabel, submitLabel, submitDisabled, size, children } = props;
  const close = () => {
    if (!saving) props.onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      closeButtonProps={{ disabled: saving, 'aria-label': zh.shell.close }}
      size={size}
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {children}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {cancelLabel}
            </Button>
            <Button type="submit" color={TONE.primary} disabled={saving || submitDisabled}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
