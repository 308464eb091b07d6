import type { ExtendDeadlineInput, RollContractInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderCall } from './client';
import { conditionalKeys } from './conditional';
import { useApi } from './context';
import { traderKeys } from './keys';

/** The calls of a contract's life (issue 32, docs/fixing.md): 转月, 延期, the schedule and the history. */
export function lifecycleApi(call: TraderCall) {
  return {
    rollContract: (input: RollContractInput) => call('rollContract', input),
    extendDeadline: (input: ExtendDeadlineInput) => call('extendDeadline', input),
    contractSchedule: (contractId: number) => call('contractSchedule', { contract_id: contractId }),
    contractHistory: (contractId: number) => call('contractHistory', { contract_id: contractId }),
  };
}

const detail = (contractId: number | null) => ['trader', 'contracts', 'detail', contractId] as const;

/** The schedule and history of the contract whose detail is open (both change with each fill: polled). */
export function useContractDetail(contractId: number | null) {
  const api = useApi();
  const enabled = contractId !== null;
  const schedule = useQuery({
    queryKey: [...detail(contractId), 'schedule'],
    queryFn: () => api.contractSchedule(contractId!),
    enabled,
    refetchInterval: 5000,
  });
  const history = useQuery({
    queryKey: [...detail(contractId), 'history'],
    queryFn: () => api.contractHistory(contractId!),
    enabled,
    refetchInterval: 5000,
  });
  return { schedule, history };
}

/** A roll or an extension changes contracts, the customer's ledger and the exposure. */
function useLifecycleMutation<I>(fn: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: traderKeys.contracts });
      void queryClient.invalidateQueries({ queryKey: ['trader', 'pricer-accounts'] });
      void queryClient.invalidateQueries({ queryKey: ['trader', 'funds-ledger'] });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

export function useRollContract() {
  const api = useApi();
  return useLifecycleMutation((input: RollContractInput) => api.rollContract(input));
}

export function useExtendDeadline() {
  const api = useApi();
  return useLifecycleMutation((input: ExtendDeadlineInput) => api.extendDeadline(input));
}
