import { zh } from '@pfp/i18n';
import type { PricerContract, SubmitOrderInput } from '@pfp/contract';

const t = zh.pricer;

export type OrderType = 'market' | 'limit';

/** SPEC §3 order form (contract_id is the desk's selection). */
export interface OrderFormValues {
  quantity: number | '';
  price: number | '';
  orderType: OrderType;
}

export interface OrderFormError {
  field: 'contract' | 'quantity' | 'price';
  message: string;
}

export const EMPTY_ORDER_FORM: OrderFormValues = { quantity: '', price: '', orderType: 'limit' };

/**
 * SPEC §5 "Submit order", first failing rule: contract selected; quantity an integer above 0 and
 * not above the contract's remaining quantity; a limit order needs a price above 0.
 */
export function validateOrder(
  values: OrderFormValues,
  contract: Pick<PricerContract, 'id' | 'remaining_quantity'> | undefined,
): OrderFormError | null {
  if (!contract) return { field: 'contract', message: t.selectContract };
  const q = values.quantity;
  if (q === '' || !Number.isInteger(q) || q <= 0) return { field: 'quantity', message: t.invalidQuantity };
  if (q > contract.remaining_quantity) return { field: 'quantity', message: t.quantityExceedsRemaining };
  if (values.orderType === 'limit') {
    const p = values.price;
    if (p === '' || !Number.isFinite(p) || p <= 0) return { field: 'price', message: t.limitNeedsPrice };
  }
  return null;
}

/** The submit-order body: a market order is sent with price 0 (ARCHITECTURE §3 Orders). */
export function toOrderRequest(values: OrderFormValues, contractId: number): SubmitOrderInput {
  return {
    contract_id: contractId,
    quantity: Number(values.quantity),
    price: values.orderType === 'limit' ? Number(values.price) : 0,
  };
}

/** SPEC §4: choosing market clears the price. */
export function withOrderType(values: OrderFormValues, orderType: OrderType): OrderFormValues {
  return orderType === 'market' ? { ...values, orderType, price: '' } : { ...values, orderType };
}

/** A price on the instrument's tick grid (the exchange refuses others), without float noise. */
export function roundToTick(price: number, tick: number): number {
  if (!(tick > 0) || !Number.isFinite(price)) return price;
  const decimals = Math.min(6, Math.max(0, Math.ceil(-Math.log10(tick) - 1e-9)));
  return Number((Math.round(price / tick) * tick).toFixed(decimals));
}
