import { Button, Group, Table, Text } from '@pfp/mantine';
import { formatDateTime, zh } from '@pfp/i18n';
import type { ReactNode } from 'react';
import type { OrderRow } from '@pfp/contract';
import { LastMessage, StatusBadge, TwoLines } from '../shared/orders/cells';
import { DeskTable, STICKY } from './DeskTable';
import {
  canCancel,
  directionColor,
  directionLabel,
  limitPriceText,
  lotsText,
  tradePriceText,
  tradedLots,
} from '../shared/orders/format';

const t = zh.pricer;
const c = t.col;

/** Phone (< 768 px), tablet (768–1023 px) or wide: the desk's table has a column set for each. */
export type DeskLayout = 'phone' | 'tablet' | 'wide';

export interface OrdersTableProps {
  orders: OrderRow[];
  loading: boolean;
  layout: DeskLayout;
  /** Orders whose cancel is in flight: 撤单中..., row disabled. */
  cancelling: ReadonlySet<number>;
  onCancel: (order: OrderRow) => void;
  /** Opens a filled order's 点价确认单 (issue 29). */
  onConfirmation?: (order: OrderRow) => void;
}

interface Column {
  header: string;
  cell: (order: OrderRow) => ReactNode;
  testId?: string;
  /** The actions column stays in view (sticky right) however narrow the screen. */
  sticky?: boolean;
}

function dayAndTime(order: OrderRow): [string, string] {
  const [day = '', time = ''] = formatDateTime(order.created_at, true).split(' ');
  return [day, time];
}

const time: Column = {
  header: c.time,
  cell: (o) => {
    const [day, at] = dayAndTime(o);
    return <TwoLines top={at} bottom={day} />;
  },
};
const direction: Column = {
  header: c.direction,
  cell: (o) => (
    <Text size="sm" c={directionColor(o.direction)}>
      {directionLabel(o.direction)}
    </Text>
  ),
};
const status: Column = { header: c.status, cell: (o) => <StatusBadge order={o} /> };
const message: Column = {
  header: c.message,
  cell: (o) => <LastMessage text={o.last_msg} withTitle />,
};
/** Traded over ordered lots; the price filled over the limit (two lines: compact). */
const lots: Column = {
  header: c.lots,
  testId: 'order-traded',
  cell: (o) => <TwoLines top={lotsText(tradedLots(o))} bottom={`/ ${lotsText(o.volume_orign)}`} />,
};
const prices: Column = {
  header: c.price,
  testId: 'order-trade-price',
  cell: (o) => <TwoLines top={tradePriceText(o)} bottom={limitPriceText(o.limit_price)} />,
};

const WIDE: Column[] = [
  {
    header: c.time,
    cell: (o) => {
      const [day, at] = dayAndTime(o);
      return `${day} ${at}`;
    },
  },
  direction,
  { header: c.ordered, cell: (o) => lotsText(o.volume_orign) },
  { header: c.traded, testId: 'order-traded', cell: (o) => lotsText(tradedLots(o)) },
  { header: c.limitPrice, cell: (o) => limitPriceText(o.limit_price) },
  { header: c.tradePrice, testId: 'order-trade-price', cell: (o) => tradePriceText(o) },
  status,
  message,
];

const COLUMNS: Record<DeskLayout, Column[]> = {
  phone: [time, lots, prices, status],
  tablet: [time, direction, lots, prices, status, message],
  wide: WIDE,
};

/**
 * The selected contract's orders on the desk, with 撤单 for ALIVE ones only (SPEC §4). Below
 * 1024 px prices and lots take two lines per cell, so that no status badge is cut and 撤单 stays
 * in view on a tablet; below 768 px (SPEC §2) only the essentials remain.
 */
export function OrdersTable({ orders, loading, layout, cancelling, onCancel, onConfirmation }: OrdersTableProps) {
  const columns: Column[] = [
    ...COLUMNS[layout],
    {
      header: c.actions,
      sticky: true,
      cell: (order) => {
        const busy = cancelling.has(order.id);
        const cancel = canCancel(order) ? (
          <Button size="compact-sm" variant="light" color="red" disabled={busy} onClick={() => onCancel(order)}>
            {busy ? t.cancelling : t.cancel}
          </Button>
        ) : null;
        const confirmation =
          onConfirmation && tradedLots(order) > 0 ? (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => onConfirmation(order)}
              aria-label={zh.fixing.confirmation.openShortFor(order.id)}
              data-testid={`confirmation-${order.id}`}
            >
              {zh.fixing.confirmation.open}
            </Button>
          ) : null;
        if (!cancel && !confirmation) return null;
        return (
          <Group gap={4} wrap="nowrap">
            {cancel}
            {confirmation}
          </Group>
        );
      },
    },
  ];

  const rows = orders.map((order) => {
    const busy = cancelling.has(order.id);
    return (
      <Table.Tr
        key={order.id}
        data-order-id={order.id}
        aria-disabled={busy || undefined}
        style={busy ? { opacity: 0.55, pointerEvents: 'none' } : undefined}
      >
        {columns.map((column) => (
          <Table.Td
            key={column.header}
            data-testid={column.testId}
            style={column.sticky ? { ...STICKY, whiteSpace: 'nowrap' } : undefined}
          >
            {column.cell(order)}
          </Table.Td>
        ))}
      </Table.Tr>
    );
  });

  return (
    <DeskTable
      label={t.ordersTitle}
      wide={layout === 'wide'}
      loading={loading}
      highlightOnHover
      head={columns.map((column) => ({ label: column.header, sticky: column.sticky }))}
      rows={rows}
      empty={t.noOrders}
      loadingText={t.ordersLoading}
    />
  );
}
