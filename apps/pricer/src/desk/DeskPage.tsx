import { Card, Text, Title } from '@mantine/core';
import { zh } from '@pfp/i18n';

export function DeskPage() {
  return (
    <Card withBorder>
      <Title order={2} size="h3">
        {zh.pricer.tradingDesk}
      </Title>
      <Text c="dimmed">{zh.pricer.deskSubtitle}</Text>
    </Card>
  );
}
