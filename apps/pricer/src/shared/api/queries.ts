import { serverMessage } from '@pfp/api-client';
import type { OrderRow } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { zh } from '@pfp/i18n';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { pricerApi, type OrderConditions, type TradedGroup } from './client';
import { pricerKeys } from './keys';

/** SPEC §9: the customer snapshot and orders poll. */
export const POLL_MS = 5000;

/** The company name on the login page: a minute of reuse while typing. */
export function useTenantInfo(tenantId: number | null) {
  return useQuery({
    queryKey: pricerKeys.tenantInfo(tenantId),
    queryFn: () => pricerApi.tenantInfo(tenantId!),
    enabled: tenantId !== null,
    staleTime: 60_000,
  });
}

/** Whether the server runs the demo data (the login's prefill): read once per page life. */
export function useDemoOn() {
  return useQuery({ queryKey: pricerKeys.demo, queryFn: () => pricerApi.demoOn(), staleTime: Infinity });
}

/**
 * The customer's contracts, orders and last prices. `poll`: every 5 s (the desk, which stops it
 * while a manual refresh runs); not polled, an answer is reused for 30 s (the history filter).
 */
export function useSnapshot(userId: number, poll: boolean) {
  return useQuery({
    queryKey: pricerKeys.snapshot(userId),
    queryFn: ({ signal }) => pricerApi.snapshot(signal),
    refetchInterval: poll ? POLL_MS : false,
    staleTime: poll ? 0 : 30_000,
  });
}

/** The customer's account and latest funds entries (the history's 资金流水; docs/margin.md). */
export function useMyFunds(userId: number) {
  return useQuery({
    queryKey: ['pricer', userId, 'funds'],
    queryFn: ({ signal }) => pricerApi.myFunds(signal),
    staleTime: 30_000,
  });
}

/** The latest `limit` orders of the selected contract, polled like the snapshot. */
export function useContractOrders(userId: number, contractId: number | undefined, limit: number, poll: boolean) {
  return useQuery({
    queryKey: pricerKeys.contractOrders(userId, contractId),
    queryFn: ({ signal }) => pricerApi.contractOrders(contractId!, limit, signal),
    enabled: contractId !== undefined,
    refetchInterval: poll ? POLL_MS : false,
  });
}

/** The latest conditional orders of the selected contract, polled like its orders. */
export function useContractConditionals(userId: number, contractId: number | undefined, limit: number, poll: boolean) {
  return useQuery({
    queryKey: pricerKeys.contractConditionals(userId, contractId),
    queryFn: ({ signal }) => pricerApi.contractConditionals(contractId!, limit, signal),
    enabled: contractId !== undefined,
    refetchInterval: poll ? POLL_MS : false,
  });
}

type TableOptions = Omit<UseServerTableOptions<OrderRow>, 'queryKey' | 'fetchPage'>;

/**
 * The history table: my-orders with the filter's conditions, paged by the table. Its refresh
 * reloads the summary too. A failure is logged only (SPEC §8); the table shows the server's
 * message or 数据加载失败.
 */
export function useHistoryTable(userId: number, conditions: OrderConditions, options: TableOptions) {
  const queryClient = useQueryClient();
  const table = useServerTable<OrderRow>({
    ...options,
    queryKey: [...pricerKeys.history(userId), 'pages', conditions],
    fetchPage: async (params, signal) => {
      try {
        return await pricerApi.historyPage(conditions, params, signal);
      } catch (error) {
        if (!signal.aborted) console.error('history load failed', error);
        throw new Error(serverMessage(error) ?? zh.table.loadError, { cause: error });
      }
    },
  });
  const refetch = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: pricerKeys.history(userId) }),
    [queryClient, userId],
  );
  return { ...table, refetch };
}

/** The summary line of the history: every order matching the conditions (kept while the next loads). */
export function useHistorySummary<T>(
  userId: number,
  conditions: OrderConditions,
  select: (groups: TradedGroup[]) => T,
) {
  return useQuery({
    queryKey: [...pricerKeys.history(userId), 'summary', conditions],
    queryFn: async ({ signal }) => {
      try {
        return await pricerApi.historyGroups(conditions, signal);
      } catch (error) {
        if (!signal.aborted) console.error('history load failed', error);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
    select,
  });
}

/** The selected contract's 均价点价 schedule (average contracts only) and history (issue 32), polled like the snapshot. */
export function useContractLife(userId: number, contractId: number | undefined, average: boolean) {
  const schedule = useQuery({
    queryKey: ['pricer', userId, 'contract-schedule', contractId],
    queryFn: ({ signal }) => pricerApi.contractSchedule(contractId!, signal),
    enabled: contractId !== undefined && average,
    refetchInterval: POLL_MS,
  });
  const history = useQuery({
    queryKey: ['pricer', userId, 'contract-history', contractId],
    queryFn: ({ signal }) => pricerApi.contractHistory(contractId!, signal),
    enabled: contractId !== undefined,
    refetchInterval: POLL_MS,
  });
  return { schedule, history };
}

/** Every contract's 条件单 of the customer, newest first, polled (issue 29). */
export function useMyConditionals(userId: number, limit: number) {
  return useQuery({
    queryKey: pricerKeys.myConditionals(userId),
    queryFn: ({ signal }) => pricerApi.myConditionals(limit, signal),
    refetchInterval: POLL_MS,
  });
}
