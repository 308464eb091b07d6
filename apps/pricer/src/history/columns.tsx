import { Anchor, Stack, Text } from '@pfp/mantine';
import type { DataTableColumn } from '@pfp/data-table';
import { formatBasis, formatDateTime, formatNumber, formatPrice, instrumentShort, zh } from '@pfp/i18n';
import type { OrderRow } from '@pfp/contract';
import { FiredBy, LastMessage, StatusBadge, TwoLines } from '../shared/orders/cells';
import {
  directionColor,
  directionLabel,
  fillRate,
  limitPriceText,
  lotsText,
  tradePriceText,
  tradedLots,
} from '../shared/orders/format';

const c = zh.pricer.col;
const f = zh.fixing;

const fixedPriceText = (o: OrderRow) =>
  o.fixed_price === null || o.fixed_price === undefined ? '-' : formatPrice(o.fixed_price);
const amountText = (o: OrderRow) =>
  o.fixed_amount === null || o.fixed_amount === undefined ? '-' : formatPrice(o.fixed_amount);

function FillRateCell({ order }: { order: OrderRow }) {
  const rate = fillRate(order);
  return (
    <Text
      size="sm"
      c={rate.complete ? 'green' : undefined}
      fw={rate.complete ? 600 : undefined}
      data-testid="fill-rate"
      data-complete={rate.complete}
    >
      {rate.text}
    </Text>
  );
}

/**
 * A laptop or a tablet: one value per cell. Priorities hide the extras first where the columns do
 * not fit (备注, then amount and basis — the confirmation shows both —, then the ordered lots and
 * 合约, then 成交率 and the traded lots), never time, contract, direction, prices, the fixed price or
 * status; the summary line above the table totals the ordered lots.
 */
const wide: DataTableColumn<OrderRow>[] = [
  { field: 'created_at', header: c.time, kind: 'date', width: 136 },
  { field: 'contract_name', header: c.contract, width: 130 },
  {
    field: 'instrument_id',
    header: c.instrument,
    width: 76,
    priority: 3,
    render: (o) => instrumentShort(o.instrument_id),
  },
  {
    field: 'direction',
    header: c.direction,
    width: 72,
    render: (o) => (
      <Text size="sm" c={directionColor(o.direction)}>
        {directionLabel(o.direction)}
      </Text>
    ),
  },
  { field: 'volume_orign', header: c.ordered, width: 100, priority: 3, render: (o) => lotsText(o.volume_orign) },
  // Traded lots are text on the server: sorting them would be lexicographic.
  {
    field: 'volume_traded',
    header: c.traded,
    width: 84,
    priority: 2,
    sortable: false,
    render: (o) => lotsText(tradedLots(o)),
  },
  { field: 'limit_price', header: c.limitPrice, width: 104, render: (o) => limitPriceText(o.limit_price) },
  { field: 'trade_price', header: f.futuresPrice, width: 104, render: (o) => tradePriceText(o) },
  { field: 'basis', header: f.basis, width: 84, priority: 4, render: (o) => formatBasis(o.basis) },
  { field: 'fixed_price', header: f.fixedPrice, width: 104, render: (o) => fixedPriceText(o) },
  { field: 'fixed_amount', header: f.amount, width: 128, priority: 4, render: (o) => amountText(o) },
  {
    field: 'fill_rate',
    header: c.fillRate,
    width: 76,
    priority: 2,
    sortable: false,
    accessor: (o) => fillRate(o).ratio,
    render: (o) => <FillRateCell order={o} />,
  },
  {
    field: 'status',
    header: c.status,
    width: 84,
    render: (o) => (
      <Stack gap={2} align="flex-start">
        <StatusBadge order={o} />
        <FiredBy order={o} />
      </Stack>
    ),
  },
  {
    field: 'last_msg',
    header: c.message,
    width: 130,
    priority: 4,
    sortable: false,
    render: (o) => <LastMessage text={o.last_msg} />,
  },
];

/**
 * Below 768 px: two lines per cell, so that a customer with several contracts tells orders apart
 * on a phone: the contract over its direction, instrument and lots; the fixed price over the
 * futures fill (or the order's price before a fill); the status over the fill rate, and on a filled
 * order the 确认单 link (issue 29).
 */
function compactColumns(openConfirmation?: (orderId: number) => void): DataTableColumn<OrderRow>[] {
  return [
    {
      field: 'created_at',
      header: c.time,
      width: 56,
      render: (o) => {
        const [day = '', time = ''] = formatDateTime(o.created_at).split(' ');
        return <TwoLines top={time} bottom={day.slice(5)} />;
      },
    },
    {
      field: 'contract_name',
      header: c.contract,
      width: 104,
      render: (o) => (
        <Stack gap={0} data-testid="order-contract">
          <Text size="sm" lh={1.35} lineClamp={2} title={o.contract_name ?? undefined}>
            {o.contract_name}
          </Text>
          <Text size="xs" lh={1.35} c={directionColor(o.direction)} data-testid="order-direction">
            {directionLabel(o.direction)} · {instrumentShort(o.instrument_id)}
          </Text>
          <Text size="xs" lh={1.35} c="dimmed" data-testid="order-lots">
            {c.tradedOfOrdered(formatNumber(tradedLots(o)), lotsText(o.volume_orign))}
          </Text>
        </Stack>
      ),
    },
    {
      field: 'fixed_price',
      header: c.fixedPrice,
      width: 96,
      render: (o) =>
        tradedLots(o) > 0 ? (
          <Stack gap={0} data-testid="order-prices">
            <Text size="sm" fw={600} lh={1.35} data-testid="order-fixed-price">
              {fixedPriceText(o)}
            </Text>
            <Text size="xs" c="dimmed" lh={1.35}>
              {c.futuresShort(tradePriceText(o))}
            </Text>
          </Stack>
        ) : (
          <Stack gap={0} data-testid="order-prices">
            <Text size="sm" lh={1.35}>
              -
            </Text>
            <Text size="xs" c="dimmed" lh={1.35}>
              {c.limitShort(limitPriceText(o.limit_price))}
            </Text>
          </Stack>
        ),
    },
    {
      field: 'status',
      header: c.status,
      width: 70,
      render: (o) => (
        <Stack gap={2} align="flex-start">
          <StatusBadge order={o} />
          {tradedLots(o) > 0 && openConfirmation ? (
            <Anchor
              component="button"
              type="button"
              size="xs"
              fw={600}
              onClick={() => openConfirmation(o.id)}
              aria-label={f.confirmation.openFor(o.id)}
              data-testid={`confirmation-${o.id}`}
            >
              {f.confirmation.open}
            </Anchor>
          ) : (
            <FillRateCell order={o} />
          )}
          <FiredBy order={o} />
        </Stack>
      ),
    },
  ];
}

/** The history table's columns for the screen width. */
export function historyColumns(
  isCompact: boolean,
  openConfirmation?: (orderId: number) => void,
): DataTableColumn<OrderRow>[] {
  return isCompact ? compactColumns(openConfirmation) : wide;
}
