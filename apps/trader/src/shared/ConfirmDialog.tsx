import { Button, Group, Modal, Stack } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  opened: boolean;
  title: ReactNode;
  /** The request is on its way: nothing closes the dialog, both buttons wait. */
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
  cancelLabel: string;
  confirmLabel: string;
  /** The confirm button's colour (TONE.warning for a pause, TONE.danger for a 停用 …). */
  confirmColor: string;
  /** Not yet confirmable (e.g. until what it will do has been counted). */
  confirmDisabled?: boolean;
  /** What the action will do, read before the trader confirms it. */
  children: ReactNode;
}

/** The console's confirmation of a state change: what it will do, then 取消 and the confirm button. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, title, busy, onConfirm, cancelLabel, confirmLabel, confirmColor, confirmDisabled, children } = props;
  const close = () => {
    if (!busy) props.onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      closeButtonProps={{ disabled: busy, 'aria-label': zh.shell.close }}
      centered
    >
      <Stack gap="md">
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button color={confirmColor} onClick={onConfirm} disabled={busy || confirmDisabled} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
