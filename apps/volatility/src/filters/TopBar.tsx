import { Box, Group, MultiSelect, Select, SimpleGrid, type ComboboxItem } from '@pfp/mantine';
import { exchangeName, instrumentShort, productName, zh } from '@pfp/i18n';
import { useMarketLists } from '../shared/api';
import { CURVE_TYPES, curveTypeId, type CurveType } from '../shared/curves/curveTypes';
import type { MarketSelection } from './selection';

const t = zh.volatility;

const CURVE_OPTIONS = CURVE_TYPES.map((c) => ({ value: curveTypeId(c), label: c.label }));
const CURVE_BY_ID = new Map(CURVE_TYPES.map((c) => [curveTypeId(c), c]));

/** A short sample of the curve's line: its colour, and dashed for puts. */
function LineSample({ curve }: { curve: CurveType }) {
  return (
    <svg width="24" height="8" aria-hidden="true">
      <line x1="0" y1="4" x2="24" y2="4" stroke={curve.color} strokeWidth="2" strokeDasharray={curve.strokeDasharray} />
    </svg>
  );
}

function renderCurveOption({ option }: { option: ComboboxItem }) {
  const curve = CURVE_BY_ID.get(option.value);
  return (
    <Group gap="xs" wrap="nowrap">
      {curve && <LineSample curve={curve} />}
      {option.label}
    </Group>
  );
}

/** Keeps a preselected id visible even before (or without) its list arriving. */
function withCurrent(ids: readonly string[], current: string | null): readonly string[] {
  return current && !ids.includes(current) ? [current, ...ids] : ids;
}

/** SPEC §2 top bar: a five-column grid with the cascading market selects and the curve-type multi-select. */
export function TopBar({
  selection,
  onSelection,
  curveTypeIds,
  onCurveTypeIds,
}: {
  selection: MarketSelection;
  onSelection: (next: MarketSelection) => void;
  curveTypeIds: string[];
  onCurveTypeIds: (ids: string[]) => void;
}) {
  const { exchange, product, future } = selection;
  const lists = useMarketLists(exchange, product);

  return (
    <SimpleGrid
      cols={{ base: 1, sm: 5 }}
      spacing="xs"
      verticalSpacing="xs"
      px="xs"
      py={{ base: 'xs', sm: 0 }}
      h={{ sm: 55 }}
      style={{ alignContent: 'center' }}
      data-testid="top-bar"
    >
      <Select
        aria-label={t.exchange}
        placeholder={t.exchangePlaceholder}
        data={withCurrent(lists.exchanges, exchange).map((id) => ({ value: id, label: exchangeName(id) }))}
        value={exchange}
        onChange={(v) => onSelection({ exchange: v, product: null, future: null })}
      />
      <Select
        aria-label={t.product}
        placeholder={t.productPlaceholder}
        data={withCurrent(lists.products, product).map((id) => ({
          value: id,
          label: exchange ? productName(exchange, id) : id,
        }))}
        value={product}
        disabled={!exchange}
        searchable
        onChange={(v) => onSelection({ exchange, product: v, future: null })}
      />
      <Select
        aria-label={t.future}
        placeholder={t.futurePlaceholder}
        data={withCurrent(lists.futures, future).map((id) => ({ value: id, label: instrumentShort(id) }))}
        value={future}
        disabled={!product}
        searchable
        onChange={(v) => onSelection({ exchange, product, future: v })}
      />
      <Box style={{ gridColumn: 'span 2' }} miw={0} data-testid="curve-types">
        <MultiSelect
          aria-label={t.curveTypes}
          placeholder={curveTypeIds.length === 0 ? t.curveTypesPlaceholder : undefined}
          data={CURVE_OPTIONS}
          value={curveTypeIds}
          onChange={onCurveTypeIds}
          renderOption={renderCurveOption}
          disabled={!future}
          clearable
          maxValues={CURVE_OPTIONS.length}
        />
      </Box>
    </SimpleGrid>
  );
}
