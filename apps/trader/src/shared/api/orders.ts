import { usePendingVariables } from '@pfp/api-client/query';
import type { OrderRow, ViewRequest } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { isCancelledError, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { byStatus, type StatusGroup, type TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** SPEC §7/§9 polling of the order stream and its counts. */
export const ORDER_STATS_REFETCH_MS = 5_000;
export const ORDERS_REFRESH_MS = 10_000;

/** Everything read of the company's orders (the table's pages, the stats); a change reloads them all. */
export const orderKeys = traderKeys('orders');
const cancelKey = orderKeys.of('cancel');

/** A server table's options, less what the capability's hook supplies. */
export type TableOptions<T> = Omit<
  UseServerTableOptions<T>,
  'queryKey' | 'fetchPage' | 'autoRefresh' | 'refetchIntervalMs'
>;

/** The company's orders (SPEC §7): the live stream, its counts, and a cancel. */
export function ordersApi({ call }: TraderTransport) {
  return {
    orders: (params: ViewRequest, signal?: AbortSignal) => call.page('orders', params, signal),
    orderStats: () =>
      byStatus(call, 'orders', [
        { field: 'id', op: 'count' },
        // 累计成交金额 in 元: price × lots × multiplier (issue 29), not the SPEC's trade_amount (price × lots).
        { field: 'turnover', op: 'sum' },
      ]),
    cancelOrder: (orderId: number) => call('cancelOrder', { order_id: orderId }),
  };
}

export function useOrderStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useCalls(ordersApi);
  return useQuery({
    queryKey: orderKeys.of('stats'),
    queryFn: api.orderStats,
    refetchInterval: ORDER_STATS_REFETCH_MS,
    select,
  });
}

/** The live order stream, refreshed every 10 s. */
export function useOrdersTable(options: TableOptions<OrderRow>) {
  const api = useCalls(ordersApi);
  return useServerTable<OrderRow>({
    ...options,
    queryKey: orderKeys.of('table'),
    fetchPage: api.orders,
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
}

/**
 * Reloads the order stats and the order table's page; settles when both have, and rejects with
 * the first failure. A load cut short by a page change is not a failure.
 */
export function useRefreshOrders(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient
        .refetchQueries({ queryKey: orderKeys.all, type: 'active' }, { throwOnError: true })
        .catch((err: unknown) => {
          if (!isCancelledError(err)) throw err;
        }),
    [queryClient],
  );
}

export function useCancelOrder() {
  const api = useCalls(ordersApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: cancelKey,
    mutationFn: (orderId: number) => api.cancelOrder(orderId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/** The ids of the orders whose cancel is on its way. */
export const useCancellingOrders = () => usePendingVariables<number>(cancelKey);
