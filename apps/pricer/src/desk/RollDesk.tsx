import { Alert, Badge, Button, Group, Modal, NativeSelect, NumberInput, Stack, Table, Text } from '@pfp/mantine';
import { formatBasis, formatDateTime, formatLots, formatLotsWithUnits, formatNumber, formatPrice, zh } from '@pfp/i18n';
import type { PricerContract, RollApplication, RollQuote } from '@pfp/contract';
import { serverMessage } from '@pfp/api-client';
import { notify } from '@pfp/ui';
import { useState } from 'react';
import { useAcceptRoll, useApplyRoll, useContractRollApplications, useRollQuote } from '../shared/api';
import { DeskList } from './DeskList';

const R = zh.rollApplications;
const T = R.desk;

/** 总数量 on the desk: the agreed total, and the lots rolled out of it (issue 42: the total stays as agreed). */
export function totalLots(c: PricerContract): string {
  const out = c.rolled_out_quantity ?? 0;
  return out > 0 ? `${formatLots(c.total_quantity)}（${T.rolledOut(out)}）` : formatLots(c.total_quantity);
}

const priceText = (v: number | null) => (v === null ? '-' : formatPrice(v));

/** Both futures' best bid/ask and the market's 月差 (from − to) now. */
function QuoteTable({ quote }: { quote: RollQuote }) {
  const unit = quote.unit ?? '单位';
  const low = quote.spread_low;
  const high = quote.spread_high;
  return (
    <Stack gap={4} data-testid="roll-quote">
      <Text size="sm" fw={600}>
        {T.market}
      </Text>
      <Table withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{T.month}</Table.Th>
            <Table.Th>{T.bid}</Table.Th>
            <Table.Th>{T.ask}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(
            [
              [T.from(quote.from.symbol), quote.from],
              [T.to(quote.to.symbol), quote.to],
            ] as const
          ).map(([label, side]) => (
            <Table.Tr key={label}>
              <Table.Td>{label}</Table.Td>
              <Table.Td>{priceText(side.bid)}</Table.Td>
              <Table.Td>{priceText(side.ask)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="roll-market-spread">
        {low !== null && high !== null ? T.spreadRange(formatBasis(low), formatBasis(high), unit) : T.noQuote}
      </Text>
    </Stack>
  );
}

/** The application form: target month, lots, the live spread; the fee comes with the trader's offer. */
function ApplyForm(props: { userId: number; contract: PricerContract; onDone: () => void }) {
  const { userId, contract, onDone } = props;
  const [to, setTo] = useState<string | undefined>(undefined);
  const [lots, setLots] = useState<number | ''>(contract.remaining_quantity);
  const quote = useRollQuote(userId, contract.id, to, true);
  const apply = useApplyRoll(userId);
  const target = to ?? quote.data?.to.symbol;
  async function submit() {
    if (!target || lots === '') return;
    try {
      const applied = await apply.mutateAsync({ contract_id: contract.id, quantity: lots, to_instrument_id: target });
      // The company's auto rule may have priced it at once (docs/roles.md): then the offer waits for the customer.
      notify(applied.status === 'priced' ? T.autoPriced : T.submitted, 'success');
      onDone();
    } catch (err) {
      notify(T.failed(serverMessage(err) ?? ''), 'error');
    }
  }
  return (
    <Stack gap="sm">
      <NativeSelect
        label={T.target}
        value={target ?? ''}
        onChange={(e) => setTo(e.currentTarget.value)}
        data={(quote.data?.months ?? []).map((m) => ({ value: m, label: m }))}
      />
      <NumberInput
        label={T.quantity}
        description={T.available(contract.remaining_quantity)}
        min={1}
        max={contract.remaining_quantity}
        allowDecimal={false}
        value={lots}
        onChange={(v) => setLots(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
      />
      {quote.data ? <QuoteTable quote={quote.data} /> : null}
      <Text size="sm" c="dimmed">
        {T.feeNote}
      </Text>
      <Button onClick={() => void submit()} loading={apply.isPending} disabled={!target || lots === '' || lots < 1}>
        {T.submit}
      </Button>
    </Stack>
  );
}

/** One application: its months and lots, its state, and — once priced — the offer with its validity. */
function ApplicationLine(props: { a: RollApplication; onAccept: (a: RollApplication) => void }) {
  const { a } = props;
  const unit = a.unit ?? '单位';
  const priced = a.status === 'priced' && a.spread !== null && a.fee_per_unit !== null;
  return (
    <Stack gap={2} data-testid="roll-application">
      <Group gap="xs" justify="space-between">
        <Text size="sm" fw={600}>
          #{a.id} {T.line(a.quantity, a.from_instrument_id, a.to_instrument_id)}
        </Text>
        <Badge variant="light" color={a.status === 'priced' ? 'blue' : a.status === 'accepted' ? 'green' : 'gray'}>
          {R.statuses[a.status]}
        </Badge>
      </Group>
      {a.spread !== null && a.status !== 'pending' ? (
        <Text size="sm">{T.offer(formatBasis(a.spread), formatBasis(a.basis + a.spread), unit)}</Text>
      ) : null}
      {a.fee_per_unit !== null && a.fee !== null && a.status !== 'pending' ? (
        <Text size="sm">{T.fee(formatNumber(a.fee_per_unit, 2), unit, a.quantity, formatNumber(a.fee, 2))}</Text>
      ) : null}
      {priced && a.valid_until ? (
        <Text size="sm" fw={600}>
          {T.validUntil(formatDateTime(a.valid_until, true))}
        </Text>
      ) : null}
      {a.to_contract_id !== null ? <Text size="sm">{T.rolledTo(a.to_contract_id)}</Text> : null}
      {priced ? (
        <Button size="sm" onClick={() => props.onAccept(a)}>
          {T.accept}
        </Button>
      ) : null}
    </Stack>
  );
}

/** 转月申请 on the desk (issue 42 item 3): apply, see the trader's offer, accept it in time. */
export function RollDesk(props: { userId: number; contract: PricerContract; compact: boolean }) {
  const { userId, contract, compact } = props;
  const [applying, setApplying] = useState(false);
  const [accepting, setAccepting] = useState<RollApplication | null>(null);
  const applications = useContractRollApplications(userId, contract.id);
  const accept = useAcceptRoll(userId);
  const rows = applications.data?.items ?? [];
  const rollable = contract.status === 'active' && contract.pricing_mode === 'point' && contract.remaining_quantity > 0;

  async function confirmAccept() {
    if (!accepting) return;
    try {
      const done = await accept.mutateAsync(accepting.id);
      notify(T.accepted(done.to_contract_id ?? 0), 'success');
    } catch (err) {
      notify(T.acceptFailed(serverMessage(err) ?? ''), 'error');
    } finally {
      setAccepting(null);
    }
  }

  const a = accepting;
  const unit = a?.unit ?? '单位';
  return (
    <DeskList title={T.mine} subtitle={contract.name} total={0} compact={compact} testId="roll-applications">
      {rollable ? (
        <Button variant="light" onClick={() => setApplying(true)} fullWidth={compact}>
          {T.apply}
        </Button>
      ) : null}
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {T.none}
        </Text>
      ) : (
        rows.map((r) => <ApplicationLine key={r.id} a={r} onAccept={setAccepting} />)
      )}
      <Modal
        opened={applying}
        onClose={() => setApplying(false)}
        title={T.title(contract.name)}
        fullScreen={compact}
        closeButtonProps={{ 'aria-label': zh.shell.close }}
      >
        {applying ? <ApplyForm userId={userId} contract={contract} onDone={() => setApplying(false)} /> : null}
      </Modal>
      <Modal
        opened={a !== null}
        onClose={() => setAccepting(null)}
        title={T.confirmTitle}
        fullScreen={compact}
        closeButtonProps={{ 'aria-label': zh.shell.close }}
      >
        {a && a.spread !== null ? (
          <Stack gap="sm">
            <Alert color="orange" data-testid="roll-accept-effect">
              {T.confirmBody(
                formatLotsWithUnits(a.quantity, a.multiplier, a.unit),
                a.from_instrument_id,
                a.to_instrument_id,
                `${formatBasis(a.basis + a.spread)} 元/${unit}`,
                formatNumber(a.fee ?? 0, 2),
              )}
            </Alert>
            <Text size="sm">{T.confirmIrreversible}</Text>
            {a.valid_until ? <Text size="sm">{T.validUntil(formatDateTime(a.valid_until, true))}</Text> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAccepting(null)}>
                {T.cancel}
              </Button>
              <Button onClick={() => void confirmAccept()} loading={accept.isPending}>
                {T.confirm}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </DeskList>
  );
}
