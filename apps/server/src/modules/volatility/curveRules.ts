/**
 * When a quoted price says something about volatility, and what (docs/market.md, "Volatility curves").
 *
 * A price gives a point only if
 * - the book is two-sided (the half-spread h = (ask − bid)/2 is what the market is unsure of);
 * - its time value (price − intrinsic, the intrinsic discounted for European style) is at least
 *   MIN_TIME_VALUE_TICKS ticks and more than h: below that the price is the intrinsic value or the
 *   tick floor, and any σ would be made up;
 * - the market pins σ down: h is at most MAX_HALF_SPREAD_VOL of vega (where the tick is coarse
 *   against the option's vega, the bid and the ask are several vol points apart and the price
 *   cannot tell them apart), and for a last price, a trade at one side, MAX_LAST_HALF_SPREAD_VOL;
 * - for the last price: it comes from a trade whose time and futures price are known, and the future
 *   has not moved materially since (a move is material for an option once it shifts the option's
 *   value, at the last price's σ, by more than MATERIAL_MOVE·h);
 * - an implied vol exists (Black-76 for European style, the American model for American style).
 */
import type { CurveItem } from '@pfp/contract';
import { americanImpliedVol, americanPrice, black76ImpliedVol, black76Price } from '@pfp/quant';
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';

export type PriceType = CurveItem['price_type'];

export const MIN_TIME_VALUE_TICKS = 3;
/** The widest half-spread, in vol (× vega), of a price that still gives a point: 0.75 vol points. */
export const MAX_HALF_SPREAD_VOL = 0.0075;
/**
 * A last price is a trade at the bid or at the offer, so it knows σ only to within the half-spread:
 * neighbouring strikes that traded on opposite sides would bend the smile by four half-spreads. It
 * gives a point only where h is at most 0.35 vol points of vega.
 */
export const MAX_LAST_HALF_SPREAD_VOL = 0.0035;
/** A futures move is material for an option once it shifts the option's value by this much of h. */
export const MATERIAL_MOVE = 0.5;

/** The trade behind a last price: when, and the future's price then. */
export interface TradeMark {
  at: number;
  underlying: number;
}

export interface PricingContext {
  /** The futures price now, and the years to expiry and the rate. */
  F: number;
  T: number;
  rate: number;
}

const positive = (v: number | null | undefined): number | undefined => (v != null && v > 0 ? v : undefined);

/** Black-76 vega ∂price/∂σ (the American one is close enough to size a spread). */
function vega(c: PricingContext, K: number, sigma: number): number {
  const sd = sigma * Math.sqrt(c.T);
  const d1 = (Math.log(c.F / K) + (sd * sd) / 2) / sd;
  return (Math.exp(-c.rate * c.T - 0.5 * d1 * d1) / Math.sqrt(2 * Math.PI)) * c.F * Math.sqrt(c.T);
}

/** What the rules read of an option and of its quote (the smile fit sends no more to its worker, smileFit.ts). */
export type RuleOption = Pick<OptionSpec, 'optionType' | 'strike' | 'style' | 'tick'>;
export type RuleQuote = Pick<Quote, 'bid_price1' | 'ask_price1' | 'last_price'>;

function modelPrice(opt: RuleOption, F: number, c: PricingContext, sigma: number): number {
  const isCall = opt.optionType === 'CALL';
  return opt.style === 'A'
    ? americanPrice(F, opt.strike, c.T, c.rate, isCall, sigma)
    : black76Price(F, opt.strike, c.T, c.rate, isCall, sigma);
}

/** The implied vol of one price of an option, or undefined where the price carries no vol information. */
export function impliedPoint(
  opt: RuleOption,
  q: RuleQuote,
  p: PriceType,
  c: PricingContext,
  trade: TradeMark | undefined,
): number | undefined {
  const bid = positive(q.bid_price1);
  const ask = positive(q.ask_price1);
  if (bid === undefined || ask === undefined || !(c.T > 0) || !(c.F > 0)) return undefined;
  const price = p === 'bid' ? bid : p === 'ask' ? ask : p === 'mid' ? (bid + ask) / 2 : positive(q.last_price);
  if (price === undefined) return undefined;
  const half = (ask - bid) / 2;
  const isCall = opt.optionType === 'CALL';
  const payoff = Math.max(0, isCall ? c.F - opt.strike : opt.strike - c.F);
  const intrinsic = opt.style === 'E' ? payoff * Math.exp(-c.rate * c.T) : payoff;
  const timeValue = price - intrinsic;
  if (timeValue < MIN_TIME_VALUE_TICKS * opt.tick - 1e-9 || timeValue <= half) return undefined;
  if (p === 'last' && !trade) return undefined;
  const solve = opt.style === 'A' ? americanImpliedVol : black76ImpliedVol;
  const sigma = solve(price, c.F, opt.strike, c.T, c.rate, isCall);
  if (!Number.isFinite(sigma) || sigma <= 0) return undefined;
  const maxHalf = p === 'last' ? MAX_LAST_HALF_SPREAD_VOL : MAX_HALF_SPREAD_VOL;
  if (half > maxHalf * vega(c, opt.strike, sigma)) return undefined;
  if (p === 'last' && trade) {
    // What the option was worth, at this σ, with the future where it was at the trade.
    const drift = Math.abs(modelPrice(opt, trade.underlying, c, sigma) - modelPrice(opt, c.F, c, sigma));
    if (drift > MATERIAL_MOVE * half) return undefined;
  }
  return sigma;
}
