import { Badge, Button, Table, Text } from '@pfp/mantine';
import type { ConditionalRow } from '@pfp/contract';
import { formatDateTime, formatLots, formatPrice, zh } from '@pfp/i18n';
import { LastMessage } from '../shared/orders/cells';
import { DeskTable, STICKY } from './DeskTable';

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
  /** Across contracts (issue 29): a 合同 column first. */
  showContract?: boolean;
  /** The table's accessible name (default: 条件单). */
  label?: string;
}

/**
 * The selected contract's conditional orders on the desk: state, trigger, lots, the order sent when
 * triggered, validity, the order it created; 撤销 while it waits. Polled with the desk (5 s).
 */
export function ConditionalOrdersTable({
  rows,
  loading,
  compact,
  cancelling,
  onCancel,
  showContract = false,
  label = k.title,
}: ConditionalOrdersTableProps) {
  const actions = zh.pricer.col.actions;
  const contractHead = showContract ? [zh.conditionalAll.contract] : [];
  const head = compact
    ? [...contractHead, k.trigger, k.lots, k.status, k.createdOrder, actions]
    : [
        ...contractHead,
        k.id,
        k.trigger,
        k.lots,
        k.orderPrice,
        k.expiresAt,
        k.status,
        k.createdOrder,
        k.message,
        actions,
      ];
  const body = rows.map((row) => {
    const busy = cancelling.has(row.id);
    const cells = [
      ...(showContract
        ? [
            <Text key="contract" size="sm" data-testid="conditional-contract">
              {row.contract_name ?? `#${row.contract_id}`}
            </Text>,
          ]
        : []),
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
      ...(compact ? [] : [<LastMessage key="msg" text={row.last_msg} />]),
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
  return (
    <DeskTable
      label={label}
      wide={!compact}
      loading={loading}
      head={head.map((label, i) => ({ label, sticky: i === head.length - 1 }))}
      rows={body}
      empty={k.empty}
    />
  );
}
