import { Box, Center, MultiSelect, Select, SimpleGrid, Text } from '@mantine/core';
import { exchangeName, instrumentShort, productName, zh } from '@pfp/i18n';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { CURVE_TYPES, curveTypeId, DEFAULT_CURVE_TYPE_IDS } from './curves/curveTypes';
import { useMarketLists } from './filters/useMarketLists';

const t = zh.volatility;

/** SPEC "Volatility curve page": the five-column top bar and the chart area below it. */
export function VolatilityPage() {
  const [search] = useSearchParams();
  const [exchange, setExchange] = useState<string | null>(search.get('exchange'));
  const [product, setProduct] = useState<string | null>(search.get('product'));
  const [future, setFuture] = useState<string | null>(search.get('future'));
  const [curveIds, setCurveIds] = useState<string[]>(DEFAULT_CURVE_TYPE_IDS);
  const lists = useMarketLists(exchange, product);
  const selected = future && curveIds.length > 0;

  return (
    <Box p="xs">
      <SimpleGrid cols={{ base: 1, sm: 5 }} spacing="xs" h={{ sm: 45 }}>
        <Select
          aria-label={t.exchange}
          placeholder={t.exchange}
          data={lists.exchanges.map((id) => ({ value: id, label: exchangeName(id) }))}
          value={exchange}
          onChange={(v) => {
            setExchange(v);
            setProduct(null);
            setFuture(null);
          }}
        />
        <Select
          aria-label={t.product}
          placeholder={t.product}
          data={lists.products.map((id) => ({ value: id, label: exchange ? productName(exchange, id) : id }))}
          value={product}
          disabled={!exchange}
          onChange={(v) => {
            setProduct(v);
            setFuture(null);
          }}
        />
        <Select
          aria-label={t.future}
          placeholder={t.futurePlaceholder}
          data={lists.futures.map((id) => ({ value: id, label: instrumentShort(id) }))}
          value={future}
          disabled={!product}
          onChange={setFuture}
          searchable
        />
        <Box style={{ gridColumn: 'span 2' }}>
          <MultiSelect
            aria-label={t.curveTypes}
            placeholder={t.curveTypesPlaceholder}
            data={CURVE_TYPES.map((c) => ({ value: curveTypeId(c), label: c.label }))}
            value={curveIds}
            onChange={setCurveIds}
            disabled={!future}
          />
        </Box>
      </SimpleGrid>
      <Center h="calc(100vh - 55px)" mih={100} data-testid="chart-area">
        <Text c="dimmed">{selected ? t.loading : t.empty}</Text>
      </Center>
    </Box>
  );
}
