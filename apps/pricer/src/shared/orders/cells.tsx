import { Badge, Text } from '@pfp/mantine';
import type { OrderRow } from '@pfp/contract';
import { TwoLineCell } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { statusColor, statusLabel } from './format';

/** An order's status as a coloured badge (desk and history). */
export function StatusBadge({ order }: { order: OrderRow }) {
  return (
    // Never narrower than its label: a table squeezed onto a phone cuts other cells, not the status.
    <Badge variant="light" color={statusColor(order.status)} miw="max-content" data-testid="order-status">
      {statusLabel(order)}
    </Badge>
  );
}

/** Under an order's status: the 条件单 that sent it (issue 29), nothing for a fix by hand. */
export function FiredBy({ order }: { order: OrderRow }) {
  if (!order.conditional_order_id) return null;
  return (
    // Wraps in the phone's narrow status column (a one-line label widened the table past 375 px).
    <Text size="xs" c="grape.9" lh={1.35} data-testid="order-fired-by">
      {zh.conditionalAll.firedBy(order.conditional_order_id)}
    </Text>
  );
}

/** A value with a smaller, dimmed second line (time over day, traded over ordered). */
export const TwoLines = TwoLineCell;

/** The server's last word on an order or a condition (last_msg): small, dimmed, two lines at most. */
export function LastMessage({ text, withTitle }: { text: string; withTitle?: boolean }) {
  return (
    <Text size="xs" c="dimmed" lineClamp={2} title={withTitle ? text : undefined}>
      {text}
    </Text>
  );
}
