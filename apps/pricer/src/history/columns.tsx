import { Text } from '@pfp/mantine';
import type { DataTableColumn } from '@pfp/data-table';
import { formatDateTime, instrumentShort, zh } from '@pfp/i18n';
import type { OrderRow } from '@pfp/contract';
import { StatusBadge, TwoLines } from '../shared/orders/cells';
import {
  directionColor,
  directionLabel,
  fillRate,
  limitPriceText,
  lotsText,
  tradePriceText,
  tradedLots,
} from '../shared/orders/format';

const c = zh.pricer.col;

function FillRateCell({ order }: { order: OrderRow }) {
  const rate = fillRate(order);
  return (
    <Text
      size="sm"
      c={rate.complete ? 'green' : undefined}
      fw={rate.complete ? 600 : undefined}
      data-testid="fill-rate"
      data-complete={rate.complete}
    >
      {rate.text}
    </Text>
  );
}

const wide: DataTableColumn<OrderRow>[] = [
  { field: 'created_at', header: c.time, kind: 'date', width: 136 },
  { field: 'contract_name', header: c.contract, width: 130 },
  { field: 'instrument_id', header: c.instrument, width: 76, render: (o) => instrumentShort(o.instrument_id) },
  {
    field: 'direction',
    header: c.direction,
    width: 72,
    render: (o) => (
      <Text size="sm" c={directionColor(o.direction)}>
        {directionLabel(o.direction)}
      </Text>
    ),
  },
  { field: 'volume_orign', header: c.ordered, width: 100, render: (o) => lotsText(o.volume_orign) },
  // Traded lots are text on the server: sorting them would be lexicographic.
  { field: 'volume_traded', header: c.traded, width: 84, sortable: false, render: (o) => lotsText(tradedLots(o)) },
  { field: 'limit_price', header: c.limitPrice, width: 104, render: (o) => limitPriceText(o.limit_price) },
  { field: 'trade_price', header: c.tradePrice, width: 104, render: (o) => tradePriceText(o) },
  {
    field: 'fill_rate',
    header: c.fillRate,
    width: 76,
    sortable: false,
    accessor: (o) => fillRate(o).ratio,
    render: (o) => <FillRateCell order={o} />,
  },
  { field: 'status', header: c.status, width: 80, render: (o) => <StatusBadge order={o} /> },
  {
    field: 'last_msg',
    header: c.message,
    width: 130,
    sortable: false,
    render: (o) => (
      <Text size="xs" c="dimmed" lineClamp={2}>
        {o.last_msg ?? ''}
      </Text>
    ),
  },
];

/** Below 768 px: the essentials first, two lines per cell (SPEC §2 mobile breakpoint). */
const compact: DataTableColumn<OrderRow>[] = [
  {
    field: 'created_at',
    header: c.time,
    width: 92,
    render: (o) => {
      const [day = '', time = ''] = formatDateTime(o.created_at).split(' ');
      return <TwoLines top={time} bottom={day} />;
    },
  },
  { field: 'status', header: c.status, width: 76, render: (o) => <StatusBadge order={o} /> },
  {
    field: 'fill_rate',
    header: c.fillRate,
    width: 70,
    sortable: false,
    accessor: (o) => fillRate(o).ratio,
    render: (o) => <FillRateCell order={o} />,
  },
  {
    field: 'volume_orign',
    header: c.lots,
    width: 80,
    render: (o) => <TwoLines top={lotsText(tradedLots(o))} bottom={`/ ${lotsText(o.volume_orign)}`} />,
  },
  {
    field: 'trade_price',
    header: c.price,
    width: 104,
    render: (o) => <TwoLines top={tradePriceText(o)} bottom={limitPriceText(o.limit_price)} />,
  },
  { field: 'instrument_id', header: c.instrument, width: 76, render: (o) => instrumentShort(o.instrument_id) },
];

/** The history table's columns for the screen width. */
export function historyColumns(isCompact: boolean): DataTableColumn<OrderRow>[] {
  return isCompact ? compact : wide;
}
