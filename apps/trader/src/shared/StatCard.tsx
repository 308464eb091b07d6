import { Card, Text } from '@pfp/mantine';
import type { ReactNode } from 'react';

/** One figure of a page's stats row. */
export function StatCard({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId} role="group" aria-label={label}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text fz={26} fw={700} lh={1.3} data-testid={`${testId}-value`}>
        {value}
      </Text>
    </Card>
  );
}
