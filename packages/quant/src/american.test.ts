import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanRows, quotable } from '../reference/table.js';
import { aloPremium, makeScheme } from './alo.js';
import { americanImpliedVol, americanPrice } from './american.js';
import { black76ImpliedVol, black76Price } from './black76.js';

const relErr = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const quotableRows = americanRows.filter(quotable);

/** Cox–Ross–Rubinstein tree for an American option on a futures (drift 0): a second, slow reference. */
function crr(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number, steps = 2000): number {
  const dt = T / steps;
  const u = Math.exp(sigma * Math.sqrt(dt));
  const p = (1 - 1 / u) / (u - 1 / u);
  const disc = Math.exp(-r * dt);
  const v = new Float64Array(steps + 1);
  const payoff = (S: number) => Math.max(isCall ? S - K : K - S, 0);
  for (let i = 0; i <= steps; i++) v[i] = payoff(F * Math.pow(u, steps - 2 * i));
  for (let j = steps - 1; j >= 0; j--) {
    for (let i = 0; i <= j; i++) {
      v[i] = Math.max(disc * (p * v[i]! + (1 - p) * v[i + 1]!), payoff(F * Math.pow(u, j - 2 * i)));
    }
  }
  return v[0]!;
}

const grid = fc.record({
  m: fc.double({ min: -1.5, max: 1.5, noNaN: true }), // ln(K/F)
  sigma: fc.double({ min: 0.01, max: 3, noNaN: true }),
  T: fc.double({ min: 1 / 365, max: 3, noNaN: true }),
  r: fc.double({ min: 0, max: 0.1, noNaN: true }),
  F: fc.double({ min: 1, max: 10000, noNaN: true }),
  isCall: fc.boolean(),
});

describe('the QuantLib reference table', () => {
  it('covers the quotable domain with calls and puts', () => {
    expect(americanRows.length).toBeGreaterThan(1000);
    expect(quotableRows.length).toBeGreaterThan(800);
    expect(quotableRows.some((row) => row.call)).toBe(true);
    expect(quotableRows.some((row) => !row.call)).toBe(true);
    expect(quotableRows.some((row) => row.r === 0)).toBe(true);
  });
});

describe('americanPrice (Andersen–Lake–Offengenden, b = 0)', () => {
  it('matches QuantLib QdFpAmericanEngine (high precision) to 1e-6·K on every row', () => {
    for (const { F, K, T, r, sigma, call, price } of americanRows) {
      expect(Math.abs(americanPrice(F, K, T, r, call, sigma) - price)).toBeLessThan(1e-6 * K);
    }
  });

  it('prices quotable rows within 2e-6 volatility points of QuantLib (price error / vega)', () => {
    for (const { F, K, T, r, sigma, call, price } of quotableRows) {
      const h = 1e-4 * sigma;
      const vega = (americanPrice(F, K, T, r, call, sigma + h) - americanPrice(F, K, T, r, call, sigma - h)) / (2 * h);
      expect(Math.abs(americanPrice(F, K, T, r, call, sigma) - price) / vega).toBeLessThan(2e-6);
    }
  });

  it('solves the boundary directly (outside the table) as accurately, to 1e-5 volatility points', () => {
    const scheme = makeScheme(6, 8, 2, 16);
    for (const { F, K, T, r, sigma, call, price } of quotableRows) {
      if (!(r > 0)) continue;
      const strike = call ? F : K;
      const direct = (vol: number) => {
        const e = aloPremium(scheme, (call ? K : F) / strike, T, r, vol);
        return e < 0 ? Math.max(call ? F - K : K - F, 0) : black76Price(F, K, T, r, call, vol) + strike * e;
      };
      const vega = (direct(sigma * 1.0001) - direct(sigma * 0.9999)) / (2e-4 * sigma);
      expect(Math.abs(direct(sigma) - price) / vega).toBeLessThan(1e-5);
    }
  });

  it('equals the European price when r = 0, as QuantLib does', () => {
    const rows = americanRows.filter((row) => row.r === 0);
    expect(rows.length).toBeGreaterThan(20);
    for (const { F, K, T, r, sigma, call, price, european } of rows) {
      expect(americanPrice(F, K, T, r, call, sigma)).toBe(black76Price(F, K, T, r, call, sigma));
      expect(Math.abs(price - european)).toBeLessThan(1e-12 * K);
    }
  });

  it('is close to a binomial tree (2,000 steps, itself within ~1e-4)', () => {
    for (const [F, K, T, r, isCall, sigma] of [
      [100, 100, 1, 0.05, true, 0.2],
      [100, 120, 0.5, 0.08, false, 0.3],
      [3000, 2800, 0.25, 0.03, true, 0.25],
      [100, 90, 2, 0.06, false, 0.35],
      [100, 130, 1, 0.05, false, 0.3],
    ] as const) {
      expect(relErr(americanPrice(F, K, T, r, isCall, sigma), crr(F, K, T, r, isCall, sigma))).toBeLessThan(3e-4);
    }
  });

  it('lies between max(European, intrinsic) and the upper bound F (call) / K (put)', () => {
    fc.assert(
      fc.property(grid, ({ m, sigma, T, r, F, isCall }) => {
        const K = F * Math.exp(m);
        const a = americanPrice(F, K, T, r, isCall, sigma);
        const e = black76Price(F, K, T, r, isCall, sigma);
        expect(a).toBeGreaterThanOrEqual(e);
        expect(a).toBeGreaterThanOrEqual(Math.max(isCall ? F - K : K - F, 0));
        expect(a).toBeLessThanOrEqual(isCall ? F : K);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('is increasing in σ', () => {
    fc.assert(
      fc.property(grid, ({ m, sigma, T, r, F, isCall }) => {
        const K = F * Math.exp(m);
        const a = americanPrice(F, K, T, r, isCall, sigma);
        expect(americanPrice(F, K, T, r, isCall, sigma * 1.01)).toBeGreaterThanOrEqual(a);
      }),
      { numRuns: 1000, seed: 12 },
    );
  });

  it('equals the intrinsic value for deep in-the-money short-dated options', () => {
    expect(americanPrice(3000, 2500, 0.1, 0.03, true, 0.15)).toBe(500);
    expect(americanPrice(100, 150, 1 / 365, 0.05, false, 0.2)).toBe(50);
    expect(americanPrice(100, 60, 7 / 365, 0.05, true, 0.3)).toBe(40);
  });

  it('converges to the European price as r → 0 and equals it for r ≤ 0', () => {
    const args = [100, 120, 1] as const;
    let previous = Infinity;
    for (const r of [1e-2, 1e-4, 1e-6, 1e-8]) {
      const gap = americanPrice(...args, r, false, 0.2) - black76Price(...args, r, false, 0.2);
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThan(previous);
      expect(gap).toBeLessThan(50 * r);
      previous = gap;
    }
    expect(americanPrice(...args, 0, false, 0.2)).toBe(black76Price(...args, 0, false, 0.2));
    expect(americanPrice(...args, -0.01, true, 0.2)).toBe(black76Price(...args, -0.01, true, 0.2));
  });

  it('returns the intrinsic value for σ = 0 or T = 0 and NaN for invalid input', () => {
    expect(americanPrice(120, 100, 1, 0.05, true, 0)).toBe(20);
    expect(americanPrice(80, 100, 0, 0.05, false, 0.3)).toBe(20);
    expect(americanPrice(NaN, 100, 1, 0.05, true, 0.2)).toBeNaN();
    expect(americanPrice(100, 0, 1, 0.05, true, 0.2)).toBeNaN();
    expect(americanPrice(100, 100, -1, 0.05, true, 0.2)).toBeNaN();
    expect(americanPrice(100, 100, 1, 0.05, true, -0.2)).toBeNaN();
    expect(americanPrice(100, 100, 1, Infinity, true, 0.2)).toBeNaN();
  });
});

describe('americanImpliedVol', () => {
  it('recovers QuantLib’s volatility within 1e-5 from its price on every quotable row', () => {
    for (const { F, K, T, r, sigma, call, price } of quotableRows) {
      expect(Math.abs(americanImpliedVol(price, F, K, T, r, call) - sigma)).toBeLessThan(1e-5);
    }
  });

  it('inverts americanPrice to 1e-7 (relative) where the price is sensitive to σ', () => {
    fc.assert(
      fc.property(grid, ({ m, sigma, T, r, F, isCall }) => {
        const K = F * Math.exp(m);
        const price = americanPrice(F, K, T, r, isCall, sigma);
        const intrinsic = Math.max(isCall ? F - K : K - F, 0);
        const iv = americanImpliedVol(price, F, K, T, r, isCall);
        if (price === intrinsic) {
          expect(iv).toBe(0);
          return;
        }
        if (!(price - intrinsic >= 1e-300)) return; // the time value underflowed
        // σ itself where d ln(price)/d ln(σ) ≥ 1e-2 (finite difference), i.e. the price determines σ well.
        const sensitivity = (americanPrice(F, K, T, r, isCall, sigma * (1 + 1e-6)) - price) / (1e-6 * price);
        if (sensitivity >= 1e-2) expect(relErr(iv, sigma)).toBeLessThan(1e-7);
      }),
      { numRuns: 3000, seed: 2024 },
    );
  });

  it('returns exactly 0 when the price equals the intrinsic value', () => {
    expect(americanImpliedVol(20, 120, 100, 1, 0.05, true)).toBe(0);
    expect(americanImpliedVol(20, 80, 100, 1, 0.05, false)).toBe(0);
    expect(americanImpliedVol(0, 80, 100, 1, 0.05, true)).toBe(0);
  });

  it('returns NaN below the intrinsic value and at or above F (call) / K (put)', () => {
    expect(americanImpliedVol(19.99, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(19.99, 80, 100, 1, 0.05, false)).toBeNaN();
    expect(americanImpliedVol(120, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(121, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(100, 80, 100, 1, 0.05, false)).toBeNaN();
  });

  it('returns NaN for T ≤ 0, non-finite or negative input and non-positive F or K', () => {
    expect(americanImpliedVol(5, 100, 100, 0, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(5, 100, 100, -1, 0.05, true)).toBeNaN();
    const ok: [number, number, number, number, number] = [5, 100, 100, 1, 0.05];
    for (let i = 0; i < ok.length; i++) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        const [p, F, K, T, r] = ok.map((v, j) => (j === i ? bad : v)) as typeof ok;
        expect(americanImpliedVol(p, F, K, T, r, false)).toBeNaN();
      }
    }
    expect(americanImpliedVol(-1, 100, 100, 1, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(5, 0, 100, 1, 0.05, true)).toBeNaN();
    expect(americanImpliedVol(5, 100, -100, 1, 0.05, true)).toBeNaN();
  });

  it('recovers σ for deep in-the-money options with early-exercise value', () => {
    const price = americanPrice(100, 140, 1, 0.08, false, 0.35);
    expect(price).toBeGreaterThan(40);
    expect(relErr(americanImpliedVol(price, 100, 140, 1, 0.08, false), 0.35)).toBeLessThan(1e-7);
  });

  it('equals the European implied volatility for r = 0', () => {
    const p = black76Price(100, 110, 0.5, 0, true, 0.27);
    expect(americanImpliedVol(p, 100, 110, 0.5, 0, true)).toBe(black76ImpliedVol(p, 100, 110, 0.5, 0, true));
  });
});
