import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  useMediaQuery,
} from '@pfp/mantine';
import type { FeeReceivable } from '@pfp/contract';
import { beijingDay, formatNumber, zh } from '@pfp/i18n';
import { DayInput, FeeBlock, StatementView } from '@pfp/ui';
import { useState } from 'react';
import { errorText, useAllUsers, useOpenFees, useSettleFee, useStatement } from '../shared/api';
import { PageHeading } from '../shared/PageHeading';
import { TwoStepDialog } from '../shared/TwoStepDialog';
import { TONE } from '../shared/tones';

const t = zh.statements;
const yuan = (n: number) => formatNumber(n, 2);
type Method = 'collect' | 'offset' | 'waive';

/** The buttons of an open fee: collect from the customer's funds, offset, waive. */
function FeeButtons({ fee, onPick }: { fee: FeeReceivable; onPick: (fee: FeeReceivable, m: Method) => void }) {
  return (
    <Group gap={4} wrap="nowrap">
      {(['collect', 'offset', 'waive'] as const).map((m) => (
        <Button key={m} size="xs" variant={m === 'collect' ? 'light' : 'default'} onClick={() => onPick(fee, m)}>
          {t.settle[m]}
        </Button>
      ))}
    </Group>
  );
}

/** 从资金扣收 / 冲抵 / 减免: the fee, a note, then the consequence in words before it is sent. */
function SettleFeeDialog({ fee, method, onClose }: { fee: FeeReceivable; method: Method; onClose: () => void }) {
  const settle = useSettleFee();
  const [note, setNote] = useState('');
  const d = t.settle;
  const needsNote = method !== 'collect' && !note.trim();
  return (
    <TwoStepDialog
      title={d.dialogTitle[method]}
      labels={d}
      nextDisabled={needsNote}
      run={() => settle.mutateAsync({ fee_id: fee.id, method, note: note.trim() })}
      texts={d}
      onClose={onClose}
      confirmation={<Text>{d.consequence[method]!(yuan(fee.amount), fee.pricer_name)}</Text>}
      entry={
        <>
          <Text fw={500}>
            {fee.pricer_name}：{d.amountLine(fee.contract_name, t.fees.kinds[fee.kind] ?? fee.kind, yuan(fee.amount))}
          </Text>
          <TextInput
            label={d.note}
            placeholder={d.notePlaceholder}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={200}
            error={needsNote && note !== '' ? d.noteRequired : undefined}
            description={method !== 'collect' ? d.noteRequired : undefined}
            data-testid="settle-note"
          />
        </>
      }
    />
  );
}

/** Every open fee of the company, for the trader to settle. */
function OpenFees({ onPick, onView }: { onPick: (f: FeeReceivable, m: Method) => void; onView: (id: number) => void }) {
  const fees = useOpenFees();
  const phone = useMediaQuery('(max-width: 47.99em)');
  const d = t.settle;
  const items = fees.data?.items ?? [];
  const who = (f: FeeReceivable) => (
    <Button variant="subtle" size="compact-sm" px={0} onClick={() => onView(f.pricer_id)}>
      {f.pricer_name}
    </Button>
  );
  return (
    <Card withBorder radius="md" p="sm" data-testid="open-fees">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h5">
            {d.pendingTitle}
          </Title>
          {fees.data ? <Text size="sm">{d.outstanding(yuan(fees.data.outstanding))}</Text> : null}
        </Group>
        {fees.isPending ? (
          <Loader size="sm" />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {d.pendingNone}
          </Text>
        ) : phone ? (
          <Stack gap="xs">
            {items.map((f) => (
              <FeeBlock key={f.id} fee={f} who={who(f)} actions={(fee) => <FeeButtons fee={fee} onPick={onPick} />} />
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped withTableBorder aria-label={d.pendingTitle}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{d.customer}</Table.Th>
                  <Table.Th>{t.fees.contract}</Table.Th>
                  <Table.Th>{t.fees.kind}</Table.Th>
                  <Table.Th ta="right">{t.fees.amount}</Table.Th>
                  <Table.Th>{d.actions}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>{who(f)}</Table.Td>
                    <Table.Td>{f.contract_name}</Table.Td>
                    <Table.Td>{t.fees.kinds[f.kind] ?? f.kind}</Table.Td>
                    <Table.Td ta="right">{yuan(f.amount)}</Table.Td>
                    <Table.Td>
                      <FeeButtons fee={f} onPick={onPick} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

/** /trader/statements: one customer's statement of a period, and the fees to settle (docs/statements.md). */
export function StatementsPage() {
  const users = useAllUsers(true);
  const [pricer, setPricer] = useState<string | null>(null);
  const [start, setStart] = useState(() => `${beijingDay(Date.now()).slice(0, 8)}01`);
  const [end, setEnd] = useState(() => beijingDay(Date.now()));
  const [settling, setSettling] = useState<{ fee: FeeReceivable; method: Method } | null>(null);
  const rangeError = start && end && start > end ? t.dateRange : undefined;
  const request =
    pricer && start && end && !rangeError ? { pricer_id: Number(pricer), start_date: start, end_date: end } : null;
  const statement = useStatement(request);
  const pick = (fee: FeeReceivable, method: Method) => setSettling({ fee, method });
  return (
    <Stack gap="md">
      <PageHeading
        subtitle={t.subtitle}
        actions={
          <Button variant="default" onClick={() => void statement.refetch()} disabled={!request}>
            {t.refresh}
          </Button>
        }
      />
      <OpenFees onPick={pick} onView={(id) => setPricer(String(id))} />
      <Card withBorder radius="md" p="sm">
        <Group align="flex-end" gap="sm">
          <Select
            label={t.customer}
            placeholder={t.pickCustomer}
            searchable
            data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.full_name || u.username }))}
            value={pricer}
            onChange={setPricer}
            w={{ base: '100%', sm: 260 }}
            data-testid="statement-customer-select"
          />
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
        <Alert color={TONE.danger} variant="light" role="alert">
          {t.loadFailed(errorText(statement.error))}
        </Alert>
      ) : null}
      {request && statement.isPending ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t.loading} />
        </Group>
      ) : null}
      {request && statement.data ? (
        <StatementView statement={statement.data} feeActions={(fee) => <FeeButtons fee={fee} onPick={pick} />} />
      ) : null}
      {settling ? (
        <SettleFeeDialog fee={settling.fee} method={settling.method} onClose={() => setSettling(null)} />
      ) : null}
    </Stack>
  );
}
