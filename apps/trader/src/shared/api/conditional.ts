import { usePendingVariables } from '@pfp/api-client/query';
import type { ConditionalRow, ConditionalViewRequest } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { ORDERS_REFRESH_MS } from './orders';

/** Everything read of the company's 条件单; a change reloads them all. */
export const conditionalKeys = traderKeys('conditionals');
const cancelKey = conditionalKeys.of('cancel');

/** The calls of conditional orders (docs/conditional-orders.md). */
export function conditionalApi({ call }: TraderTransport) {
  const conditionalOrders = (params: ConditionalViewRequest, signal?: AbortSignal) =>
    call.page('conditionalOrders', params, signal);
  return {
    conditionalOrders,
    /** How many wait (the dashboard's count): an empty slice and its total. */
    waitingConditionals: async () =>
      (await conditionalOrders({ status: 'WAITING', slice_start: 0, slice_end: 0 })).total_count,
    cancelConditional: (id: number) => call('cancelConditional', { id }),
  };
}

/** Every conditional order of the tenant, refreshed like the order stream. */
export function useConditionalTable(options: Omit<UseServerTableOptions<ConditionalRow>, 'queryKey' | 'fetchPage'>) {
  const api = useCalls(conditionalApi);
  return useServerTable<ConditionalRow>({
    ...options,
    queryKey: conditionalKeys.of('table'),
    fetchPage: api.conditionalOrders,
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
}

/** The dashboard's count of waiting conditions. */
export function useWaitingConditionals() {
  const api = useCalls(conditionalApi);
  return useQuery({
    queryKey: conditionalKeys.of('waiting'),
    queryFn: api.waitingConditionals,
    refetchInterval: ORDERS_REFRESH_MS,
  });
}

export function useCancelConditional() {
  const api = useCalls(conditionalApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: cancelKey,
    mutationFn: (id: number) => api.cancelConditional(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: conditionalKeys.all }),
  });
}

/** The ids of the conditions whose cancel is on its way. */
export const useCancellingConditionals = () => usePendingVariables<number>(cancelKey);
