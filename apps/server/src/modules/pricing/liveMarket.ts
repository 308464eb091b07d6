import { black76ImpliedVol, daysBetween } from '@pfp/quant';
import type { AppContext } from '../context';

/** The rate of the live market: the volatility curves' (curves.ts). */
export const LIVE_RATE = 0.015;

const positive = (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

/** A quote's price for an implied volatility: the mid of a two-sided book, else the last price. */
export function optionPrice(q: { bid_price1: number | null; ask_price1: number | null; last_price: number }) {
  const bid = positive(q.bid_price1);
  const ask = positive(q.ask_price1);
  return bid && ask ? (bid + ask) / 2 : positive(q.last_price);
}

/**
 * The chain's at-the-money implied volatility: the nearest unexpired expiry, the strike nearest the future, the
 * average of its call's and put's Black-76 volatilities (whichever have a price). The fallback when no chain of
 * the product has enough quotes to fit a smile (docs/smile.md); undefined when the chain has no priced option.
 */
export function atmVol(
  ctx: Pick<AppContext, 'optionMarket'>,
  future: string,
  forward: number,
  today: string,
): { vol: number; strike: number; expiry: string } | undefined {
  const chain = ctx.optionMarket?.optionChain(future).filter((o) => daysBetween(today, o.expiry) >= 0) ?? [];
  if (chain.length === 0) return undefined;
  const expiry = chain.reduce((a, o) => (o.expiry < a ? o.expiry : a), chain[0]!.expiry);
  const listed = chain.filter((o) => o.expiry === expiry);
  const strike = listed.reduce(
    (a, o) => (Math.abs(o.strike - forward) < Math.abs(a - forward) ? o.strike : a),
    listed[0]!.strike,
  );
  const T = Math.max(daysBetween(today, expiry), 1) / 365;
  const vols: number[] = [];
  for (const o of listed.filter((x) => x.strike === strike)) {
    const q = ctx.optionMarket!.getQuote(o.symbol);
    const price = q && optionPrice(q);
    if (!price) continue;
    const v = black76ImpliedVol(price, forward, strike, T, LIVE_RATE, o.optionType === 'CALL');
    if (v > 0 && Number.isFinite(v)) vols.push(v);
  }
  if (vols.length === 0) return undefined;
  return { vol: vols.reduce((a, b) => a + b, 0) / vols.length, strike, expiry };
}
