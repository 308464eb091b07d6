import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import type { ContractRow, OrderRow, PricerUserRow } from '@pfp/contract';
import { isCancelledError, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { StatusGroup } from './client';
import { useApi } from './context';
import { traderKeys } from './keys';

/** SPEC §7/§9 polling of the console. */
export const STATUS_POLL_MS = 10_000;
export const ORDER_STATS_REFETCH_MS = 5_000;
export const ORDERS_REFRESH_MS = 10_000;
export const CONTRACT_STATS_REFETCH_MS = 30_000;
export const USER_STATS_REFETCH_MS = 30_000;

/** The company profile: null while none is saved (my-self answers 404); any other failure is the error. */
export function useProfile() {
  const api = useApi();
  const query = useQuery({ queryKey: traderKeys.profile, queryFn: api.mySelf });
  return { profile: query.data ?? null, loading: query.isPending, error: query.error };
}

export type ConnectionState = 'ok' | 'error';

/** The tenant's gateway, polled every 10 s but not while the settings dialog is open (`paused`). */
export function useConnectionStatus(paused: boolean): { state: ConnectionState; message: string | undefined } {
  const api = useApi();
  const query = useQuery({
    queryKey: traderKeys.tqsdkStatus,
    queryFn: api.tqsdkStatus,
    refetchInterval: paused ? false : STATUS_POLL_MS,
    enabled: !paused,
  });
  const connected = query.data?.connected === true && !query.isError;
  return {
    state: connected ? 'ok' : 'error',
    message: query.isError ? query.error.message : query.data?.message,
  };
}

export function useOrderStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.orderStats,
    queryFn: api.orderStats,
    refetchInterval: ORDER_STATS_REFETCH_MS,
    select,
  });
}

export function useContractStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.contractStats,
    queryFn: api.contractStats,
    refetchInterval: CONTRACT_STATS_REFETCH_MS,
    select,
  });
}

export function useUserStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.userStats,
    queryFn: api.userStats,
    refetchInterval: USER_STATS_REFETCH_MS,
    select,
  });
}

/** The pickers of the contract dialog: loaded only while it is open for a new contract. */
export function useAllUsers(enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: traderKeys.allUsers, queryFn: api.allUsers, enabled });
}

export function useProducts(enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: traderKeys.products, queryFn: api.products, enabled });
}

export function useInstruments(productName: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.instruments(productName),
    queryFn: () => api.instruments(productName),
    enabled: enabled && productName !== '',
  });
}

type TableOptions<T> = Omit<UseServerTableOptions<T>, 'queryKey' | 'fetchPage' | 'autoRefresh' | 'refetchIntervalMs'>;

/** The live order stream, refreshed every 10 s. */
export function useOrdersTable(options: TableOptions<OrderRow>) {
  const api = useApi();
  return useServerTable<OrderRow>({
    ...options,
    queryKey: traderKeys.orderTable,
    fetchPage: api.orders,
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
}

export function useContractsTable(options: TableOptions<ContractRow>) {
  const api = useApi();
  return useServerTable<ContractRow>({ ...options, queryKey: traderKeys.contractTable, fetchPage: api.contracts });
}

export function useUsersTable(options: TableOptions<PricerUserRow>) {
  const api = useApi();
  return useServerTable<PricerUserRow>({ ...options, queryKey: traderKeys.userTable, fetchPage: api.users });
}

/**
 * Reloads the order stats and the order table's page; settles when both have, and rejects with
 * the first failure. A load cut short by a page change is not a failure.
 */
export function useRefreshOrders(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient
        .refetchQueries({ queryKey: traderKeys.orders, type: 'active' }, { throwOnError: true })
        .catch((err: unknown) => {
          if (!isCancelledError(err)) throw err;
        }),
    [queryClient],
  );
}

/** What pausing the contract would stop, read fresh each time its dialog opens (null: closed). */
export function useContractPausePreview(contractId: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.contractPausePreview(contractId ?? 0),
    queryFn: () => api.contractPausePreview(contractId!),
    enabled: contractId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** What deactivating the customer would stop, read fresh each time its dialog opens (null: closed). */
export function usePricerDeactivatePreview(userId: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.pricerDeactivatePreview(userId ?? 0),
    queryFn: () => api.pricerDeactivatePreview(userId!),
    enabled: userId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * The open contracts (active, paused) with the nearest fixing deadlines, refreshed like the contract
 * stats; the dashboard keeps those within 3 days (issue 30).
 */
export function useNearestDeadlines() {
  const api = useApi();
  return useQuery({
    queryKey: traderKeys.expiringContracts,
    queryFn: () =>
      api
        .contracts({
          filter: "status in ['active','paused']",
          sort_fields: [{ field: 'fixing_deadline', ascending: true }],
          slice_start: 0,
          slice_end: 50,
        })
        .then((p) => p.items),
    refetchInterval: CONTRACT_STATS_REFETCH_MS,
  });
}
