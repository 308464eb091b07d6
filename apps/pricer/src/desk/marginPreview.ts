import type { PricerAccount, PricerContract } from '@pfp/contract';

/**
 * What a fixing will hold (docs/margin.md): (price + basis) × lots × multiplier × margin rate, the price
 * being the limit price or, for a market order, the reference (last) price; and the available margin
 * after it. Null when the contract holds no margin or a figure is missing.
 */
export function marginPreview(
  contract: Pick<PricerContract, 'basis' | 'multiplier' | 'margin_rate'> | undefined,
  account: Pick<PricerAccount, 'available'> | undefined,
  quantity: number | '',
  price: number | null,
): { margin: number; availableAfter: number } | null {
  const rate = contract?.margin_rate ?? 0;
  if (!contract || !account || !(rate > 0) || quantity === '' || !(quantity > 0) || price === null || !(price > 0))
    return null;
  const margin = Math.round((price + contract.basis) * quantity * (contract.multiplier ?? 1) * rate * 100) / 100;
  return { margin, availableAfter: Math.round((account.available - margin) * 100) / 100 };
}
