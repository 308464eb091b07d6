import { Badge } from '@pfp/mantine';
import type { OrderRow } from '@pfp/contract';
import { TwoLineCell } from '@pfp/data-table';
import { statusColor, statusLabel } from './format';

/** An order's status as a coloured badge (desk and history). */
export function StatusBadge({ order }: { order: OrderRow }) {
  return (
    <Badge variant="light" color={statusColor(order.status)} data-testid="order-status">
      {statusLabel(order)}
    </Badge>
  );
}

/** A value with a smaller, dimmed second line (time over day, traded over ordered). */
export const TwoLines = TwoLineCell;
