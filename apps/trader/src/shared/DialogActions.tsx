import { Button, Group, Stack, Text } from '@pfp/mantine';
import type { ReactNode } from 'react';
import { TONE } from './tones';

export interface DialogActionsProps {
  /** 取消 or 返回. */
  backLabel: string;
  onBack: () => void;
  confirmLabel: string;
  onConfirm: () => void;
  /** The call is on its way: 返回 waits, the confirm button spins. */
  busy: boolean;
  /** Not yet confirmable (a field still missing or wrong). */
  confirmDisabled?: boolean;
  /** TONE.warning for what cannot be undone (转月, 延期); the primary colour otherwise. */
  confirmColor?: string;
  /** The confirm button takes the focus when the dialog opens on this step. */
  autoFocus?: boolean;
}

/** A dialog step's two buttons, right-aligned: step back (or cancel), then confirm. */
export function DialogActions(props: DialogActionsProps) {
  const { backLabel, onBack, confirmLabel, onConfirm, busy, confirmDisabled, confirmColor, autoFocus } = props;
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onBack} disabled={busy}>
        {backLabel}
      </Button>
      <Button
        color={confirmColor ?? TONE.primary}
        onClick={onConfirm}
        loading={busy}
        disabled={confirmDisabled}
        data-autofocus={autoFocus || undefined}
      >
        {confirmLabel}
      </Button>
    </Group>
  );
}

/** The confirmation step of a two-step dialog: what the call will do, then 返回 and 确认. */
export function ConfirmStep({ children, ...actions }: DialogActionsProps & { children: ReactNode }) {
  return (
    <Stack>
      {typeof children === 'string' ? <Text>{children}</Text> : children}
      <DialogActions autoFocus {...actions} />
    </Stack>
  );
}
