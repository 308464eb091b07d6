import { Group, Text } from '@pfp/mantine';
import { formatLots, formatNumber, zh } from '@pfp/i18n';
import { valueFigures, type PricerContract } from '@pfp/contract';

const m = zh.marginDefaults;
const v = m.values;

const signed = (n: number) => `${n > 0 ? '+' : ''}${formatNumber(n, 2)}`;
// The 9 shades, as the confirm sheet's sides: AA contrast on the desk's tinted card (axe at 1366 px).
const pnlColor = (n: number | null) => (n === null || n === 0 ? undefined : n < 0 ? 'red.9' : 'teal.9');

/**
 * The desk's contract: its margin rate and what its fixed, not yet settled lots are worth, marked with
 * every quote the desk receives (issue 41 §2; the figures are contract-values', packages/contract).
 */
export function ContractValueLine({ contract, lastPrice }: { contract: PricerContract; lastPrice: number | null }) {
  const lots = Math.max(contract.executed_quantity - (contract.settled_quantity ?? 0), 0);
  const f = valueFigures(
    {
      direction: contract.direction,
      open_lots: lots,
      multiplier: contract.multiplier ?? 1,
      basis: contract.basis ?? 0,
      avg_price: contract.avg_price,
    },
    lastPrice,
  );
  const unit = contract.unit ?? null;
  return (
    <Group gap="lg" data-testid="contract-value">
      <Text size="sm">
        {m.rate}{' '}
        <Text span fw={700} data-testid="contract-margin-rate">
          {contract.margin_rate ? m.ratePercent(contract.margin_rate) : m.confirm.none}
        </Text>
      </Text>
      {lots > 0 ? (
        <>
          <Text size="sm" c="gray.7">
            {m.desk.openLots} {formatLots(lots)}
            {unit ? `（${formatNumber(f.open_quantity)} ${unit}）` : ''}
          </Text>
          <Text size="sm" c="gray.7" data-testid="contract-fixed-value">
            {m.desk.fixedValue} {formatNumber(f.fixed_value, 2)} 元
          </Text>
          <Text size="sm" c="gray.7">
            {m.desk.marketValue} {f.market_value === null ? v.noQuote : `${formatNumber(f.market_value, 2)} 元`}
          </Text>
          <Text size="sm" fw={600} c={pnlColor(f.floating_pnl)} data-testid="contract-pnl">
            {m.desk.pnl}{' '}
            {f.floating_pnl === null || f.pnl_per_unit === null
              ? v.noQuote
              : `${signed(f.floating_pnl)} 元（${signed(f.pnl_per_unit)} ${v.perUnit(unit)}）`}
          </Text>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {m.desk.none}
        </Text>
      )}
    </Group>
  );
}
