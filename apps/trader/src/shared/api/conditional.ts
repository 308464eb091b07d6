import { usePendingVariables } from '@pfp/api-client/query';
import type { ConditionalRow } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './context';
import { ORDERS_REFRESH_MS } from './queries';

/** docs/conditional-orders.md: the console's hooks. Everything sits under one key prefix. */
export const conditionalKeys = {
  all: ['trader', 'conditionals'] as const,
  table: ['trader', 'conditionals', 'table'] as const,
  waiting: ['trader', 'conditionals', 'waiting'] as const,
  cancel: ['trader', 'cancel-conditional'] as const,
};

/** Every conditional order of the tenant, refreshed like the order stream. */
export function useConditionalTable(options: Omit<UseServerTableOptions<ConditionalRow>, 'queryKey' | 'fetchPage'>) {
  const api = useApi();
  return useServerTable<ConditionalRow>({
    ...options,
    queryKey: conditionalKeys.table,
    fetchPage: api.conditionalOrders,
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
}

/** The dashboard's count of waiting conditions. */
export function useWaitingConditionals() {
  const api = useApi();
  return useQuery({
    queryKey: conditionalKeys.waiting,
    queryFn: api.waitingConditionals,
    refetchInterval: ORDERS_REFRESH_MS,
  });
}

export function useCancelConditional() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: conditionalKeys.cancel,
    mutationFn: (id: number) => api.cancelConditional(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: conditionalKeys.all }),
  });
}

/** The ids of the conditions whose cancel is on its way. */
export const useCancellingConditionals = () => usePendingVariables<number>(conditionalKeys.cancel);
