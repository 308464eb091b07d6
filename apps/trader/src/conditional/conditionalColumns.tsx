import { Badge } from '@pfp/mantine';
import type { ConditionalRow } from '@pfp/contract';
import type { DataTableColumn } from '@pfp/data-table';
import { formatLots, formatPrice, zh } from '@pfp/i18n';
import { contractNameColumn, instrumentColumn, lastMessageColumn } from '../shared/columns';
import { directionLabel } from '../shared/labels';
import { TONE } from '../shared/tones';

const k = zh.conditional;

const STATUS_COLOR: Record<string, string> = {
  WAITING: TONE.info,
  TRIGGERED: TONE.success,
  CANCELLED: TONE.muted,
  EXPIRED: TONE.pending,
};

export const conditionalStatusLabel = (status: string) => k.statusLabels[status] ?? status;

/** '最新价 ≥ 3,150.00' */
export const triggerText = (row: Pick<ConditionalRow, 'trigger_op' | 'trigger_price'>) =>
  k.triggerText(k.opShort[row.trigger_op] ?? row.trigger_op, formatPrice(row.trigger_price));

const STATUS_OPTIONS = Object.keys(k.statusLabels).map((value) => ({ value, label: conditionalStatusLabel(value) }));

/** Every conditional order of the tenant (docs/conditional-orders.md), in the data-table pattern. */
export const CONDITIONAL_COLUMNS: DataTableColumn<ConditionalRow>[] = [
  { field: 'id', header: k.id, width: 76, render: (r) => String(r.id) },
  { field: 'pricer_name', header: k.customer, width: 96, priority: 2, filter: { type: 'text' } },
  contractNameColumn(k.contract),
  instrumentColumn(k.instrument, 88),
  { field: 'direction', header: k.direction, width: 72, priority: 3, accessor: (r) => directionLabel(r.direction) },
  { field: 'trigger_price', header: k.trigger, width: 150, render: (r) => triggerText(r) },
  { field: 'quantity', header: k.lots, width: 72, render: (r) => formatLots(r.quantity) },
  {
    field: 'order_price',
    header: k.orderPrice,
    width: 110,
    priority: 2,
    render: (r) => (r.order_price > 0 ? formatPrice(r.order_price) : k.market),
  },
  { field: 'expires_at', header: k.expiresAt, kind: 'date', twoLine: true, width: 108, priority: 3 },
  {
    field: 'status',
    header: k.status,
    kind: 'badge',
    width: 96,
    render: (r) => (
      <Badge variant="outline" color={STATUS_COLOR[r.status] ?? TONE.muted} data-status={r.status}>
        {conditionalStatusLabel(r.status)}
      </Badge>
    ),
    filter: { type: 'select', options: STATUS_OPTIONS, multiple: true },
  },
  {
    field: 'order_id',
    header: k.createdOrder,
    width: 96,
    render: (r) => (r.order_id !== null ? `#${r.order_id}` : '-'),
  },
  lastMessageColumn(k.message, 180),
  { field: 'created_at', header: k.createdAt, kind: 'date', twoLine: true, width: 108, priority: 3 },
];

export const CONDITIONAL_ACTIONS_WIDTH = 100;
