import { Alert, Card, Group, Loader, Stack, Table, Text, Title } from '@pfp/mantine';
import { formatLots, zh } from '@pfp/i18n';
import { errorText, useContractValues } from '../shared/api';
import { TONE } from '../shared/tones';
import { pnlColor, perUnitText, signedPerUnit, signedYuan, yuanText } from '../shared/valueFormat';

const m = zh.marginDefaults;
const v = m.values;

/**
 * 资金与保证金: what every customer's and contract's fixed, not yet settled lots are worth, at the fixed
 * price and at the market, with the floating P/L — with or without margin (issue 41 §2).
 */
export function ContractValuesCard() {
  const values = useContractValues();
  const data = values.data;
  const customers = (data?.customers ?? []).filter((c) => c.open_lots > 0 || c.fixed_value !== 0);
  const items = (data?.items ?? []).filter((i) => i.open_lots > 0);
  return (
    <Card withBorder radius="md" padding="md" data-testid="contract-values">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            {v.title}
          </Title>
          <Text size="sm" c="dimmed">
            {v.subtitle}
          </Text>
        </div>
        {values.isPending ? (
          <Group justify="center" py="md">
            <Loader />
          </Group>
        ) : values.isError ? (
          <Alert color={TONE.danger} variant="light" role="alert">
            {v.loadFailed(errorText(values.error))}
          </Alert>
        ) : items.length === 0 ? (
          <Text c="gray.7">{v.empty}</Text>
        ) : (
          <>
            {/* 浮动盈亏 right after the lots: on a tablet, where the tables scroll, it stays in view. */}
            <Table.ScrollContainer minWidth={560}>
              <Table striped withTableBorder aria-label={v.customersLabel} style={{ whiteSpace: 'nowrap' }}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{v.customer}</Table.Th>
                    <Table.Th ta="right">{v.openLots}</Table.Th>
                    <Table.Th ta="right">{v.pnl}</Table.Th>
                    <Table.Th ta="right">{v.fixedValue}</Table.Th>
                    <Table.Th ta="right">{v.marketValue}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {customers.map((c) => (
                    <Table.Tr key={c.pricer_id} data-pricer={c.pricer_id}>
                      <Table.Td style={{ whiteSpace: 'normal' }}>
                        {c.pricer_name}
                        {c.unpriced_contracts > 0 ? (
                          <Text size="xs" c="dimmed">
                            {v.unpriced(c.unpriced_contracts)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right">{formatLots(c.open_lots)}</Table.Td>
                      <Table.Td ta="right" fw={600} c={pnlColor(c.floating_pnl)}>
                        {signedYuan(c.floating_pnl)}
                      </Table.Td>
                      <Table.Td ta="right">{yuanText(c.fixed_value)}</Table.Td>
                      <Table.Td ta="right">{yuanText(c.market_value)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Table.ScrollContainer minWidth={980}>
              <Table striped withTableBorder aria-label={v.tableLabel} style={{ whiteSpace: 'nowrap' }}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{v.customer}</Table.Th>
                    <Table.Th>{v.contract}</Table.Th>
                    <Table.Th ta="right">{v.rate}</Table.Th>
                    <Table.Th ta="right">{v.openLots}</Table.Th>
                    <Table.Th ta="right">{v.pnl}</Table.Th>
                    <Table.Th ta="right">{v.fixedPrice}</Table.Th>
                    <Table.Th ta="right">{v.marketPrice}</Table.Th>
                    <Table.Th ta="right">{v.fixedValue}</Table.Th>
                    <Table.Th ta="right">{v.marketValue}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((c) => (
                    <Table.Tr key={c.contract_id} data-contract={c.contract_id}>
                      <Table.Td style={{ whiteSpace: 'normal' }}>{c.pricer_name}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'normal' }}>{c.contract_name}</Table.Td>
                      <Table.Td ta="right">{m.rateCell(c.margin_rate)}</Table.Td>
                      <Table.Td ta="right">{formatLots(c.open_lots)}</Table.Td>
                      <Table.Td ta="right" fw={600} c={pnlColor(c.floating_pnl)}>
                        {c.floating_pnl === null ? v.noQuote : signedYuan(c.floating_pnl)}
                        {c.pnl_per_unit !== null ? (
                          <Text size="xs" fw={400} c={pnlColor(c.pnl_per_unit)}>
                            {signedPerUnit(c.pnl_per_unit, c.unit)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td ta="right">{perUnitText(c.fixed_price, c.unit)}</Table.Td>
                      <Table.Td ta="right">{perUnitText(c.market_price, c.unit)}</Table.Td>
                      <Table.Td ta="right">{yuanText(c.fixed_value)}</Table.Td>
                      <Table.Td ta="right">{c.market_value === null ? v.noQuote : yuanText(c.market_value)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Stack>
    </Card>
  );
}
