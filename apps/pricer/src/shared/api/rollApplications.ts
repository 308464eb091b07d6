import type { ApplyRollInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './call';
import { POLL_MS, refetchSoon } from './desk';
import { customerKeys } from './keys';

/** 转月 as the customer's application (issue 42 item 3, docs/fixing.md). */
const applicationKeys = customerKeys('roll-applications');
const quoteKeys = customerKeys('roll-quote');

export const rollApplicationsApi = {
  /** The contract's applications, newest first. */
  contractApplications: (contractId: number, signal?: AbortSignal) =>
    call.page(
      'myRollApplications',
      {
        filter: `contract_id = ${contractId}`,
        sort_fields: [{ field: 'id', ascending: false }],
        slice_start: 0,
        slice_end: 10,
      },
      signal,
    ),
  rollQuote: (contractId: number, to: string | undefined, signal?: AbortSignal) =>
    call('rollQuote', { contract_id: contractId, ...(to ? { to_instrument_id: to } : {}) }, signal),
  applyRoll: (input: ApplyRollInput) => call('applyRoll', input),
  acceptRoll: (applicationId: number) => call('acceptRoll', { application_id: applicationId }),
};

/** The selected contract's applications and offers, polled like the snapshot (an offer arrives by itself). */
export function useContractRollApplications(userId: number, contractId: number) {
  return useQuery({
    queryKey: applicationKeys(userId).of(contractId),
    queryFn: ({ signal }) => rollApplicationsApi.contractApplications(contractId, signal),
    refetchInterval: POLL_MS,
  });
}

/** The live month spread while the application form is open (both futures' bid/ask). */
export function useRollQuote(userId: number, contractId: number, to: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: quoteKeys(userId).of(contractId, to ?? ''),
    queryFn: ({ signal }) => rollApplicationsApi.rollQuote(contractId, to, signal),
    enabled,
    refetchInterval: POLL_MS,
  });
}

export function useApplyRoll(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApplyRollInput) => rollApplicationsApi.applyRoll(input),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}

export function useAcceptRoll(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (applicationId: number) => rollApplicationsApi.acceptRoll(applicationId),
    onSuccess: () => refetchSoon(queryClient, userId),
  });
}
