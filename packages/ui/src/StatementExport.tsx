import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@pfp/mantine';
import { beijingDay, zh } from '@pfp/i18n';
import { useState } from 'react';
import { DayInput } from './DayInput';
import { IconFileText } from './icons';
import { notify } from './toast';

const t = zh.fixing.exports;

export interface StatementRequest {
  start_date: string;
  end_date: string;
  format: 'xlsx' | 'csv';
  pricer_id?: number;
}

/** The name a statement is saved under when the server names none. */
export const statementFileName = (q: StatementRequest) => `fixings_${q.start_date}_${q.end_date}.${q.format}`;

export interface StatementExportProps {
  /** The trader's customers to choose from (absent for a customer's own statement). */
  customers?: { id: number; username: string }[];
  /** Downloads the file; resolves with its name. */
  download: (request: StatementRequest) => Promise<string>;
  describeError: (err: unknown) => string;
}

/** The first day of this month in Beijing. */
const monthStart = (today: string) => `${today.slice(0, 8)}01`;

/** 导出对账单: a button and its dialog (range, customer, format), statements of docs/fixing.md. */
export function StatementExportButton({ customers, download, describeError }: StatementExportProps) {
  const [opened, setOpened] = useState(false);
  const [start, setStart] = useState(() => monthStart(beijingDay(Date.now())));
  const [end, setEnd] = useState(() => beijingDay(Date.now()));
  const [format, setFormat] = useState<'xlsx' | 'csv'>('xlsx');
  const [customer, setCustomer] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = !start || !end ? t.dateRequired : start > end ? t.dateRange : undefined;

  async function submit() {
    if (error || busy) return;
    setBusy(true);
    try {
      const name = await download({
        start_date: start,
        end_date: end,
        format,
        ...(customer ? { pricer_id: Number(customer) } : {}),
      });
      notify(t.done(name), 'success');
      setOpened(false);
    } catch (err) {
      notify(t.failed(describeError(err)), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileText size={16} />}
        onClick={() => setOpened(true)}
        data-testid="export-statement"
      >
        {t.button}
      </Button>
      <Modal
        opened={opened}
        onClose={() => !busy && setOpened(false)}
        title={t.title}
        centered
        closeButtonProps={{ 'aria-label': t.cancel }}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          noValidate
        >
          <Stack gap="sm">
            {customers ? (
              <Select
                label={t.customer}
                placeholder={t.allCustomers}
                clearable
                searchable
                data={customers.map((c) => ({ value: String(c.id), label: c.username }))}
                value={customer}
                onChange={setCustomer}
                disabled={busy}
                data-testid="export-customer"
              />
            ) : null}
            <Group grow>
              <DayInput label={t.startDate} value={start} onChange={setStart} disabled={busy} testId="export-start" />
              <DayInput label={t.endDate} value={end} onChange={setEnd} disabled={busy} testId="export-end" />
            </Group>
            {error ? (
              <Text size="sm" c="red.8" role="alert">
                {error}
              </Text>
            ) : null}
            <div>
              <Text size="sm" fw={500} mb={4}>
                {t.format}
              </Text>
              <SegmentedControl
                value={format}
                onChange={(v) => setFormat(v === 'csv' ? 'csv' : 'xlsx')}
                data={[
                  { value: 'xlsx', label: t.xlsx },
                  { value: 'csv', label: t.csv },
                ]}
                disabled={busy}
              />
            </div>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)} disabled={busy}>
                {t.cancel}
              </Button>
              <Button type="submit" disabled={busy || error !== undefined} data-testid="export-submit">
                {busy ? t.downloading : t.submit}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
