import {
  limitPriceProblem,
  ORDER_MESSAGES,
  orderProblem,
  type MarketEntry,
  type PriceRules,
  type PricerContract,
  type SubmitOrderInput,
} from '@pfp/contract';
import { z } from 'zod';

export type OrderType = 'market' | 'limit';

/** SPEC §3 order form (contract_id is the desk's selection). */
export interface OrderFormValues {
  quantity: number | '';
  price: number | '';
  orderType: OrderType;
}

export const EMPTY_ORDER_FORM: OrderFormValues = { quantity: '', price: '', orderType: 'limit' };

/** The instrument's price rules of the day: the snapshot's market entry, else the contract's tick alone. */
export function priceRulesOf(
  contract: Pick<PricerContract, 'price_tick'>,
  market: Partial<MarketEntry> | undefined,
): PriceRules {
  return {
    price_tick: market?.price_tick ?? contract.price_tick,
    upper_limit: market?.upper_limit ?? null,
    lower_limit: market?.lower_limit ?? null,
  };
}

const number = (v: number | '') => (v === '' ? NaN : v);

/**
 * The order form's schema for one contract: SPEC §5 "Submit order" (the contract's shared rules:
 * quantity an integer above 0, at most the remaining lots; a limit order needs a price above 0),
 * then what the exchange refuses of a limit price (off the tick grid, outside the day's limit
 * band), each message on its own field.
 */
export function orderSchema(
  contract: Pick<PricerContract, 'remaining_quantity'> | undefined,
  rules: PriceRules | null,
) {
  return z.custom<OrderFormValues>().superRefine((values, ctx) => {
    if (!contract) {
      ctx.addIssue({ code: 'custom', path: ['contract'], message: ORDER_MESSAGES.contract });
      return;
    }
    const quantity = orderProblem(
      { quantity: number(values.quantity), price: 0, orderType: 'market' },
      contract.remaining_quantity,
    );
    if (quantity) ctx.addIssue({ code: 'custom', path: ['quantity'], message: quantity.message });
    if (values.orderType !== 'limit') return;
    const price = orderProblem({ quantity: 1, price: number(values.price), orderType: 'limit' }, 1);
    const exchange = price === null && rules ? limitPriceProblem(Number(values.price), rules) : null;
    const message = price?.message ?? exchange;
    if (message) ctx.addIssue({ code: 'custom', path: ['price'], message });
  });
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
