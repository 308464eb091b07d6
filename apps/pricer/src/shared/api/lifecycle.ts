import { useQuery } from '@tanstack/react-query';
import { call } from './call';
import { POLL_MS } from './desk';
import { customerKeys } from './keys';

const scheduleKeys = customerKeys('contract-schedule');
const historyKeys = customerKeys('contract-history');

/** 均价点价 schedule and the contract's history with its 转月确认单 (issue 32, docs/fixing.md). */
export const lifecycleApi = {
  contractSchedule: (contractId: number, signal?: AbortSignal) =>
    call('contractSchedule', { contract_id: contractId }, signal),
  contractHistory: (contractId: number, signal?: AbortSignal) =>
    call('contractHistory', { contract_id: contractId }, signal),
};

/** The selected contract's 均价点价 schedule (average contracts only) and history, polled like the snapshot. */
export function useContractLife(userId: number, contractId: number | undefined, average: boolean) {
  const schedule = useQuery({
    queryKey: scheduleKeys(userId).of(contractId),
    queryFn: ({ signal }) => lifecycleApi.contractSchedule(contractId!, signal),
    enabled: contractId !== undefined && average,
    refetchInterval: POLL_MS,
  });
  const history = useQuery({
    queryKey: historyKeys(userId).of(contractId),
    queryFn: ({ signal }) => lifecycleApi.contractHistory(contractId!, signal),
    enabled: contractId !== undefined,
    refetchInterval: POLL_MS,
  });
  return { schedule, history };
}
