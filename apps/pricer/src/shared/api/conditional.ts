import { usePendingVariables } from '@pfp/api-client/query';
import type { CreateConditionalInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './call';
import { POLL_MS, refetchSoon } from './desk';
import { customerKeys, pricerKeys } from './keys';
import { onAgreementRefusal } from './agreement';

/** The customer's 条件单: by contract, and 'all' (every contract's). */
export const conditionalKeys = customerKeys('conditionals');
const cancelKey = pricerKeys.of('cancel-conditional');

/** Conditional orders (docs/conditional-orders.md). */
export const conditionalApi = {
  /** The contract's latest, newest first. */
  contractConditionals: (contractId: number, limit: number, signal?: AbortSignal) =>
    call.page(
      'myConditional',
      { contract_id: contractId, sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ),
  /** Every contract's 条件单, newest first (issue 29). */
  myConditionals: (limit: number, signal?: AbortSignal) =>
    call.page(
      'myConditional',
      { sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: limit },
      signal,
    ),
  createConditional: (input: CreateConditionalInput) => call('createConditional', input),
  cancelConditional: (id: number) => call('cancelConditional', { id }),
};

/** The latest conditional orders of the selected contract, polled like its orders. */
export function useContractConditionals(userId: number, contractId: number | undefined, limit: number, poll: boolean) {
  return useQuery({
    queryKey: conditionalKeys(userId).of(contractId),
    queryFn: ({ signal }) => conditionalApi.contractConditionals(contractId!, limit, signal),
    enabled: contractId !== undefined,
    refetchInterval: poll ? POLL_MS : false,
  });
}

/** Every contract's 条件单 of the customer, newest first, polled (issue 29). */
export function useMyConditionals(userId: number, limit: number) {
  return useQuery({
    queryKey: conditionalKeys(userId).of('all'),
    queryFn: ({ signal }) => conditionalApi.myConditionals(limit, signal),
    refetchInterval: POLL_MS,
  });
}

export function useCreateConditional(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateConditionalInput) => conditionalApi.createConditional(input),
    onSuccess: () => refetchSoon(queryClient, userId),
    onError: onAgreementRefusal(queryClient, userId),
  });
}

export function useCancelConditional(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: cancelKey,
    mutationFn: (id: number) => conditionalApi.cancelConditional(id),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

/** The ids of the conditional orders whose cancel is on its way. */
export const useCancellingConditionals = () => usePendingVariables<number>(cancelKey);
