import { Badge, Button, Group, Loader, Table, Text } from '@pfp/mantine';
import type { ConditionalRow } from '@pfp/contract';
import { formatDateTime, formatLots, formatPrice, zh } from '@pfp/i18n';
import type { CSSProperties } from 'react';

const k = zh.conditional;

export const CONDITIONAL_STATUS_COLOR: Record<string, string> = {
  WAITING: 'blue',
  TRIGGERED: 'green',
  CANCELLED: 'gray',
  EXPIRED: 'orange',
};

/** '最新价 ≥ 3,150.00' */
export const triggerText = (row: Pick<ConditionalRow, 'trigger_op' | 'trigger_price'>) =>
  k.triggerText(k.opShort[row.trigger_op] ?? row.trigger_op, formatPrice(row.trigger_price));

export const orderPriceText = (price: number) => (price > 0 ? formatPrice(price) : k.market);

export interface ConditionalOrdersTableProps {
  rows: ConditionalRow[];
  loading: boolean;
  compact: boolean;
  cancelling: ReadonlySet<number>;
  onCancel: (row: ConditionalRow) => void;
}

const STICKY: CSSProperties = { position: 'sticky', right: 0, zIndex: 1, background: 'var(--mantine-color-body)' };

/**
 * The selected contract's conditional orders on the desk: state, trigger, lots, the order sent when
 * triggered, validity, the order it created; 撤销 while it waits. Polled with the desk (5 s).
 */
export function ConditionalOrdersTable({ rows, loading, compact, cancelling, onCancel }: ConditionalOrdersTableProps) {
  const actions = zh.pricer.col.actions;
  const head = compact
    ? [k.trigger, k.lots, k.status, k.createdOrder, actions]
    : [k.id, k.trigger, k.lots, k.orderPrice, k.expiresAt, k.status, k.createdOrder, k.message, actions];
  let body;
  if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={head.length}>
          {loading ? (
            <Group justify="center">
              <Loader size="sm" />
            </Group>
          ) : (
            <Text c="dimmed" ta="center">
              {k.empty}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => {
      const busy = cancelling.has(row.id);
      const cells = [
        ...(compact ? [] : [String(row.id)]),
        <Text key="trigger" size="sm" data-testid="conditional-trigger">
          {triggerText(row)}
        </Text>,
        formatLots(row.quantity),
        ...(compact ? [] : [orderPriceText(row.order_price), formatDateTime(row.expires_at)]),
        <Badge
          key="status"
          variant="light"
          color={CONDITIONAL_STATUS_COLOR[row.status] ?? 'gray'}
          miw="max-content"
          data-testid="conditional-status"
        >
          {k.statusLabels[row.status] ?? row.status}
        </Badge>,
        <Text key="order" size="sm" data-testid="conditional-order">
          {row.order_id !== null ? `#${row.order_id}` : '-'}
        </Text>,
        ...(compact
          ? []
          : [
              <Text key="msg" size="xs" c="dimmed" lineClamp={2}>
                {row.last_msg}
              </Text>,
            ]),
      ];
      return (
        <Table.Tr key={row.id} data-conditional-id={row.id} aria-disabled={busy || undefined}>
          {cells.map((cell, i) => (
            <Table.Td key={i}>{cell}</Table.Td>
          ))}
          <Table.Td style={{ ...STICKY, whiteSpace: 'nowrap' }}>
            {row.status === 'WAITING' ? (
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                disabled={busy}
                aria-label={k.cancelFor(row.id)}
                onClick={() => onCancel(row)}
              >
                {busy ? k.cancelling : k.cancel}
              </Button>
            ) : null}
          </Table.Td>
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
        aria-label={k.title}
        aria-busy={loading}
      >
        <Table.Thead>
          <Table.Tr>
            {head.map((h, i) => (
              <Table.Th key={i} style={{ whiteSpace: 'nowrap', ...(i === head.length - 1 ? STICKY : undefined) }}>
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
