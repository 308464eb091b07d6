import { Card, Stack, Table, Text, Title } from '@pfp/mantine';
import { formatDateTime, formatNumber, zh } from '@pfp/i18n';
import { useMyFunds } from '../shared/api';

const t = zh.margin;

/** 资金流水 (docs/margin.md): the customer's latest funds entries; nothing while there is none. */
export function FundsCard({ userId }: { userId: number }) {
  const funds = useMyFunds(userId);
  const items = funds.data?.items ?? [];
  if (!items.length) return null;
  const d = t.ledgerDialog;
  return (
    <Card withBorder radius="md" p="md" data-testid="funds-history">
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t.historyTitle}
        </Title>
        <Table.ScrollContainer minWidth={480}>
          <Table striped aria-label={t.historyTitle}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{d.time}</Table.Th>
                <Table.Th>{d.kind}</Table.Th>
                <Table.Th ta="right">{d.amount}</Table.Th>
                <Table.Th ta="right">{d.balanceAfter}</Table.Th>
                <Table.Th>{d.note}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
                  <Table.Td>{t.kinds[e.kind] ?? e.kind}</Table.Td>
                  <Table.Td ta="right">{formatNumber(e.amount, 2)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(e.balance_after, 2)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{e.note}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}
