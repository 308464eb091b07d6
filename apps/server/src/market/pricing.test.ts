import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanPrice, black76Price } from './pricing';

/** Cox–Ross–Rubinstein tree for an option on a future (the future is driftless under the measure). */
function binomial(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number, american: boolean) {
  const n = 800;
  const dt = T / n;
  const u = Math.exp(sigma * Math.sqrt(dt));
  const d = 1 / u;
  const p = (1 - d) / (u - d);
  const disc = Math.exp(-r * dt);
  const payoff = (s: number) => Math.max(0, isCall ? s - K : K - s);
  let values = Array.from({ length: n + 1 }, (_, i) => payoff(F * u ** (n - i) * d ** i));
  for (let step = n - 1; step >= 0; step--) {
    const next: number[] = [];
    for (let i = 0; i <= step; i++) {
      const hold = disc * (p * (values[i] as number) + (1 - p) * (values[i + 1] as number));
      next.push(american ? Math.max(hold, payoff(F * u ** (step - i) * d ** i)) : hold);
    }
    values = next;
  }
  return values[0] as number;
}

describe('black76Price', () => {
  it('matches a textbook value and put–call parity', () => {
    // Hull, Example 18.x style: F=20, K=20, T=4/12, r=9%, sigma=25% → put ≈ 1.1166
    expect(black76Price(20, 20, 4 / 12, 0.09, false, 0.25)).toBeCloseTo(1.1166, 3);
    fc.assert(
      fc.property(
        fc.double({ min: 50, max: 150, noNaN: true }),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 0.05, max: 0.8, noNaN: true }),
        (K, T, sigma) => {
          const c = black76Price(100, K, T, 0.02, true, sigma);
          const p = black76Price(100, K, T, 0.02, false, sigma);
          return Math.abs(c - p - (100 - K) * Math.exp(-0.02 * T)) < 1e-9;
        },
      ),
    );
  });

  it('agrees with a European tree', () => {
    expect(black76Price(3000, 3100, 0.25, 0.015, true, 0.2)).toBeCloseTo(
      binomial(3000, 3100, 0.25, 0.015, true, 0.2, false),
      0,
    );
  });
});

describe('americanPrice', () => {
  it('is at least the European price and the intrinsic value', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 40, max: 200, noNaN: true }),
        fc.double({ min: 0.005, max: 2, noNaN: true }),
        fc.double({ min: 0.03, max: 1, noNaN: true }),
        fc.boolean(),
        (K, T, sigma, isCall) => {
          const a = americanPrice(100, K, T, 0.03, isCall, sigma);
          const e = black76Price(100, K, T, 0.03, isCall, sigma);
          const intrinsic = Math.max(0, isCall ? 100 - K : K - 100);
          return Number.isFinite(a) && a >= e - 1e-9 && a >= intrinsic - 1e-9;
        },
      ),
    );
  });

  it('is close to an American binomial tree', () => {
    for (const [F, K, T, r, isCall, sigma] of [
      [100, 100, 0.5, 0.05, true, 0.2],
      [100, 120, 1, 0.08, false, 0.3],
      [100, 80, 1, 0.08, true, 0.3],
      [3000, 3200, 0.2, 0.015, false, 0.18],
      [86000, 90000, 0.1, 0.015, true, 0.17],
    ] as const) {
      const tree = binomial(F, K, T, r, isCall, sigma, true);
      expect(Math.abs(americanPrice(F, K, T, r, isCall, sigma) - tree), `${F} ${K} ${isCall}`).toBeLessThan(
        Math.max(0.01 * tree, 0.02),
      );
    }
  });
});
