import type { RespondStatementInput } from '@pfp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './call';
import { customerKeys } from './keys';

const statementKeys = customerKeys('statement');

/** The customer's statement of a period and their answer (issue 41, docs/statements.md). */
export const statementsApi = {
  statement: (period: { start_date: string; end_date: string }, signal?: AbortSignal) =>
    call('statement', period, signal),
  respond: (input: RespondStatementInput) => call('respondStatement', input),
};

export function useMyStatement(userId: number, period: { start_date: string; end_date: string } | null) {
  return useQuery({
    queryKey: statementKeys(userId).of(period),
    queryFn: ({ signal }) => statementsApi.statement(period!, signal),
    enabled: period !== null,
    placeholderData: keepPreviousData,
  });
}

/** 对账确认 / 有异议: the answer comes back with the statement, which replaces the one read. */
export function useRespondStatement(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: statementsApi.respond,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: statementKeys(userId).all }),
  });
}
