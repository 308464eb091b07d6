import type { PricerAccount, PricerContract } from '@pfp/contract';
import type { FixRequest } from './fixPreview';

/**
 * What a fixing will hold (docs/margin.md): max(price + basis, 0) × lots × multiplier × margin rate, the
 * price being the limit price or, for a market order, the reference (last) price; and the available
 * margin after it. Null when the contract holds no margin or a figure is missing.
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
  const margin =
    Math.round(Math.max(price + contract.basis, 0) * quantity * (contract.multiplier ?? 1) * rate * 100) / 100;
  return { margin, availableAfter: Math.round((account.available - margin) * 100) / 100 };
}

/**
 * The price the server holds a fix's margin at (modules/margin/check.ts): the limit price; for a 条件单 its
 * order price, or when it sends a market order the worse of its trigger and the last price; for a market
 * order the last price.
 */
export function marginPrice(request: FixRequest, last: number | null | undefined): number | null {
  const live = typeof last === 'number' && last > 0 ? last : null;
  if (request.kind === 'limit') return request.price;
  if (request.kind === 'conditional') return request.orderPrice || Math.max(request.triggerPrice, live ?? 0);
  return live;
}
