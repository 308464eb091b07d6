import { Alert, Group, Loader, SimpleGrid, Stack, Text } from '@pfp/mantine';
import { formatLots, formatNumber, zh } from '@pfp/i18n';
import { errorText, useContractValues } from '../shared/api';
import { pnlColor, perUnitText, signedPerUnit, signedYuan, yuanText } from '../shared/valueFormat';
import { TONE } from '../shared/tones';

const m = zh.marginDefaults;
const v = m.values;

function Fact({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} c={color} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** The contract's 详情: its margin rate and what its fixed, not yet settled lots are worth (issue 41 §2). */
export function ContractValueBlock({ contractId, pricerId }: { contractId: number; pricerId: number }) {
  const values = useContractValues(pricerId);
  const c = values.data?.items.find((i) => i.contract_id === contractId);
  return (
    <Stack gap="xs" data-testid="contract-value">
      <Text fw={600}>{m.desk.title}</Text>
      {values.isPending ? (
        <Group gap="xs">
          <Loader size="xs" />
        </Group>
      ) : values.isError ? (
        <Alert color={TONE.danger} variant="light" role="alert">
          {v.loadFailed(errorText(values.error))}
        </Alert>
      ) : c ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" verticalSpacing="xs">
          <Fact label={m.rate} value={m.rateCell(c.margin_rate)} testId="value-rate" />
          <Fact
            label={m.desk.openLots}
            value={`${formatLots(c.open_lots)}（${formatNumber(c.open_quantity)} ${c.unit ?? ''}）`}
            testId="value-open-lots"
          />
          <Fact label={v.fixedPrice} value={perUnitText(c.fixed_price, c.unit)} />
          <Fact label={v.marketPrice} value={perUnitText(c.market_price, c.unit)} />
          <Fact
            label={v.pnlPerUnit}
            value={c.open_lots > 0 ? signedPerUnit(c.pnl_per_unit, c.unit) : '-'}
            color={pnlColor(c.pnl_per_unit)}
          />
          <Fact label={v.fixedValue} value={yuanText(c.fixed_value)} testId="value-fixed" />
          <Fact label={v.marketValue} value={c.market_value === null ? v.noQuote : yuanText(c.market_value)} />
          <Fact
            label={v.pnl}
            value={c.floating_pnl === null ? v.noQuote : signedYuan(c.floating_pnl)}
            color={pnlColor(c.floating_pnl)}
            testId="value-pnl"
          />
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          {m.desk.none}
        </Text>
      )}
    </Stack>
  );
}
