import type { MarginSettings } from '@pfp/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';
import { ACCOUNTS_REFRESH_MS } from './margin';

const settingsKeys = traderKeys('margin-settings');
const valueKeys = traderKeys('contract-values');

/** Issue 41 (docs/margin.md): the company's margin rates, the rate a new contract gets, and contract values. */
export function marginDefaultsApi({ call }: TraderTransport) {
  return {
    marginSettings: () => call('marginSettings', undefined),
    setMarginSettings: (input: MarginSettings) => call('setMarginSettings', input),
    effectiveMarginRate: (pricerId: number, productName: string) =>
      call('effectiveMarginRate', { pricer_id: pricerId, product_name: productName }),
    contractValues: (pricerId?: number) =>
      call('contractValues', pricerId === undefined ? {} : { pricer_id: pricerId }),
  };
}

export function useMarginSettings(enabled = true) {
  const api = useCalls(marginDefaultsApi);
  return useQuery({ queryKey: settingsKeys.all, queryFn: api.marginSettings, enabled });
}

/** A change of the company's rates changes the rate every new contract is offered. */
export function useSetMarginSettings() {
  const api = useCalls(marginDefaultsApi);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarginSettings) => api.setMarginSettings(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}

/** The rate the contract form offers for this customer and product (null: not chosen yet). */
export function useEffectiveMarginRate(pricerId: number | null, productName: string) {
  const api = useCalls(marginDefaultsApi);
  return useQuery({
    queryKey: settingsKeys.of('effective', pricerId, productName),
    queryFn: () => api.effectiveMarginRate(pricerId!, productName),
    enabled: pricerId !== null && productName !== '',
    staleTime: 0,
  });
}

/** Every contract's (or one customer's) value, moving with the market like the accounts. */
export function useContractValues(pricerId?: number) {
  const api = useCalls(marginDefaultsApi);
  return useQuery({
    queryKey: valueKeys.of(pricerId ?? 'all'),
    queryFn: () => api.contractValues(pricerId),
    refetchInterval: ACCOUNTS_REFRESH_MS,
  });
}
