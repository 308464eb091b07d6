import { Badge, Stack, Text } from '@pfp/mantine';
import type { OrderRow } from '@pfp/contract';
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
export function TwoLines({ top, bottom }: { top: string; bottom: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{top}</Text>
      <Text size="xs" c="dimmed">
        {bottom}
      </Text>
    </Stack>
  );
}
