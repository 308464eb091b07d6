import { Badge, ScrollArea, SimpleGrid, Stack, Table, Text } from '@pfp/mantine';
import { formatLots, formatNumber, formatPercent, zh } from '@pfp/i18n';
import type { PriceStructureResult } from '@pfp/contract';
import type { Kind } from './structureForm';

const t = zh.structurePricing;

export interface Priced {
  result: PriceStructureResult;
  kind: Kind;
  /** The options' quantity in the goods' unit (ignored for an accumulator). */
  quantity: number;
  /** The accumulator's daily quantity. */
  quantityPerDay: number;
  strike: number | undefined;
  multiplier: number | undefined;
  unit: string;
}

function Figure({ label, value, testId, sub }: { label: string; value: string; testId: string; sub?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="lg" data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {sub ? (
        <Text size="xs" c="dimmed" data-testid={`${testId}-sub`}>
          {sub}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The quantity the Greeks are scaled by: the options' quantity, or 1 for the accumulator (its Greeks are whole). */
export const scaleOf = (p: Priced) => (p.kind === 'accumulator' ? 1 : p.quantity);

/** Price, Greeks (delta and gamma in 手 via the multiplier), and the market used. */
export function ResultFigures({ priced }: { priced: Priced }) {
  const { result: r, unit, multiplier } = priced;
  const q = scaleOf(priced);
  const lots = (units: number) => (multiplier ? formatLots(Number((units / multiplier).toFixed(4))) : '-');
  const acc = priced.kind === 'accumulator';
  const maxQty = priced.quantityPerDay * (r.observations ?? 0);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        {acc ? (
          <>
            <Figure label={t.accumulatorTotal} value={formatNumber(r.price, 2)} testId="calc-total" />
            <Figure
              label={t.accumulatorPerUnit(unit, `${formatNumber(maxQty)} ${unit}`)}
              value={maxQty > 0 ? formatNumber(r.price / maxQty, 4) : '-'}
              testId="calc-unit-price"
              sub={t.maxQuantityLine(`${formatNumber(maxQty)} ${unit}`, r.observations ?? 0, lots(maxQty))}
            />
          </>
        ) : (
          <>
            <Figure label={t.priceUnit(unit)} value={formatNumber(r.price, 2)} testId="calc-unit-price" />
            <Figure
              label={t.priceTotal}
              value={formatNumber(r.price * q, 2)}
              testId="calc-total"
              sub={t.quantityLine(`${formatNumber(q)} ${unit}`, lots(q))}
            />
          </>
        )}
        <Figure
          label={t.delta}
          value={lots(r.delta * q)}
          testId="calc-delta"
          sub={acc ? t.deltaWhole(formatNumber(r.delta, 2), unit) : `${t.deltaPerUnit} ${formatNumber(r.delta, 4)}`}
        />
        <Figure
          label={t.gamma(unit)}
          value={multiplier ? formatNumber((r.gamma * q) / multiplier, 6) : '-'}
          testId="calc-gamma"
        />
        <Figure label={t.vega} value={formatNumber((r.vega * q) / 100, 2)} testId="calc-vega" />
        <Figure label={t.theta} value={formatNumber((r.theta * q) / 365, 2)} testId="calc-theta" />
      </SimpleGrid>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm">
        <Table.Tbody>
          <Table.Tr>
            <Table.Td c="dimmed">{t.usedForward}</Table.Td>
            <Table.Td data-testid="calc-used-forward">{t.perUnit(formatNumber(r.forward), unit)}</Table.Td>
            <Table.Td c="dimmed">{t.usedVol}</Table.Td>
            <Table.Td data-testid="calc-used-vol">
              {formatPercent(r.vol, 2)}（{r.vol_source === 'market' ? t.sourceMarket : t.sourceAtm}）
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td c="dimmed">{t.usedRate}</Table.Td>
            <Table.Td>{formatPercent(r.rate, 2)}</Table.Td>
            <Table.Td c="dimmed">{t.usedDate}</Table.Td>
            <Table.Td>{r.valuation_date}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td c="dimmed">{t.engine}</Table.Td>
            <Table.Td colSpan={3}>{t.engines[priced.kind]}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {r.note ? (
        <Text size="xs" c="dimmed">
          {r.note}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The used vol against the chain's market points: the listed strikes' implied vols, the used one marked. */
export function VolTable({ priced }: { priced: Priced }) {
  const chain = priced.result.chain_vols;
  if (!chain)
    return (
      <Text size="sm" c="dimmed">
        {t.volNone}
      </Text>
    );
  const used = { strike: priced.strike ?? priced.result.forward, vol: priced.result.vol };
  const rows = [...chain.points.map((p) => ({ ...p, used: false })), { ...used, used: true }].sort(
    (a, b) => a.strike - b.strike || Number(a.used) - Number(b.used),
  );
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {t.volExpiry(chain.expiry)}
      </Text>
      {chain.points.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t.volNoPoints}
        </Text>
      ) : null}
      <ScrollArea.Autosize
        mah={300}
        type="auto"
        // A scrolled region is reached by the keyboard too (axe: scrollable-region-focusable).
        viewportProps={{ tabIndex: 0, 'aria-label': t.volTitle }}
      >
        <Table striped fz="sm" stickyHeader data-testid="calc-vol-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.volStrike}</Table.Th>
              <Table.Th>{t.volMarket}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={`${p.strike}-${p.used}`} data-used={p.used || undefined}>
                <Table.Td>{formatNumber(p.strike)}</Table.Td>
                <Table.Td fw={p.used ? 700 : undefined}>
                  {formatPercent(p.vol, 2)}
                  {p.used ? (
                    <Badge ml="xs" size="sm" variant="light">
                      {t.volUsed}
                    </Badge>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
