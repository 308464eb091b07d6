import { americanPrice, black76Price } from '@pfp/quant';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../platform/quote';
import type { OptionSpec } from '../../market/types';
import {
  impliedPoint,
  MAX_HALF_SPREAD_VOL,
  MAX_LAST_HALF_SPREAD_VOL,
  MIN_TIME_VALUE_TICKS,
  type TradeMark,
} from './curveRules';

const F = 80_000;
const T = 0.25;
const RATE = 0.015;
const SIGMA = 0.2;
const TICK = 2;
const ctx = { F, T, rate: RATE };

function option(strike: number, type: 'CALL' | 'PUT', style: 'E' | 'A' = 'E'): OptionSpec {
  const sym = `SHFE.cu2703${type[0]}${strike}`;
  return {
    kind: 'option',
    symbol: sym,
    exchange: 'SHFE',
    instrumentId: sym.slice(5),
    productId: 'cu',
    name: sym,
    tick: TICK,
    multiplier: 5,
    expiry: '2027-02-23',
    expiryMs: 0,
    underlying: 'SHFE.cu2703',
    optionType: type,
    strike,
    style,
  };
}

/** A quote `half` either side of the option's value at σ, on the tick grid. */
function quoteAround(o: OptionSpec, half: number, sigma = SIGMA, last?: number): Quote {
  const price = o.style === 'E' ? black76Price : americanPrice;
  const v = price(F, o.strike, T, RATE, o.optionType === 'CALL', sigma);
  const bid = Math.floor((v - half) / TICK) * TICK;
  const ask = Math.ceil((v + half) / TICK) * TICK;
  return {
    symbol: o.symbol,
    last_price: last ?? ask,
    bid_price1: bid > 0 ? bid : null,
    ask_price1: ask,
    bid_volume1: 1,
    ask_volume1: 1,
    volume: 10,
    open_interest: 100,
    upper_limit: 1e9,
    lower_limit: TICK,
    pre_settlement: v,
    datetime: '2026-11-23 10:00:00.000000',
  };
}

const vegaOf = (K: number) => {
  const d1 = (Math.log(F / K) + (SIGMA * SIGMA * T) / 2) / (SIGMA * Math.sqrt(T));
  return (Math.exp(-RATE * T - (d1 * d1) / 2) / Math.sqrt(2 * Math.PI)) * F * Math.sqrt(T);
};
const here: TradeMark = { at: 0, underlying: F };

describe('impliedPoint: a point only where the price carries vol information', () => {
  it('gives the σ of a liquid quote, within its half-spread', () => {
    for (const style of ['E', 'A'] as const) {
      for (const type of ['CALL', 'PUT'] as const) {
        const o = option(80_000, type, style);
        const half = 0.2 * 0.01 * vegaOf(80_000); // 0.2 vol points
        const q = quoteAround(o, half);
        const mid = impliedPoint(o, q, 'mid', ctx, undefined)!;
        expect(Math.abs(mid - SIGMA)).toBeLessThan(0.003);
        expect(impliedPoint(o, q, 'bid', ctx, undefined)!).toBeLessThan(mid);
        expect(impliedPoint(o, q, 'ask', ctx, undefined)!).toBeGreaterThan(mid);
        expect(impliedPoint(o, q, 'last', ctx, here)).toBe(impliedPoint(o, q, 'ask', ctx, undefined));
      }
    }
  });

  it('gives no point at the tick floor: no bid, one tick offered', () => {
    const o = option(130_000, 'CALL');
    const q: Quote = { ...quoteAround(o, 1), bid_price1: null, ask_price1: TICK, last_price: TICK };
    for (const p of ['ask', 'bid', 'mid', 'last'] as const) expect(impliedPoint(o, q, p, ctx, here)).toBeUndefined();
  });

  it(`needs ${MIN_TIME_VALUE_TICKS} ticks of time value, and more than the half-spread`, () => {
    // A far put: worth a few ticks only.
    const far = option(58_000, 'PUT');
    const cheap: Quote = { ...quoteAround(far, 1), bid_price1: 2 * TICK, ask_price1: 3 * TICK, last_price: 2 * TICK };
    expect(impliedPoint(far, cheap, 'bid', ctx, undefined)).toBeUndefined();
    expect(impliedPoint(far, cheap, 'mid', ctx, undefined)).toBeUndefined();
    expect(impliedPoint(far, cheap, 'ask', ctx, undefined)).toBeDefined();
    // Deep in the money: the price is the (discounted) intrinsic value plus less than the half-spread.
    const deep = option(60_000, 'CALL');
    const intrinsic = (F - 60_000) * Math.exp(-RATE * T);
    const wide: Quote = {
      ...quoteAround(deep, 1),
      bid_price1: Math.floor(intrinsic / TICK) * TICK - 10 * TICK,
      ask_price1: Math.ceil(intrinsic / TICK) * TICK + 10 * TICK,
    };
    expect(impliedPoint(deep, wide, 'mid', ctx, undefined)).toBeUndefined();
  });

  it(`needs a spread of at most ${MAX_HALF_SPREAD_VOL * 100} vol points of vega each side`, () => {
    const o = option(84_000, 'CALL');
    const v = vegaOf(84_000) * 0.01; // value of one vol point
    expect(impliedPoint(o, quoteAround(o, 0.5 * v), 'mid', ctx, undefined)).toBeDefined();
    expect(impliedPoint(o, quoteAround(o, 1.5 * v), 'mid', ctx, undefined)).toBeUndefined();
  });

  it(`takes a last price, a trade at one side, only where the half-spread is at most ${MAX_LAST_HALF_SPREAD_VOL * 100} vol points`, () => {
    // Trades at the bid and the offer of neighbouring strikes would zig-zag the smile by the spread.
    const o = option(84_000, 'CALL');
    const v = vegaOf(84_000) * 0.01;
    const narrow = quoteAround(o, 0.3 * v);
    const wide = quoteAround(o, 0.6 * v);
    expect(impliedPoint(o, narrow, 'last', ctx, here)).toBeDefined();
    expect(impliedPoint(o, wide, 'mid', ctx, undefined)).toBeDefined();
    expect(impliedPoint(o, wide, 'last', ctx, here)).toBeUndefined();
  });

  it('takes a last price only from a known trade after which the future did not move materially', () => {
    const o = option(80_000, 'CALL');
    const q = quoteAround(o, 0.3 * 0.01 * vegaOf(80_000));
    const half = (q.ask_price1! - q.bid_price1!) / 2;
    // The option's delta is about ½: the future moving by h/2 moves it by about h/4; by 2h, about h.
    expect(impliedPoint(o, q, 'last', ctx, undefined)).toBeUndefined();
    expect(impliedPoint(o, q, 'last', ctx, { at: 0, underlying: F + half / 2 })).toBeDefined();
    expect(impliedPoint(o, q, 'last', ctx, { at: 0, underlying: F - 2 * half })).toBeUndefined();
    // A deep in-the-money call moves one for one with the future: a much smaller move is material.
    const deep = option(70_000, 'CALL');
    const dq = quoteAround(deep, 0.3 * 0.01 * vegaOf(70_000));
    const dh = (dq.ask_price1! - dq.bid_price1!) / 2;
    expect(impliedPoint(deep, dq, 'last', ctx, here)).toBeDefined();
    expect(impliedPoint(deep, dq, 'last', ctx, { at: 0, underlying: F + dh })).toBeUndefined();
  });

  it('gives no point without a σ', () => {
    const o = option(80_000, 'CALL');
    // Below the European lower bound: no σ prices it.
    const q: Quote = { ...quoteAround(o, 10), bid_price1: 10, ask_price1: 20, last_price: 20 };
    expect(impliedPoint(o, q, 'mid', { ...ctx, F: 90_000 }, undefined)).toBeUndefined();
    expect(impliedPoint(o, q, 'mid', { ...ctx, T: 0 }, undefined)).toBeUndefined();
  });
});
