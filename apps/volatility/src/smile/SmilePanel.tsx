import { Badge, Box, Center, Loader, ScrollArea, Stack, Table, Text, Title, Tooltip } from '@pfp/mantine';
import { formatDateTime, formatNumber, instrumentShort, zh } from '@pfp/i18n';
import { lazy, Suspense } from 'react';
import { useSmile } from '../shared/api';

const SmileChart = lazy(() => import('./SmileChart'));
const t = zh.smile;

/** Vol as a fraction → vol points with 2 decimals (0.0012 → 0.12). */
const volPoints = (v: number) => formatNumber(v * 100, 2);

/**
 * The fitted smiles of the selected future's product (docs/smile.md): the selected chain's fit over its market
 * points, and each chain's fit error in a table.
 */
export function SmilePanel({ future, withTitle = true }: { future: string; withTitle?: boolean }) {
  const smile = useSmile(future);
  if (smile.isPending)
    return (
      <Center h="100%">
        <Loader size="sm" />
        <Text c="dimmed" ml="xs" role="status">
          {t.loading}
        </Text>
      </Center>
    );
  if (smile.isError)
    return (
      <Center h="100%">
        <Text c="red" role="alert">
          {t.error(smile.error.message)}
        </Text>
      </Center>
    );
  const { chains, fitted_at } = smile.data;
  const selected = chains.find((c) => c.future === future);
  return (
    <Stack h="100%" gap="xs" p="xs" data-testid="smile-panel">
      {withTitle && <Title order={5}>{t.title}</Title>}
      {chains.length === 0 ? (
        <Text c="dimmed">{t.noChains}</Text>
      ) : (
        <>
          <Box style={{ flex: '1 1 240px', minHeight: 200 }}>
            {selected ? (
              <Suspense fallback={<Loader size="sm" />}>
                <SmileChart chain={selected} />
              </Suspense>
            ) : (
              <Text c="dimmed">{t.noChains}</Text>
            )}
          </Box>
          <ScrollArea.Autosize mah="45%" type="auto">
            <Table striped highlightOnHover withTableBorder aria-label={t.table} data-testid="smile-fit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.chain}</Table.Th>
                  <Table.Th>{t.expiry}</Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {t.points}
                  </Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {t.rmse}
                  </Table.Th>
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {t.maxError}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {chains.map((c) => (
                  <Table.Tr key={c.future} fw={c.future === future ? 700 : undefined}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {instrumentShort(c.future)}
                      {c.flat && (
                        <Tooltip label={t.flatHint}>
                          <Badge ml={4} size="xs" color="orange">
                            {t.flat}
                          </Badge>
                        </Tooltip>
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{c.expiry}</Table.Td>
                    <Table.Td ta="right">{c.points.length}</Table.Td>
                    <Table.Td ta="right">{volPoints(c.rmse)}</Table.Td>
                    <Table.Td ta="right">{volPoints(c.max_error)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Text size="xs" c="dimmed">
            {t.errorUnit}
            {fitted_at !== null && ` · ${t.fittedAt(formatDateTime(fitted_at, true))}`}
          </Text>
        </>
      )}
    </Stack>
  );
}
