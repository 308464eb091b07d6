import type { ExtendDeadlineInput, RollContractInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { conditionalKeys } from './conditional';
import { contractKeys } from './contracts';
import { useCalls } from './context';
import { accountKeys, ledgerKeys } from './margin';

/** The calls of a contract's life (issue 32, docs/fixing.md): 转月, 延期, the schedule and the history. */
export function lifecycleApi({ call }: TraderTransport) {
  return {
    rollContract: (input: RollContractInput) => call('rollContract', input),
    extendDeadline: (input: ExtendDeadlineInput) => call('extendDeadline', input),
    contractSchedule: (contractId: number) => call('contractSchedule', { contract_id: contractId }),
    contractHistory: (contractId: number) => call('contractHistory', { contract_id: contractId }),
  };
}

/** The schedule and history of the contract whose detail is open (both change with each fill: polled). */
export function useContractDetail(contractId: number | null) {
  const api = useCalls(lifecycleApi);
  const enabled = contractId !== null;
  const schedule = useQuery({
    queryKey: contractKeys.of('detail', contractId, 'schedule'),
    queryFn: () => api.contractSchedule(contractId!),
    enabled,
    refetchInterval: 5000,
  });
  const history = useQuery({
    queryKey: contractKeys.of('detail', contractId, 'history'),
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
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

export function useRollContract() {
  const api = useCalls(lifecycleApi);
  return useLifecycleMutation((input: RollContractInput) => api.rollContract(input));
}

export function useExtendDeadline() {
  const api = useCalls(lifecycleApi);
  return useLifecycleMutation((input: ExtendDeadlineInput) => api.extendDeadline(input));
}
