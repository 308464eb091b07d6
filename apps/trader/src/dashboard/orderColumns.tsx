import { Badge, Stack, Text } from '@pfp/mantine';
import type { DataTableColumn } from '@pfp/data-table';
import { formatBasis, formatDateTime, formatLots, formatPrice, zh } from '@pfp/i18n';
import { contractNameColumn, directionColumn, instrumentColumn, lastMessageColumn } from '../shared/columns';
import type { OrderRow } from '@pfp/contract';
import { TONE } from '../shared/tones';

const t = zh.trader.orders;

/** SPEC §4: PENDING, ALIVE, FINISHED; anything else counts as cancelled. */
export function orderStatusLabel(status: string): string {
  return t.status[status] ?? t.status.CANCELLED ?? status;
}

const STATUS_COLOR: Record<string, string> = { PENDING: TONE.pending, ALIVE: TONE.info, FINISHED: TONE.success };

export function orderStatusColor(status: string): string {
  return STATUS_COLOR[status] ?? TONE.muted;
}

/** 0 is a market order (SPEC: limit_price 0 → 市价). */
export function limitPriceText(price: number | null | undefined): string {
  return !price ? t.market : formatPrice(price);
}

export function tradePriceText(order: Pick<OrderRow, 'trade_price' | 'volume_traded'>): string {
  return Number(order.volume_traded) > 0 && order.trade_price ? formatPrice(order.trade_price) : '-';
}

const STATUS_OPTIONS = ['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED'].map((value) => ({
  value,
  label: orderStatusLabel(value),
}));

/**
 * The live order stream's columns (SPEC: "Trader dashboard"). Widths and priorities keep 状态 and
 * the sticky 撤单 column on a 1280 px laptop without sideways scrolling; wider screens show more
 * (priority 1 always, higher numbers hide first: see @pfp/data-table fitColumns). On a 375 px phone
 * (issue 41) priority 1 is who (客户全称), the side, the lots and the status beside 撤单.
 */
export const ORDER_COLUMNS: DataTableColumn<OrderRow>[] = [
  { field: 'id', header: t.columns.id, width: 76, priority: 2, render: (o) => String(o.id) },
  { field: 'pricer_name', header: t.columns.pricer, width: 96, filter: { type: 'text' } },
  instrumentColumn(t.columns.instrument, 88),
  contractNameColumn(t.columns.contract),
  directionColumn(t.columns.direction, 88),
  { field: 'volume_orign', header: t.columns.volume, width: 96, render: (o) => formatLots(o.volume_orign) },
  {
    field: 'volume_traded',
    header: t.columns.traded,
    width: 96,
    priority: 3,
    // A text column on the server: its order would be '10' < '9'.
    sortable: false,
    render: (o) => formatLots(Number(o.volume_traded)),
  },
  {
    field: 'limit_price',
    header: t.columns.limitPrice,
    width: 112,
    priority: 3,
    render: (o) => limitPriceText(o.limit_price),
  },
  {
    field: 'trade_price',
    header: t.columns.tradePrice,
    width: 112,
    priority: 2,
    render: (o) => tradePriceText(o),
  },
  { field: 'basis', header: zh.fixing.basis, width: 88, priority: 5, render: (o) => formatBasis(o.basis) },
  {
    field: 'fixed_price',
    header: zh.fixing.fixedPrice,
    width: 120,
    priority: 2,
    // The fixed price over whether the customer acknowledged its confirmation (确认无误, issue 29).
    render: (o) =>
      o.fixed_price === null || o.fixed_price === undefined ? (
        '-'
      ) : (
        <Stack gap={0}>
          <Text size="sm">{formatPrice(o.fixed_price)}</Text>
          {o.acknowledged_at ? (
            <Text
              size="xs"
              c={TONE.success}
              title={zh.fixing.confirmation.ackedAt(formatDateTime(o.acknowledged_at, true))}
              data-testid="order-ack"
            >
              {zh.fixing.confirmation.ackedLong}
            </Text>
          ) : (
            <Text size="xs" c={TONE.pending} data-testid="order-ack">
              {zh.fixing.confirmation.pending}
            </Text>
          )}
        </Stack>
      ),
  },
  {
    field: 'status',
    header: t.columns.status,
    kind: 'badge',
    width: 96,
    render: (o) => (
      <Badge variant="outline" color={orderStatusColor(o.status)} data-status={o.status}>
        {orderStatusLabel(o.status)}
      </Badge>
    ),
    filter: { type: 'select', options: STATUS_OPTIONS, multiple: true },
  },
  lastMessageColumn(t.columns.message, 160),
  { field: 'created_at', header: t.columns.time, kind: 'date', twoLine: true, width: 108, priority: 2 },
];

/** The sticky actions column holds one compact 撤单 button. */
export const ORDER_ACTIONS_WIDTH = 140;
