import { SimpleGrid, Text } from '@pfp/mantine';
import { formatBasis, formatLots, formatMultiplier, formatPrice, instrumentShort, zh } from '@pfp/i18n';
import type { PricerContract } from '@pfp/contract';
import type { ReactNode } from 'react';
import { directionColor, directionLabel } from '../shared/orders/format';
import { totalLots } from './RollDesk';

const t = zh.pricer;
const f = zh.fixing;

function Fact({
  label,
  value,
  color,
  testId,
  urgent,
}: {
  label: string;
  value: ReactNode;
  color?: string;
  testId?: string;
  urgent?: boolean;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} c={urgent ? 'orange.9' : color} data-testid={testId} data-urgent={urgent ? 'true' : undefined}>
        {value}
      </Text>
    </div>
  );
}

/** The selected contract's facts on the desk: its future, side, lots, prices and deadline (SPEC §2). */
export function ContractFacts({
  contract,
  deadline,
}: {
  contract: PricerContract;
  deadline: { value: ReactNode; urgent: boolean };
}) {
  return (
    <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs" verticalSpacing="xs">
      <Fact label={t.instrument} value={instrumentShort(contract.instrument_id)} />
      <Fact
        label={t.contractDirection}
        value={directionLabel(contract.direction)}
        color={directionColor(contract.direction)}
      />
      <Fact label={t.totalQuantity} value={totalLots(contract)} testId="total" />
      <Fact label={t.remainingQuantity} value={formatLots(contract.remaining_quantity)} testId="remaining" />
      <Fact label={t.executedQuantity} value={formatLots(contract.executed_quantity)} />
      <Fact label={t.avgPrice} value={contract.executed_quantity > 0 ? formatPrice(contract.avg_price) : '-'} />
      <Fact label={f.basis} value={formatBasis(contract.basis)} testId="basis" />
      <Fact label={f.multiplier} value={formatMultiplier(contract.multiplier, contract.unit)} testId="multiplier" />
      <Fact
        label={f.avgFixedPrice}
        value={contract.avg_fixed_price != null ? formatPrice(contract.avg_fixed_price) : '-'}
        testId="avg-fixed-price"
      />
      <Fact label={f.deadline} value={deadline.value} urgent={deadline.urgent} testId="deadline" />
    </SimpleGrid>
  );
}
