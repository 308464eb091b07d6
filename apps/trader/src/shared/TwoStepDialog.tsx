import { Alert, Stack } from '@pfp/mantine';
import { notify } from '@pfp/ui';
import { useState, type ReactNode } from 'react';
import { zh } from '@pfp/i18n';
import { errorText, isPendingApproval } from './api';
import { ConsoleModal } from './ConsoleModal';
import { ConfirmStep, DialogActions } from './DialogActions';
import type { SaveTexts } from './FormDialog';
import { TONE } from './tones';

export interface TwoStepDialogProps {
  title: ReactNode;
  /** The confirmation step's title, when it is not the entry's. */
  confirmTitle?: ReactNode;
  size?: 'md' | 'lg' | 'xl';
  labels: { cancel: string; next: string; back: string; confirm: string };
  /** The entry step: the fields and what they will do. */
  entry: ReactNode;
  /** The entry is not ready for its confirmation yet. */
  nextDisabled?: boolean;
  /** The confirmation step: the consequence, in words, before anything is sent. */
  confirmation: ReactNode;
  /** The call, made only from the confirmation step. */
  run: () => Promise<unknown>;
  texts: Pick<SaveTexts, 'done' | 'failed'>;
  onClose: () => void;
}

/**
 * A money dialog in two steps — the entry, then its confirmation — that cannot be closed while its call
 * runs. Success: the toast and close. Refusal: back on the entry with the values kept and the server's
 * reason in the dialog, where the person is looking.
 */
export function TwoStepDialog(props: TwoStepDialogProps) {
  const { title, confirmTitle, size, labels, entry, nextDisabled, confirmation, run, texts, onClose } = props;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    try {
      const data = await run();
      // Held by the approval policy (202): nothing changed yet; a 风控 colleague approves it (docs/roles.md).
      notify(isPendingApproval(data) ? zh.roles.approvals.submitted(data.request_id) : texts.done, 'success');
      onClose();
    } catch (err) {
      setRefusal(texts.failed(errorText(err)));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConsoleModal onClose={onClose} busy={busy} title={confirming ? (confirmTitle ?? title) : title} size={size}>
      {confirming ? (
        <ConfirmStep
          backLabel={labels.back}
          onBack={() => setConfirming(false)}
          confirmLabel={labels.confirm}
          onConfirm={() => void confirm()}
          busy={busy}
        >
          {confirmation}
        </ConfirmStep>
      ) : (
        <Stack gap="md">
          {refusal ? (
            <Alert color={TONE.danger} variant="light" role="alert">
              {refusal}
            </Alert>
          ) : null}
          {entry}
          <DialogActions
            backLabel={labels.cancel}
            onBack={onClose}
            confirmLabel={labels.next}
            onConfirm={() => {
              setRefusal(null);
              setConfirming(true);
            }}
            busy={false}
            confirmDisabled={nextDisabled}
          />
        </Stack>
      )}
    </ConsoleModal>
  );
}
