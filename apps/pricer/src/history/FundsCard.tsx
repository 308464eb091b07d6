import { Card, Stack, Table, Title } from '@pfp/mantine';
import { zh } from '@pfp/i18n';
import { FundsLedgerTable } from '@pfp/ui';
import { useMyFunds } from '../shared/api';

const t = zh.margin;

/** 资金流水 (docs/margin.md): the customer's latest funds entries; nothing while there is none. */
export function FundsCard({ userId }: { userId: number }) {
  const funds = useMyFunds(userId);
  const items = funds.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Card withBorder radius="md" p="md" data-testid="funds-history">
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t.historyTitle}
        </Title>
        <Table.ScrollContainer minWidth={480}>
          <FundsLedgerTable items={items} label={t.historyTitle} />
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}
