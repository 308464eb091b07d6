import { Badge, Card, Group, Loader, Table, Text, Title } from '@pfp/mantine';
import { formatLots, formatNumber, instrumentShort, zh } from '@pfp/i18n';
import { SectionHeading } from '@pfp/ui';
import { lazy, Suspense } from 'react';
import type { Exposure, ExposureItem } from '@pfp/contract';
import { errorText, useExposure } from '../shared/api';
import { PageLayout } from '../shared/PageLayout';
import { TONE } from '../shared/tones';

const t = zh.fixing.exposure;
const ExposureChart = lazy(() => import('./ExposureChart'));

const lots = (n: number | null) => (n === null ? '-' : formatNumber(n));

/**
 * Lots, and under them the goods they stand for (issue 29): "2 手" over "（10 吨）", each line whole,
 * so the cell stays narrow and the mismatch badge keeps its room.
 */
function LotsCell({ n, item }: { n: number; item: ExposureItem }) {
  const goods = item.multiplier && item.unit ? `（${formatNumber(n * item.multiplier)} ${item.unit}）` : '';
  return (
    <>
      <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatLots(n)}
      </Text>
      {goods ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {goods}
        </Text>
      ) : null}
    </>
  );
}

function MismatchCell({ item }: { item: ExposureItem }) {
  if (item.mismatch === null)
    return (
      <Text span c={TONE.muted}>
        -
      </Text>
    );
  if (item.mismatch === 0) {
    return (
      <Badge variant="outline" color={TONE.success}>
        {t.balanced}
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color={TONE.danger} data-mismatch={item.mismatch}>
      {t.mismatchLabel(item.mismatch > 0 ? `+${formatNumber(item.mismatch)}` : formatNumber(item.mismatch))}
    </Badge>
  );
}

function hedgeNote(e: Exposure): string {
  if (e.hedge_source === 'sim') return t.hedgeSim;
  if (e.hedge_source === 'account') return t.hedgeAccount;
  return `${t.hedgeUnknown}：${e.hedge_message ?? ''}`;
}

/** /trader/exposure: fixed and unfixed lots per instrument against the futures account's hedge. */
export function ExposurePage() {
  const exposure = useExposure();
  const e = exposure.data;
  return (
    <PageLayout subtitle={t.subtitle} error={exposure.isError ? t.loadFailed(errorText(exposure.error)) : undefined}>
      {exposure.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : e ? (
        <>
          <Card withBorder radius="md" padding="md">
            <Title order={3} size="h4" mb="xs">
              {t.chartTitle}
            </Title>
            {e.items.length ? (
              <Suspense fallback={<Loader size="sm" />}>
                <ExposureChart items={e.items} />
              </Suspense>
            ) : (
              <Text c="gray.7">{t.empty}</Text>
            )}
          </Card>
          <Card withBorder radius="md" padding="md">
            <Group justify="space-between" align="flex-start" mb="xs">
              <SectionHeading title={t.tableTitle} description={t.tableDescription} />
              <Text size="sm" c="gray.7" data-testid="hedge-source">
                {hedgeNote(e)} · {t.refreshHint}
              </Text>
            </Group>
            <Table.ScrollContainer minWidth={900}>
              <Table striped withTableBorder aria-label={t.tableTitle} data-testid="exposure-table">
                <Table.Thead>
                  <Table.Tr>
                    {[
                      t.instrument,
                      t.product,
                      t.month,
                      t.fixedBuy,
                      t.fixedSell,
                      t.unfixedBuy,
                      t.unfixedSell,
                      t.hedgeLong,
                      t.hedgeShort,
                      t.mismatch,
                    ].map((h) => (
                      <Table.Th key={h}>{h}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {e.items.map((i) => (
                    <Table.Tr
                      key={i.instrument_id}
                      data-instrument={i.instrument_id}
                      bg={i.mismatch ? 'var(--mantine-color-red-light)' : undefined}
                    >
                      <Table.Td>{instrumentShort(i.instrument_id)}</Table.Td>
                      <Table.Td>{i.product_name ?? '-'}</Table.Td>
                      <Table.Td>{i.delivery_month ?? '-'}</Table.Td>
                      <Table.Td data-field="fixed_buy">
                        <LotsCell n={i.fixed_buy} item={i} />
                      </Table.Td>
                      <Table.Td data-field="fixed_sell">
                        <LotsCell n={i.fixed_sell} item={i} />
                      </Table.Td>
                      <Table.Td data-field="unfixed_buy">
                        <LotsCell n={i.unfixed_buy} item={i} />
                      </Table.Td>
                      <Table.Td data-field="unfixed_sell">
                        <LotsCell n={i.unfixed_sell} item={i} />
                      </Table.Td>
                      <Table.Td data-field="hedge_long">{lots(i.hedge_long)}</Table.Td>
                      <Table.Td data-field="hedge_short">{lots(i.hedge_short)}</Table.Td>
                      <Table.Td data-field="mismatch">
                        <MismatchCell item={i} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                  {e.items.length === 0 ? (
                    <Table.Tr>
                      <Table.Td colSpan={10}>
                        <Text c="gray.7" ta="center">
                          {t.empty}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      ) : null}
    </PageLayout>
  );
}
