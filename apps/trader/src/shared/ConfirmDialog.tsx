import { Button, Group, Stack } from '@pfp/mantine';
import type { ReactNode } from 'react';
import { ConsoleModal } from './ConsoleModal';

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
    <ConsoleModal opened={opened} onClose={close} title={title} busy={busy}>
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
    </ConsoleModal>
  );
}
