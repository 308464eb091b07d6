import { Card, Text } from '@pfp/mantine';
import type { ReactNode } from 'react';

/**
 * A long figure (an amount in 元: ¥12,345,678.00) gets a smaller face, so that it stays whole inside
 * its card on a 1280 px laptop, where six cards share the row.
 */
function figureSize(value: ReactNode): number {
  const length = typeof value === 'string' ? value.length : 0;
  return length > 13 ? 14 : length > 10 ? 16 : length > 8 ? 20 : 26;
}

/** One figure of a page's stats row. */
export function StatCard({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId} role="group" aria-label={label}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fz={figureSize(value)} fw={700} lh={1.3} data-testid={`${testId}-value`}>
        {value}
      </Text>
    </Card>
  );
}
