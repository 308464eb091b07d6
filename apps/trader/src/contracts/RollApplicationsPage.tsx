import { Badge, Button, Group, NumberInput, Table, Text } from '@pfp/mantine';
import type { RollApplication } from '@pfp/contract';
import { DataTable, filterConfigsOf, type DataTableColumn } from '@pfp/data-table';
import {
  formatBasis,
  formatLots,
  formatLotsWithUnits,
  formatNumber,
  formatPrice,
  instrumentShort,
  zh,
} from '@pfp/i18n';
import { useMemo, useState } from 'react';
import { usePriceRoll, useRollApplicationsTable, useRollQuote } from '../shared/api';
import { PageLayout } from '../shared/PageLayout';
import { TONE } from '../shared/tones';
import { applying, EffectDialog } from './LifecycleDialogs';
import { useCan } from '../shared/roles';
import { RollAutoPricingCard } from './RollAutoPricingCard';

const R = zh.rollApplications;
const C = R.console;
const yuan = (n: number) => formatNumber(n, 2);
const num = (v: number | string) => (typeof v === 'number' ? v : v === '' || v === '-' ? NaN : Number(v));

const STATUS_COLOR: Record<string, string> = {
  pending: TONE.warning,
  priced: TONE.info,
  expired: TONE.muted,
  accepted: TONE.success,
};
const STATUS_OPTIONS = Object.entries(R.statuses).map(([value, label]) => ({ value, label }));

const offerText = (r: RollApplication) =>
  r.spread !== null && r.fee !== null ? C.offerText(formatBasis(r.spread), yuan(r.fee)) : '-';

const COLUMNS: DataTableColumn<RollApplication>[] = [
  // At 820 px (a tablet beside the sidebar) the row keeps customer, months, lots, status and 报价 in view: the
  // number, contract, offer and time give way first (the status says whether an offer is out).
  { field: 'id', header: C.columns.id, width: 64, priority: 3, render: (r) => `#${r.id}` },
  { field: 'pricer_name', header: C.columns.customer, width: 96, filter: { type: 'text' } },
  { field: 'contract_name', header: C.columns.contract, width: 140, priority: 2, filter: { type: 'text' } },
  {
    field: 'to_instrument_id',
    header: C.columns.months,
    width: 130,
    render: (r) => `${instrumentShort(r.from_instrument_id)} → ${instrumentShort(r.to_instrument_id)}`,
  },
  { field: 'quantity', header: C.columns.quantity, width: 64, render: (r) => formatLots(r.quantity) },
  {
    field: 'status',
    header: C.columns.status,
    kind: 'badge',
    width: 140,
    render: (r) => (
      <Badge variant="outline" color={STATUS_COLOR[r.status] ?? TONE.muted} data-status={r.status}>
        {r.status_str}
      </Badge>
    ),
    filter: { type: 'select', options: STATUS_OPTIONS, multiple: true },
  },
  { field: 'spread', header: C.columns.offer, width: 200, priority: 2, render: offerText },
  { field: 'created_at', header: C.columns.created, kind: 'date', twoLine: true, width: 108, priority: 3 },
];

/** The live month spread of the application: both futures' bid/ask and the market's 月差 range. */
function LiveSpread({ application }: { application: RollApplication }) {
  const quote = useRollQuote(application);
  const q = quote.data;
  if (!q) return null;
  const unit = q.unit ?? '单位';
  const p = (v: number | null) => (v === null ? '-' : formatPrice(v));
  return (
    <div data-testid="roll-quote">
      <Table withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{R.desk.market}</Table.Th>
            <Table.Th>{R.desk.bid}</Table.Th>
            <Table.Th>{R.desk.ask}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{R.desk.from(q.from.symbol)}</Table.Td>
            <Table.Td>{p(q.from.bid)}</Table.Td>
            <Table.Td>{p(q.from.ask)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>{R.desk.to(q.to.symbol)}</Table.Td>
            <Table.Td>{p(q.to.bid)}</Table.Td>
            <Table.Td>{p(q.to.ask)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="sm" mt={4} data-testid="roll-market-spread">
        {q.spread_low !== null && q.spread_high !== null
          ? R.desk.spreadRange(formatBasis(q.spread_low), formatBasis(q.spread_high), unit)
          : R.desk.noQuote}
      </Text>
    </div>
  );
}

/** 报价: 月差, 转月费 and how long the offer holds; what the customer's acceptance will do, then the offer. */
function PriceDialog({ application, onClose }: { application: RollApplication; onClose: () => void }) {
  const price = usePriceRoll();
  const [spread, setSpread] = useState<number | string>('');
  const [fee, setFee] = useState<number | string>(0);
  const [valid, setValid] = useState<number | string>(300);
  const s = num(spread);
  const f = num(fee) || 0;
  const v = num(valid);
  const a = application;
  const ready = Number.isFinite(s) && Number.isInteger(v) && v >= 10;
  return (
    <EffectDialog
      title={C.priceTitle(a.id, a.contract_name ?? '')}
      size="lg"
      confirmLabel={C.confirm}
      texts={{ done: C.done, failed: C.failed }}
      onClose={onClose}
      run={() => price.mutateAsync({ application_id: a.id, spread: s, fee_per_unit: f, valid_seconds: v })}
      effect={
        ready
          ? {
              testId: 'price-roll-effect',
              title: zh.lifecycle.ui.rollDialog.effectTitle,
              irreversible: C.noOrders,
              items: applying(
                C.effect(
                  formatLotsWithUnits(a.quantity, a.multiplier, a.unit),
                  a.from_instrument_id,
                  a.to_instrument_id,
                ),
                C.newBasis(formatBasis(a.basis), formatBasis(s), formatBasis(a.basis + s)),
                C.feeTotal(yuan(f * a.quantity * (a.multiplier ?? 1))),
                C.validNote(v),
              ),
            }
          : null
      }
    >
      <LiveSpread application={a} />
      <Group grow align="flex-start">
        <NumberInput label={C.spread} allowNegative value={spread} onChange={setSpread} data-testid="price-spread" />
        <NumberInput
          label={C.feePerUnit}
          min={0}
          decimalScale={2}
          value={fee}
          onChange={setFee}
          data-testid="price-fee"
        />
        <NumberInput
          label={C.valid}
          min={10}
          max={86_400}
          allowDecimal={false}
          value={valid}
          onChange={setValid}
          data-testid="price-valid"
        />
      </Group>
    </EffectDialog>
  );
}

/** /trader/roll-applications: the customers' 转月 applications, priced here (issue 42 item 3). */
export function RollApplicationsPage() {
  const filterConfigs = useMemo(() => filterConfigsOf(COLUMNS), []);
  const table = useRollApplicationsTable({
    filterConfigs,
    initialPageSize: 20,
    initialSorting: [{ field: 'id', ascending: false }],
  });
  const [pricing, setPricing] = useState<RollApplication | null>(null);
  // 报价 is 交易员's (docs/roles.md): other roles read the list only.
  const mayPrice = useCan()('priceRoll');
  return (
    <PageLayout subtitle={C.subtitle}>
      <RollAutoPricingCard />
      <div data-testid="roll-applications-card">
        <DataTable<RollApplication>
          controller={table}
          columns={COLUMNS}
          title={C.title}
          description={C.subtitle}
          renderRowActions={
            mayPrice
              ? (row) =>
                  row.status === 'pending' || row.status === 'expired' ? (
                    <Button
                      size="compact-xs"
                      variant="outline"
                      color={TONE.info}
                      onClick={() => setPricing(row)}
                      data-testid={`price-roll-${row.id}`}
                    >
                      {row.status === 'pending' ? C.price : C.reprice}
                    </Button>
                  ) : null
              : undefined
          }
          actionsColumnWidth={80}
        />
      </div>
      {pricing ? <PriceDialog application={pricing} onClose={() => setPricing(null)} /> : null}
    </PageLayout>
  );
}
