import { usePendingVariables } from '@pfp/api-client/query';
import type { ContractRow, CreateContractInput, UpdateContractStatusInput, ViewRequest } from '@pfp/contract';
import { useServerTable } from '@pfp/data-table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { byStatus, type StatusGroup, type TraderTransport } from './call';
import { conditionalKeys } from './conditional';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { orderKeys, type TableOptions } from './orders';

/** SPEC §9: the contract stats are polled. */
export const CONTRACT_STATS_REFETCH_MS = 30_000;

/** Everything read of the company's contracts (pages, stats, details, previews); a change reloads them all. */
export const contractKeys = traderKeys('contracts');
const productKeys = traderKeys('products');
const instrumentKeys = traderKeys('instruments');
const updateStatusKey = contractKeys.of('update-status');

/** The company's contracts (SPEC §7): the list, its counts, a new contract, 暂停 / 恢复 and the dialog's pickers. */
export function contractsApi({ call }: TraderTransport) {
  return {
    contracts: (params: ViewRequest, signal?: AbortSignal) => call.page('contracts', params, signal),
    contractStats: () =>
      byStatus(call, 'contracts', [
        { field: 'id', op: 'count' },
        { field: 'total_quantity', op: 'sum' },
        { field: 'executed_quantity', op: 'sum' },
      ]),
    createContract: (input: CreateContractInput) => call('createContract', input),
    updateContractStatus: (input: UpdateContractStatusInput) => call('updateContractStatus', input),
    /** What a pause would stop (issue 30): working orders and waiting 条件单. */
    contractPausePreview: (contractId: number) => call('contractPausePreview', { contract_id: contractId }),
    // The contract's product picker: commodity futures only (no index or bond futures, issue 29).
    products: () => call.page('products', { filter: 'commodity is true' }).then((p) => p.items),
    instruments: (productName: string) => call.page('instruments', { product_name: productName }).then((p) => p.items),
  };
}

export function useContractStats<T>(select: (groups: StatusGroup[]) => T) {
  const api = useCalls(contractsApi);
  return useQuery({
    queryKey: contractKeys.of('stats'),
    queryFn: api.contractStats,
    refetchInterval: CONTRACT_STATS_REFETCH_MS,
    select,
  });
}

export function useContractsTable(options: TableOptions<ContractRow>) {
  const api = useCalls(contractsApi);
  return useServerTable<ContractRow>({ ...options, queryKey: contractKeys.of('table'), fetchPage: api.contracts });
}

/**
 * The open contracts (active, paused) with the nearest fixing deadlines, refreshed like the contract
 * stats; the dashboard keeps those within 3 days (issue 30).
 */
export function useNearestDeadlines() {
  const api = useCalls(contractsApi);
  return useQuery({
    queryKey: contractKeys.of('expiring'),
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

/** What pausing the contract would stop, read fresh each time its dialog opens (null: closed). */
export function useContractPausePreview(contractId: number | null) {
  const api = useCalls(contractsApi);
  return useQuery({
    queryKey: contractKeys.of('pause-preview', contractId ?? 0),
    queryFn: () => api.contractPausePreview(contractId!),
    enabled: contractId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The pickers of the contract dialog: loaded only while it is open for a new contract. */
export function useProducts(enabled: boolean) {
  const api = useCalls(contractsApi);
  return useQuery({ queryKey: productKeys.all, queryFn: api.products, enabled });
}

export function useInstruments(productName: string, enabled: boolean) {
  const api = useCalls(contractsApi);
  return useQuery({
    queryKey: instrumentKeys.of(productName),
    queryFn: () => api.instruments(productName),
    enabled: enabled && productName !== '',
  });
}

export function useUpdateContractStatus() {
  const api = useCalls(contractsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: updateStatusKey,
    mutationFn: (input: UpdateContractStatusInput) => api.updateContractStatus(input),
    // A pause cancels the contract's orders and suspends its 条件单 (issue 30): those lists change too.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: conditionalKeys.all });
    },
  });
}

/** The ids of the contracts whose status change is on its way. */
export const useUpdatingContracts = () =>
  usePendingVariables<UpdateContractStatusInput>(updateStatusKey).map((v) => v.contract_id);

export function useCreateContract() {
  const api = useCalls(contractsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateContractInput) => api.createContract(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: contractKeys.all }),
  });
}
