import { usePendingVariables } from '@pfp/api-client/query';
import type { CreateConditionalInput, PricerLoginInput, SubmitOrderInput } from '@pfp/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { pricerApi } from './client';
import { pricerKeys } from './keys';

/** SPEC §7: a re-fetch happens 200 ms after a submit or a cancel. */
export const REFETCH_AFTER_ACTION_MS = 200;

function refetchSoon(queryClient: QueryClient, userId: number) {
  setTimeout(() => void queryClient.invalidateQueries({ queryKey: pricerKeys.user(userId) }), REFETCH_AFTER_ACTION_MS);
}

export function useLogin() {
  return useMutation({ mutationFn: (input: PricerLoginInput) => pricerApi.login(input) });
}

export function useSubmitOrder(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: SubmitOrderInput) => pricerApi.submitOrder(order),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

export function useCancelOrder(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: pricerKeys.cancelOrder,
    mutationFn: (orderId: number) => pricerApi.cancelOrder(orderId),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

/** The ids of the orders whose cancel is on its way. */
export const useCancellingOrders = () => usePendingVariables<number>(pricerKeys.cancelOrder);

export function useCreateConditional(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateConditionalInput) => pricerApi.createConditional(input),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

export function useCancelConditional(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: pricerKeys.cancelConditional,
    mutationFn: (id: number) => pricerApi.cancelConditional(id),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

/** The ids of the conditional orders whose cancel is on its way. */
export const useCancellingConditionals = () => usePendingVariables<number>(pricerKeys.cancelConditional);
