import { Text } from '@pfp/mantine';
import type { DataTableColumn } from '@pfp/data-table';
import { instrumentShort } from '@pfp/i18n';
import { directionLabel } from './labels';

/** BUY and SELL as choices (the contract dialog, the tables' filters). */
export const DIRECTION_OPTIONS = [
  { value: 'BUY', label: directionLabel('BUY') },
  { value: 'SELL', label: directionLabel('SELL') },
];

// The columns the order, contract and conditional-order tables have in common.

/** The instrument, short (cu2601), filtered by text. */
export const instrumentColumn = <T extends { instrument_id: string }>(
  header: string,
  width: number,
): DataTableColumn<T> => ({
  field: 'instrument_id',
  header,
  width,
  priority: 2,
  accessor: (row) => instrumentShort(row.instrument_id),
  filter: { type: 'text' },
});

/** 买入 / 卖出, filtered by a choice. */
export const directionColumn = <T extends { direction: string }>(
  header: string,
  width: number,
): DataTableColumn<T> => ({
  field: 'direction',
  header,
  width,
  accessor: (row) => directionLabel(row.direction),
  filter: { type: 'select', options: DIRECTION_OPTIONS },
});

/** The contract's name in at most two lines (all of it on hover). */
export const contractNameColumn = <T extends { contract_name: string | null }>(header: string): DataTableColumn<T> => ({
  field: 'contract_name',
  header,
  width: 140,
  priority: 3,
  filter: { type: 'text' },
  render: (row) => (
    <Text size="sm" lineClamp={2} title={row.contract_name ?? undefined}>
      {row.contract_name}
    </Text>
  ),
});

/** The server's last word on the row (last_msg), in at most two lines. */
export const lastMessageColumn = <T extends { last_msg: string }>(
  header: string,
  width: number,
): DataTableColumn<T> => ({
  field: 'last_msg',
  header,
  width,
  priority: 4,
  render: (row) => (
    <Text size="sm" lineClamp={2} title={row.last_msg}>
      {row.last_msg || '-'}
    </Text>
  ),
});
