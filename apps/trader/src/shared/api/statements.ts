import type { SettleFeeInput, TraderStatementRequest } from '@pfp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { accountKeys, ledgerKeys } from './margin';

export const statementKeys = traderKeys('statement');
export const feeKeys = traderKeys('fee-receivables');

/** Fee receivables and the statement (issue 41, docs/statements.md). */
export function statementsApi({ call }: TraderTransport) {
  return {
    openFees: () => call('feeReceivables', { status: 'open' }),
    statement: (input: TraderStatementRequest) => call('statement', input),
    settleFee: (input: SettleFeeInput) => call('settleFee', input),
  };
}

export function useOpenFees() {
  const api = useCalls(statementsApi);
  return useQuery({ queryKey: feeKeys.of('open'), queryFn: api.openFees });
}

export function useStatement(input: TraderStatementRequest | null) {
  const api = useCalls(statementsApi);
  return useQuery({
    queryKey: statementKeys.of(input),
    queryFn: () => api.statement(input!),
    enabled: input !== null,
    placeholderData: keepPreviousData,
  });
}

/** A settled fee changes the fee list, the statement and (collected) the customer's account and ledger. */
export function useSettleFee() {
  const api = useCalls(statementsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SettleFeeInput) => api.settleFee(input),
    onSuccess: () => {
      for (const key of [feeKeys.all, statementKeys.all, accountKeys.all, ledgerKeys.all])
        void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
