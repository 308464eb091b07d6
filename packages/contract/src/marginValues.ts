import { z } from 'zod';
import { id, text } from './primitives';
import { direction } from './entities';
import { marginRate } from './margin';

/**
 * Issue 41 (docs/margin.md): margin on by default — the company's rate per product and a customer's own
 * rate, resolved into a new contract's rate — and the value of every contract and customer.
 */

/** A new company's default margin rate (issue 41): margin on, 10 % of the goods value. */
export const NEW_COMPANY_MARGIN_RATE = 0.1;

/** A company's rate for one product (品种), over its default. */
export const productMarginRate = z.object({
  product_name: text('请选择品种').trim().min(1, { error: '请选择品种' }).max(100),
  margin_rate: marginRate,
});
export type ProductMarginRate = z.input<typeof productMarginRate>;

/** Where a contract's rate comes from: its own, the customer's, the product's, the company's. */
export const MARGIN_RATE_SOURCES = ['contract', 'customer', 'product', 'company'] as const;
export type MarginRateSource = (typeof MARGIN_RATE_SOURCES)[number];

/** The rate a new contract of this customer and product gets when the form leaves it as it is. */
export const effectiveMarginRateInput = z.object(
  { pricer_id: id('请选择客户'), product_name: productMarginRate.shape.product_name },
  { error: '请求参数必须是 JSON 对象' },
);
export type EffectiveMarginRateInput = z.input<typeof effectiveMarginRateInput>;
export const effectiveMarginRate = z.object({
  margin_rate: z.number(),
  source: z.enum(MARGIN_RATE_SOURCES),
});
export type EffectiveMarginRate = z.input<typeof effectiveMarginRate>;

/** contract-values: one customer's (pricer_id) or every customer's. */
export const contractValuesRequest = z
  .object({ pricer_id: id('请选择客户').optional() }, { error: '请求参数必须是 JSON 对象' })
  .optional()
  .default({});
export type ContractValuesRequest = z.input<typeof contractValuesRequest>;

/**
 * What a contract's fixed, not yet settled lots are worth (元, prices in 元 per unit): at their fixed
 * price (average futures fill + basis) and at the live futures price + basis. Floating P/L: a buyer gains
 * (market − fixed futures) × lots × multiplier, a seller the opposite. Null market figures: no live price.
 */
export const contractValue = z.object({
  contract_id: z.int(),
  contract_name: z.string(),
  pricer_id: z.int(),
  pricer_name: z.string(),
  product_name: z.string(),
  instrument_id: z.string(),
  direction,
  margin_rate: z.number(),
  multiplier: z.int(),
  unit: z.string().nullable(),
  /** Fixed, not yet settled lots, and what they count in the unit (lots × multiplier). */
  open_lots: z.int(),
  open_quantity: z.number(),
  basis: z.number(),
  /** Average futures fill price and + basis; null before the first fill. */
  fixed_futures_price: z.number().nullable(),
  fixed_price: z.number().nullable(),
  /** Live futures price and + basis. */
  market_futures_price: z.number().nullable(),
  market_price: z.number().nullable(),
  /** fixed_price × lots × multiplier, market_price × lots × multiplier. */
  fixed_value: z.number(),
  market_value: z.number().nullable(),
  /** Floating P/L per unit (元/吨 …) and in all (元). */
  pnl_per_unit: z.number().nullable(),
  floating_pnl: z.number().nullable(),
});
export type ContractValue = z.input<typeof contractValue>;

/** A customer's contracts summed (contracts without a live price count at their fixed value, P/L 0). */
export const customerValue = z.object({
  pricer_id: z.int(),
  pricer_name: z.string(),
  open_lots: z.int(),
  fixed_value: z.number(),
  market_value: z.number(),
  floating_pnl: z.number(),
  /** Contracts with open lots but no live price. */
  unpriced_contracts: z.int(),
});
export type CustomerValue = z.input<typeof customerValue>;

export const contractValues = z.object({ items: z.array(contractValue), customers: z.array(customerValue) });
export type ContractValues = z.input<typeof contractValues>;

const fen = (v: number) => Math.round(v * 100) / 100;

/** What valueFigures needs of a contract: its side, its open fixed lots and their terms. */
export interface ValueTerms {
  direction: 'BUY' | 'SELL';
  /** Fixed, not yet settled lots. */
  open_lots: number;
  multiplier: number;
  basis: number;
  /** Average futures fill price; 0 before the first fill. */
  avg_price: number;
}

/**
 * A contract's value (docs/margin.md "Value"), one definition for the server's contract-values and the
 * desk (which marks it with every quote it receives): `live` is the live futures price (null: unknown).
 */
export function valueFigures(c: ValueTerms, live: number | null) {
  const fixedFutures = c.avg_price > 0 ? c.avg_price : null;
  const market = live !== null && live > 0 ? live : null;
  const side = c.direction === 'BUY' ? 1 : -1;
  const move = market !== null && fixedFutures !== null ? side * (market - fixedFutures) : null;
  const units = c.open_lots * c.multiplier;
  return {
    open_quantity: units,
    fixed_futures_price: fixedFutures,
    fixed_price: fixedFutures === null ? null : fen(fixedFutures + c.basis),
    market_futures_price: market,
    market_price: market === null ? null : fen(market + c.basis),
    fixed_value: fixedFutures === null ? 0 : fen((fixedFutures + c.basis) * units),
    market_value: market === null ? null : fen((market + c.basis) * units),
    pnl_per_unit: move === null ? null : fen(move),
    floating_pnl: c.open_lots === 0 ? 0 : move === null ? null : fen(move * units),
  };
}
