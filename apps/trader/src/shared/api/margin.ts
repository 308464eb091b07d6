import type { RecordFundsInput, SetCreditLineInput, SettleLotsInput } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { contractKeys } from './contracts';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** Accounts move with the market: refreshed like the order stream. */
export const ACCOUNTS_REFRESH_MS = 10_000;

export const accountKeys = traderKeys('pricer-accounts');
export const ledgerKeys = traderKeys('funds-ledger');

/** The calls of 资金与保证金 (docs/margin.md). */
export function marginApi({ call }: TraderTransport) {
  return {
    pricerAccounts: () => call('pricerAccounts', undefined),
    fundsLedger: (pricerId: number) =>
      call.page('fundsLedger', { pricer_id: pricerId, slice_start: 0, slice_end: 100 }),
    recordFunds: (input: RecordFundsInput) => call('recordFunds', input),
    setCreditLine: (input: SetCreditLineInput) => call('setCreditLine', input),
    /** A customer's contracts with fixed lots not yet settled (the settle dialog). */
    unsettledContracts: async (pricerId: number) => {
      const page = await call.page('contracts', { filter: `pricer_id = ${pricerId}`, slice_start: 0, slice_end: 100 });
      return page.items.filter((c) => c.executed_quantity > (c.settled_quantity ?? 0));
    },
    settleLots: (input: SettleLotsInput) => call('settleLots', input),
  };
}

/** docs/margin.md: the hooks of the 资金与保证金 page. */
export function usePricerAccounts() {
  const api = useCalls(marginApi);
  return useQuery({ queryKey: accountKeys.all, queryFn: api.pricerAccounts, refetchInterval: ACCOUNTS_REFRESH_MS });
}

export function useFundsLedger(pricerId: number | null) {
  const api = useCalls(marginApi);
  return useQuery({
    queryKey: ledgerKeys.of(pricerId),
    queryFn: () => api.fundsLedger(pricerId!),
    enabled: pricerId !== null,
  });
}

export function useRecordFunds() {
  const api = useCalls(marginApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordFundsInput) => api.recordFunds(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
    },
  });
}

export function useSetCreditLine() {
  const api = useCalls(marginApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetCreditLineInput) => api.setCreditLine(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useUnsettledContracts(pricerId: number) {
  const api = useCalls(marginApi);
  return useQuery({
    queryKey: contractKeys.of('unsettled', pricerId),
    queryFn: () => api.unsettledContracts(pricerId),
  });
}

/** Settled lots release margin and change the contract: both are reloaded. */
export function useSettleLots() {
  const api = useCalls(marginApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SettleLotsInput) => api.settleLots(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
    },
  });
}
