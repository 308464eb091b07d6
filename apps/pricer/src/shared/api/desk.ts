import { usePendingVariables } from '@pfp/api-client/query';
import type { SubmitOrderInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call } from './call';
import { customerKeys, pricerKeys } from './keys';
import { onAgreementRefusal } from './agreement';

/** SPEC §9: the customer snapshot and orders poll. */
export const POLL_MS = 5000;
/** SPEC §7: a re-fetch happens 200 ms after a submit or a cancel. */
export const REFETCH_AFTER_ACTION_MS = 200;

export const snapshotKeys = customerKeys('snapshot');
/** The orders of one contract (the desk's table), by contract. */
export const orderKeys = customerKeys('orders');
const cancelKey = pricerKeys.of('cancel-order');

/** The desk's calls (SPEC §7): the snapshot, the contract's latest orders, a fix and its cancel. */
export const deskApi = {
  snapshot: (signal?: AbortSignal) => call('snapshot', undefined, signal),
  /** The latest orders of one contract (the desk's table), newest first. */
  contractOrders: (contractId: number, limit: number, signal?: AbortSignal) =>
    call.page(
      'myOrders',
      { contract_id: contractId, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ),
  /** SPEC §7: success when result 'ok' and data present. */
  submitOrder: (order: SubmitOrderInput) => call('submitOrder', order),
  cancelOrder: (orderId: number) => call('cancelOrder', { order_id: orderId }),
};

/** After a customer's action: everything of theirs is read again, 200 ms on (SPEC §7). */
export function refetchSoon(queryClient: QueryClient, userId: number) {
  setTimeout(() => void queryClient.invalidateQueries({ queryKey: pricerKeys.user(userId) }), REFETCH_AFTER_ACTION_MS);
}

/**
 * The customer's contracts, orders and last prices. `poll`: every 5 s (the desk, which stops it
 * while a manual refresh runs); not polled, an answer is reused for 30 s (the history filter).
 */
export function useSnapshot(userId: number, poll: boolean) {
  return useQuery({
    queryKey: snapshotKeys(userId).all,
    queryFn: ({ signal }) => deskApi.snapshot(signal),
    refetchInterval: poll ? POLL_MS : false,
    staleTime: poll ? 0 : 30_000,
  });
}

/** The latest `limit` orders of the selected contract, polled like the snapshot. */
export function useContractOrders(userId: number, contractId: number | undefined, limit: number, poll: boolean) {
  return useQuery({
    queryKey: orderKeys(userId).of(contractId),
    queryFn: ({ signal }) => deskApi.contractOrders(contractId!, limit, signal),
    enabled: contractId !== undefined,
    refetchInterval: poll ? POLL_MS : false,
  });
}

export function useSubmitOrder(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: SubmitOrderInput) => deskApi.submitOrder(order),
    onSuccess: () => refetchSoon(queryClient, userId),
    onError: onAgreementRefusal(queryClient, userId),
  });
}

export function useCancelOrder(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: cancelKey,
    mutationFn: (orderId: number) => deskApi.cancelOrder(orderId),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

/** The ids of the orders whose cancel is on its way. */
export const useCancellingOrders = () => usePendingVariables<number>(cancelKey);
