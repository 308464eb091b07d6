import { Modal } from '@pfp/mantine';
import type { ModalProps } from '@mantine/core';
import { zh } from '@pfp/i18n';

export type ConsoleModalProps = Omit<
  ModalProps,
  'opened' | 'closeOnClickOutside' | 'closeOnEscape' | 'closeButtonProps' | 'centered'
> & {
  /** Open unless said otherwise (most dialogs are mounted only while open). */
  opened?: boolean;
  /** A call is on its way: nothing closes the dialog (×, Escape, a click outside) until it is answered. */
  busy?: boolean;
};

/** The console's dialog frame: centred, its × named 关闭, and held open while its call runs. */
export function ConsoleModal({ opened = true, busy = false, onClose, ...props }: ConsoleModalProps) {
  return (
    <Modal
      {...props}
      opened={opened}
      onClose={() => {
        if (!busy) onClose();
      }}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      closeButtonProps={{ disabled: busy, 'aria-label': zh.shell.close }}
      centered
    />
  );
}
