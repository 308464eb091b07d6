import { serverMessage } from '@pfp/api-client';
import type { MyOrdersRequest, OrderRow, ViewRequest } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from './call';
import { customerKeys } from './keys';

/** The history table's pages and its summary. */
const historyKeys = customerKeys('history');

/** The history filter's conditions of my-orders (SPEC §7: empty values and 'all' are left out). */
export type OrderConditions = Pick<MyOrdersRequest, 'start_date' | 'end_date' | 'contract_id' | 'status'>;

/**
 * One group of the history summary, the orders with the same traded volume, as the wire sends it:
 * volume_traded, count_id and sum_volume_orign (numbers or numeric text).
 */
export type TradedGroup = Record<string, unknown>;

/** The history page's calls (SPEC §7 my-orders). */
export const historyApi = {
  /** One page of the history table: the table's params (filter, sort, slice) and the history conditions. */
  historyPage: (conditions: OrderConditions, params: ViewRequest, signal?: AbortSignal) =>
    call.page('myOrders', { ...params, ...conditions }, signal),

  /**
   * The summary of every order matching the conditions, not just one page. volume_traded is a
   * text column (sum refused), so the orders are grouped by it: traded lots = Σ value × count.
   */
  historyGroups: (conditions: OrderConditions, signal?: AbortSignal) =>
    call(
      'myOrders',
      {
        ...conditions,
        group_by_fields: ['volume_traded'],
        aggregate_fields: [
          { field: 'id', op: 'count' },
          { field: 'volume_orign', op: 'sum' },
        ],
      },
      signal,
    ).then((page): TradedGroup[] => page.items),
};

type TableOptions = Omit<UseServerTableOptions<OrderRow>, 'queryKey' | 'fetchPage'>;

/**
 * The history table: my-orders with the filter's conditions, paged by the table. Its refresh
 * reloads the summary too. A failure is logged only (SPEC §8); the table shows the server's
 * message or 数据加载失败.
 */
export function useHistoryTable(userId: number, conditions: OrderConditions, options: TableOptions) {
  const queryClient = useQueryClient();
  const table = useServerTable<OrderRow>({
    ...options,
    queryKey: historyKeys(userId).of('pages', conditions),
    fetchPage: async (params, signal) => {
      try {
        return await historyApi.historyPage(conditions, params, signal);
      } catch (error) {
        if (!signal.aborted) console.error('history load failed', error);
        throw new Error(serverMessage(error) ?? zh.table.loadError, { cause: error });
      }
    },
  });
  const refetch = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: historyKeys(userId).all }),
    [queryClient, userId],
  );
  return { ...table, refetch };
}

/** The summary line of the history: every order matching the conditions (kept while the next loads). */
export function useHistorySummary<T>(
  userId: number,
  conditions: OrderConditions,
  select: (groups: TradedGroup[]) => T,
) {
  return useQuery({
    queryKey: historyKeys(userId).of('summary', conditions),
    queryFn: async ({ signal }) => {
      try {
        return await historyApi.historyGroups(conditions, signal);
      } catch (error) {
        if (!signal.aborted) console.error('history load failed', error);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
    select,
  });
}
