import type { PriceRollInput, RollApplication, RollApplicationsRequest, SetRollAutoPricingInput } from '@pfp/contract';
import { useServerTable, type UseServerTableOptions } from '@pfp/data-table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { ORDERS_REFRESH_MS } from './orders';

/** The customers' 转月 applications (issue 42 item 3, docs/fixing.md). */
export const rollApplicationKeys = traderKeys('roll-applications');

export function rollApplicationsApi({ call }: TraderTransport) {
  return {
    rollApplications: (params: RollApplicationsRequest, signal?: AbortSignal) =>
      call.page('rollApplications', params, signal),
    rollQuote: (contractId: number, to: string) => call('rollQuote', { contract_id: contractId, to_instrument_id: to }),
    priceRoll: (input: PriceRollInput) => call('priceRoll', input),
    rollAutoPricing: () => call('rollAutoPricing', undefined),
    setRollAutoPricing: (input: SetRollAutoPricingInput) => call('setRollAutoPricing', input),
  };
}

/** Every application of the company, refreshed like the order stream (a customer's accept shows by itself). */
export function useRollApplicationsTable(
  options: Omit<UseServerTableOptions<RollApplication>, 'queryKey' | 'fetchPage'>,
) {
  const api = useCalls(rollApplicationsApi);
  return useServerTable<RollApplication>({
    ...options,
    queryKey: rollApplicationKeys.of('table'),
    fetchPage: api.rollApplications,
    refetchIntervalMs: ORDERS_REFRESH_MS,
  });
}

/** The live month spread of the application being priced. */
export function useRollQuote(application: RollApplication | null) {
  const api = useCalls(rollApplicationsApi);
  return useQuery({
    queryKey: rollApplicationKeys.of('quote', application?.contract_id, application?.to_instrument_id),
    queryFn: () => api.rollQuote(application!.contract_id, application!.to_instrument_id),
    enabled: application !== null,
    refetchInterval: 5000,
  });
}

export function usePriceRoll() {
  const api = useCalls(rollApplicationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PriceRollInput) => api.priceRoll(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: rollApplicationKeys.all }),
  });
}

/** The company's 转月 auto-pricing rule (docs/roles.md): every role reads it, 管理员 changes it. */
export function useRollAutoPricing() {
  const api = useCalls(rollApplicationsApi);
  return useQuery({ queryKey: rollApplicationKeys.of('auto-pricing'), queryFn: api.rollAutoPricing });
}

export function useSetRollAutoPricing() {
  const api = useCalls(rollApplicationsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetRollAutoPricingInput) => api.setRollAutoPricing(input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: rollApplicationKeys.of('auto-pricing') }),
  });
}
