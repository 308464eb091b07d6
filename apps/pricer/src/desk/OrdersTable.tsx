import { Button, Group, Loader, Table, Text } from '@pfp/mantine';
import { formatDateTime, zh } from '@pfp/i18n';
import type { OrderRow } from '@pfp/contract';
import { StatusBadge, TwoLines } from '../shared/orders/cells';
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

export interface OrdersTableProps {
  orders: OrderRow[];
  loading: boolean;
  /** Below 768 px: fewer, stacked columns (SPEC §2). */
  compact: boolean;
  /** Orders whose cancel is in flight: 撤单中..., row disabled. */
  cancelling: ReadonlySet<number>;
  onCancel: (order: OrderRow) => void;
}

/** The selected contract's orders on the desk, with 撤单 for ALIVE ones only (SPEC §4). */
export function OrdersTable({ orders, loading, compact, cancelling, onCancel }: OrdersTableProps) {
  const columns = compact
    ? [c.time, c.lots, c.price, c.status, c.actions]
    : [c.time, c.direction, c.ordered, c.traded, c.limitPrice, c.tradePrice, c.status, c.message, c.actions];

  const action = (order: OrderRow) => {
    if (!canCancel(order)) return null;
    const busy = cancelling.has(order.id);
    return (
      <Button size="compact-sm" variant="light" color="red" disabled={busy} onClick={() => onCancel(order)}>
        {busy ? t.cancelling : t.cancel}
      </Button>
    );
  };

  let body;
  if (orders.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          {loading ? (
            <Group justify="center" gap="xs">
              <Loader size="sm" />
              <Text c="dimmed">{t.ordersLoading}</Text>
            </Group>
          ) : (
            <Text c="dimmed" ta="center">
              {t.noOrders}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = orders.map((order) => {
      const busy = cancelling.has(order.id);
      const [day = '', time = ''] = formatDateTime(order.created_at, true).split(' ');
      return (
        <Table.Tr
          key={order.id}
          data-order-id={order.id}
          aria-disabled={busy || undefined}
          style={busy ? { opacity: 0.55, pointerEvents: 'none' } : undefined}
        >
          {compact ? (
            <>
              <Table.Td>
                <TwoLines top={time} bottom={day} />
              </Table.Td>
              <Table.Td data-testid="order-traded">
                <TwoLines top={lotsText(tradedLots(order))} bottom={`/ ${lotsText(order.volume_orign)}`} />
              </Table.Td>
              <Table.Td data-testid="order-trade-price">
                <TwoLines top={tradePriceText(order)} bottom={limitPriceText(order.limit_price)} />
              </Table.Td>
              <Table.Td>
                <StatusBadge order={order} />
              </Table.Td>
              <Table.Td>{action(order)}</Table.Td>
            </>
          ) : (
            <>
              <Table.Td>{`${day} ${time}`}</Table.Td>
              <Table.Td>
                <Text size="sm" c={directionColor(order.direction)}>
                  {directionLabel(order.direction)}
                </Text>
              </Table.Td>
              <Table.Td>{lotsText(order.volume_orign)}</Table.Td>
              <Table.Td data-testid="order-traded">{lotsText(tradedLots(order))}</Table.Td>
              <Table.Td>{limitPriceText(order.limit_price)}</Table.Td>
              <Table.Td data-testid="order-trade-price">{tradePriceText(order)}</Table.Td>
              <Table.Td>
                <StatusBadge order={order} />
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {order.last_msg ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>{action(order)}</Table.Td>
            </>
          )}
        </Table.Tr>
      );
    });
  }

  return (
    <Table.ScrollContainer minWidth={compact ? 0 : 860}>
      <Table
        verticalSpacing="xs"
        horizontalSpacing={compact ? 6 : 'sm'}
        striped
        highlightOnHover
        aria-label={t.ordersTitle}
        aria-busy={loading}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((h) => (
              <Table.Th key={h} style={{ whiteSpace: 'nowrap' }}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
