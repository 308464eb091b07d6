import type { PriceStructureInput } from '@pfp/contract';
import { useMutation } from '@tanstack/react-query';
import type { TraderTransport } from './call';
import { useCalls } from './context';
import { traderKeys } from './keys';

/** 含权报价 (issue 44, docs/pricing.md): pricing changes nothing, so nothing is invalidated. */
const pricingKeys = traderKeys('pricing');

export function pricingApi({ call }: TraderTransport) {
  return { priceStructure: (input: PriceStructureInput) => call('priceStructure', input) };
}

/** One price (or zero-cost strike) per click; the answer stays until the next. */
export function usePriceStructure() {
  const api = useCalls(pricingApi);
  return useMutation({ mutationKey: pricingKeys.of('price'), mutationFn: api.priceStructure });
}
