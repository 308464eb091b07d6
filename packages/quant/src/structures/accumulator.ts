/**
 * Accumulator on a futures price (累购 buy / 累沽 sell), observed and cash-settled at each trading day's close while
 * alive; quantity q a day, strike K, knock-out H, leverage L ≥ 1. Per observation i:
 *   累购 (H > K): F_i ≥ H pays q(H − K) and ends the structure; K ≤ F_i < H pays q(F_i − K); F_i < K pays L·q(F_i − K);
 *   累沽 (H < K): F_i ≤ H pays q(K − H) and ends; H < F_i ≤ K pays q(K − F_i); F_i > K pays L·q(K − F_i).
 * Each payment is discounted from its own day. Priced exactly under discrete monitoring (lattice.ts); the value is in
 * 元 for the whole structure (q in units of the future a day).
 */
import { monitoredGreeks, monitoredValue, gridStep, piecewise, type Monitored } from './lattice.js';
import type { Valuation } from './greeks.js';

export interface AccumulatorTerms {
  F: number;
  sigma: number;
  r: number;
  side: 'buy' | 'sell';
  K: number;
  /** Knock-out level: above K for 累购, below K for 累沽. */
  barrier: number;
  leverage: number;
  quantityPerDay: number;
  /** Observation (and settlement) times in years, increasing, > 0. */
  times: readonly number[];
}

function spec(terms: AccumulatorTerms): Monitored {
  const { F, sigma, r, side, K, barrier: H, leverage: L, quantityPerDay: q, times } = terms;
  const buy = side === 'buy';
  const shape = piecewise([K, H], (x) => {
    if (buy) {
      if (x >= H) return [q * (H - K), 0];
      if (x >= K) return [-q * K, q];
      return [-L * q * K, L * q];
    }
    if (x <= H) return [q * (K - H), 0];
    if (x <= K) return [q * K, -q];
    return [L * q * K, -L * q];
  });
  const shapes = times.map((t) => {
    const df = Math.exp(-r * t);
    return { breaks: shape.breaks, a: shape.a.map((v) => v * df), b: shape.b.map((v) => v * df) };
  });
  return { F, sigma, times, barrier: H, up: buy, payment: (i) => shapes[i]! };
}

/** The price alone (no Greeks). */
export function accumulatorPrice(terms: AccumulatorTerms): number {
  if (terms.times.length === 0) return 0;
  return monitoredValue(spec(terms), gridStep(terms.sigma, terms.times)).value;
}

export function accumulator(terms: AccumulatorTerms): Valuation {
  if (terms.times.length === 0) return { price: 0, delta: 0, gamma: 0, vega: 0, theta: 0 };
  return monitoredGreeks(spec(terms), terms.r);
}

/**
 * The strike that makes the accumulator cost nothing today (the desk's 零成本 strike), between the knock-out level
 * and zero (累购) or above the knock-out level (累沽). The value is monotone in K (decreasing for 累购), and smooth: the
 * grid does not move with K, so a secant step with a bisection guard converges in a few evaluations. NaN if no strike
 * on that side of the barrier gives zero.
 */
export function zeroCostStrike(terms: Omit<AccumulatorTerms, 'K'>): number {
  if (terms.times.length === 0) return NaN;
  const h = gridStep(terms.sigma, terms.times);
  const value = (K: number) => monitoredValue(spec({ ...terms, K }), h).value;
  const H = terms.barrier;
  const buy = terms.side === 'buy';
  // Bracket: at K = H the buyer's side is worth ≥ 0 (累购) and at a low enough K it is positive; the seller's mirror.
  let a = buy ? Math.min(H, terms.F) * 1e-3 : H;
  let b = buy ? H : Math.max(H, terms.F) * 1e3;
  let fa = value(a);
  let fb = value(b);
  if (!(fa * fb <= 0)) return NaN;
  // Illinois regula falsi: secant steps that always keep the root bracketed.
  const tol = 1e-12 * terms.quantityPerDay * terms.F * terms.times.length;
  for (let it = 0; it < 100 && Math.abs(b - a) > 1e-12 * H; it++) {
    const c = b - (fb * (b - a)) / (fb - fa);
    const fc = value(c);
    if (Math.abs(fc) <= tol) return c;
    if (fc * fb < 0) {
      a = b;
      fa = fb;
    } else fa *= 0.5;
    b = c;
    fb = fc;
  }
  return Math.abs(fa) < Math.abs(fb) ? a : b;
}
