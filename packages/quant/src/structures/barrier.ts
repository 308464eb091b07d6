/**
 * Barrier option on a futures price observed at each trading day's close (discrete monitoring, exact: see
 * lattice.ts). The option pays at the last observation (its expiry); a rebate, if any, is paid then too — when the
 * barrier was touched (knock-out) or never touched (knock-in) — so every payment is discounted from the last day.
 *
 * Knock-out is priced directly; knock-in as the vanilla minus the knock-out with the rebate folded in:
 * In(R) = Vanilla + E[(R − payoff)·1{never touched}], one lattice run either way.
 */
import { vanilla } from './vanilla.js';
import { black76Price } from '../black76.js';
import { gridStep, monitoredGreeks, monitoredValue, piecewise, type Monitored } from './lattice.js';
import { priceOnly, type Valuation } from './greeks.js';

export interface BarrierTerms {
  F: number;
  K: number;
  isCall: boolean;
  sigma: number;
  r: number;
  /** Barrier level, observed at each of `times` (years, increasing, > 0); the last is the expiry. */
  barrier: number;
  /** 'up' barriers sit above today's price, 'down' below. */
  direction: 'up' | 'down';
  knock: 'in' | 'out';
  rebate?: number;
  times: readonly number[];
}

/** The price alone (no Greeks). */
export function barrierPrice(terms: BarrierTerms): number {
  return barrierOption(terms, false).price;
}

export function barrierOption(terms: BarrierTerms, greeks = true): Valuation {
  const { F, K, isCall, sigma, r, barrier, direction, knock, times } = terms;
  const rebate = terms.rebate ?? 0;
  const n = times.length;
  const T = times[n - 1]!;
  const df = Math.exp(-r * T);
  const up = direction === 'up';
  const alive = (x: number) => (up ? x < barrier : x > barrier);
  const payoffCoef = (x: number): [number, number] => {
    if (isCall) return x > K ? [-K, 1] : [0, 0];
    return x < K ? [K, -1] : [0, 0];
  };
  const levels = [K, barrier];
  // Knock-out: the rebate on touching, the payoff at expiry while alive.
  const outPay = (i: number) =>
    piecewise(levels, (x) => {
      if (!alive(x)) return [rebate * df, 0];
      if (i < n - 1) return [0, 0];
      const [a, b] = payoffCoef(x);
      return [a * df, b * df];
    });
  // Knock-in: (R − payoff) at expiry while never touched; nothing on touching (the vanilla carries the payoff).
  const inPay = (i: number) =>
    piecewise(levels, (x) => {
      if (!alive(x) || i < n - 1) return [0, 0];
      const [a, b] = payoffCoef(x);
      return [(rebate - a) * df, -b * df];
    });
  const shapes = Array.from({ length: n }, (_, i) => (knock === 'out' ? outPay(i) : inPay(i)));
  const spec: Monitored = { F, sigma, times, barrier, up, payment: (i) => shapes[i]! };
  const g = greeks ? monitoredGreeks(spec, r) : priceOnly(monitoredValue(spec, gridStep(sigma, times)).value);
  if (knock === 'out') return g;
  const v = greeks ? vanilla(F, K, T, r, isCall, sigma) : priceOnly(black76Price(F, K, T, r, isCall, sigma));
  return {
    price: v.price + g.price,
    delta: v.delta + g.delta,
    gamma: v.gamma + g.gamma,
    vega: v.vega + g.vega,
    theta: v.theta + g.theta,
  };
}
