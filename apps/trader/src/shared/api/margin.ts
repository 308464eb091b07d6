import type { RecordFundsInput, SetCreditLineInput, SettleLotsInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './context';

/** Accounts move with the market: refreshed like the order stream. */
export const ACCOUNTS_REFRESH_MS = 10_000;
const ACCOUNTS = ['trader', 'pricer-accounts'] as const;
const LEDGER = ['trader', 'funds-ledger'] as const;

/** docs/margin.md: the hooks of the 资金与保证金 page. */
export function usePricerAccounts() {
  const api = useApi();
  return useQuery({ queryKey: ACCOUNTS, queryFn: api.pricerAccounts, refetchInterval: ACCOUNTS_REFRESH_MS });
}

export function useFundsLedger(pricerId: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: [...LEDGER, pricerId],
    queryFn: () => api.fundsLedger(pricerId!),
    enabled: pricerId !== null,
  });
}

export function useRecordFunds() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordFundsInput) => api.recordFunds(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ACCOUNTS });
      void queryClient.invalidateQueries({ queryKey: LEDGER });
    },
  });
}

export function useSetCreditLine() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetCreditLineInput) => api.setCreditLine(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ACCOUNTS }),
  });
}

const UNSETTLED = ['trader', 'contracts', 'unsettled'] as const;

export function useUnsettledContracts(pricerId: number) {
  const api = useApi();
  return useQuery({ queryKey: [...UNSETTLED, pricerId], queryFn: () => api.unsettledContracts(pricerId) });
}

/** Settled lots release margin and change the contract: both are reloaded. */
export function useSettleLots() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SettleLotsInput) => api.settleLots(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ACCOUNTS });
      void queryClient.invalidateQueries({ queryKey: ['trader', 'contracts'] });
    },
  });
}
