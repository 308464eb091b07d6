import { Alert, Card, Group, Stack, Table, Text, Title } from '@pfp/mantine';
import { formatLots, zh } from '@pfp/i18n';
import { errorText, useNearestDeadlines } from '../shared/api';
import { TONE } from '../shared/tones';
import { expiringWithin } from './expiring';

const e = zh.fixing.expiring;

/** The dashboard's contracts due within 3 days, with their unfixed lots (issue 30: deadline day is not silent). */
export function ExpiringContracts() {
  const query = useNearestDeadlines();
  const due = query.data ? expiringWithin(query.data) : [];
  return (
    <Card withBorder radius="md" p="md" data-testid="expiring-contracts">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {e.title}
        </Title>
        {query.isError ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {e.failed(errorText(query.error))}
          </Alert>
        ) : due.length === 0 ? (
          <Text size="sm" c="dimmed">
            {query.isPending ? zh.table.loading : e.empty}
          </Text>
        ) : (
          <Table striped aria-label={e.title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{e.contract}</Table.Th>
                <Table.Th>{e.pricer}</Table.Th>
                <Table.Th>{e.deadline}</Table.Th>
                <Table.Th>{e.unfixed}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {due.map(({ contract: c, days, unfixed }) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{c.pricer_name ?? '-'}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text span size="sm">
                        {c.fixing_deadline}
                      </Text>
                      <Text span size="xs" c={TONE.warning} fw={600}>
                        {zh.fixing.daysLeft(days)}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{formatLots(unfixed)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
