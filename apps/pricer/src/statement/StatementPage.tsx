import { Alert, Button, Card, Group, Loader, Modal, Stack, Text, TextInput } from '@pfp/mantine';
import { serverMessage } from '@pfp/api-client';
import type { Statement } from '@pfp/contract';
import { beijingDay, zh } from '@pfp/i18n';
import { DayInput, notify, StatementView } from '@pfp/ui';
import { useState } from 'react';
import { useMyStatement, useRespondStatement } from '../shared/api';
import { useSession } from '../shared/session/useSession';

const t = zh.statements;
const r = t.response;

/** 对账确认 / 有异议: each in a dialog that says what it records before it is sent. */
function RespondButtons({ statement, userId }: { statement: Statement; userId: number }) {
  const respond = useRespondStatement(userId);
  const [open, setOpen] = useState<'confirmed' | 'disputed' | null>(null);
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const answered = statement.response?.current === true;
  if (answered) return null;
  const close = () => {
    if (respond.isPending) return;
    setOpen(null);
    setNote('');
    setTouched(false);
  };
  const send = async () => {
    if (open === 'disputed' && !note.trim()) {
      setTouched(true);
      return;
    }
    try {
      await respond.mutateAsync({
        start_date: statement.start_date,
        end_date: statement.end_date,
        digest: statement.digest,
        response: open!,
        note: note.trim(),
      });
      notify(r.done, 'success');
      setOpen(null);
      setNote('');
    } catch (err) {
      notify(r.failed(serverMessage(err) ?? String(err)), 'error');
    }
  };
  return (
    <>
      <Group gap="xs">
        <Button onClick={() => setOpen('confirmed')} data-testid="statement-confirm">
          {r.confirm}
        </Button>
        <Button variant="default" color="orange" onClick={() => setOpen('disputed')} data-testid="statement-dispute">
          {r.dispute}
        </Button>
      </Group>
      <Modal
        opened={open !== null}
        onClose={close}
        title={open === 'disputed' ? r.disputeTitle : r.confirmTitle}
        centered
        closeButtonProps={{ 'aria-label': r.cancel }}
      >
        <Stack gap="sm">
          {open === 'disputed' ? (
            <>
              <Text size="sm">{r.disputeText}</Text>
              <TextInput
                label={r.disputeNote}
                placeholder={r.disputePlaceholder}
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
                onBlur={() => setTouched(true)}
                maxLength={500}
                error={touched && !note.trim() ? r.noteRequired : undefined}
                data-autofocus
                data-testid="dispute-note"
              />
            </>
          ) : (
            <Text size="sm">{r.confirmText(statement.start_date, statement.end_date)}</Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={respond.isPending}>
              {r.cancel}
            </Button>
            <Button onClick={() => void send()} loading={respond.isPending} data-testid="statement-respond-submit">
              {r.submit}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** /pricer/:tenant/statement: the customer's statement of a period; they confirm it or dispute it. */
export function StatementPage() {
  const session = useSession();
  const userId = session?.user.user_id ?? 0;
  const [start, setStart] = useState(() => `${beijingDay(Date.now()).slice(0, 8)}01`);
  const [end, setEnd] = useState(() => beijingDay(Date.now()));
  const rangeError = start && end && start > end ? t.dateRange : undefined;
  const period = start && end && !rangeError ? { start_date: start, end_date: end } : null;
  const statement = useMyStatement(userId, period);
  return (
    <Stack gap="md" py="xs">
      <Card withBorder radius="md" p="sm">
        <Group align="flex-end" gap="sm" grow>
          <DayInput label={t.startDate} value={start} onChange={setStart} testId="statement-start" />
          <DayInput label={t.endDate} value={end} onChange={setEnd} testId="statement-end" />
        </Group>
        {rangeError ? (
          <Text size="sm" c="red.8" role="alert" mt="xs">
            {rangeError}
          </Text>
        ) : null}
      </Card>
      {statement.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t.loadFailed(serverMessage(statement.error) ?? String(statement.error))}
        </Alert>
      ) : null}
      {period && statement.isPending ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t.loading} />
        </Group>
      ) : null}
      {period && statement.data ? (
        <StatementView
          statement={statement.data}
          respond={<RespondButtons statement={statement.data} userId={userId} />}
        />
      ) : null}
    </Stack>
  );
}
