import { Card, Text, Title } from '@mantine/core';
import { zh } from '@pfp/i18n';

export function HistoryPage() {
  return (
    <Card withBorder>
      <Title order={2} size="h3">
        {zh.pricer.history}
      </Title>
      <Text c="dimmed">{zh.pricer.historySubtitle}</Text>
    </Card>
  );
}
