import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { europeanRows } from '../reference/table.js';
import { black76ImpliedVol, black76Price, internals } from './black76.js';

// ---------------------------------------------------------------------------------------------------------------
// Independent straightforward reference: D·(F·Φ(d₁) − K·Φ(d₂)) with its own erf/erfc (series + continued fraction).

/** erf(x) for 0 ≤ x ≤ 2.5: (2/√π)·e^{−x²}·Σ 2ⁿx^{2n+1}/(2n+1)!! — all terms positive, no cancellation. */
function refErf(x: number): number {
  let term = x;
  let sum = x;
  for (let n = 1; n < 200 && term > 1e-18 * sum; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}

/** erfc(x) for x > 2.5: Laplace continued fraction evaluated bottom-up. */
function refErfcLarge(x: number): number {
  let f = x;
  for (let n = 120; n >= 1; n--) f = x + n / 2 / f;
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
}

function refPhi(z: number): number {
  const y = Math.abs(z) / Math.SQRT2;
  const tail = y > 2.5 ? 0.5 * refErfcLarge(y) : 0.5 * (1 - refErf(y));
  return z < 0 ? tail : 1 - tail;
}

function refBlack(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): number {
  const sd = sigma * Math.sqrt(T);
  const d1 = Math.log(F / K) / sd + 0.5 * sd;
  const d2 = d1 - sd;
  const df = Math.exp(-r * T);
  return isCall ? df * (F * refPhi(d1) - K * refPhi(d2)) : df * (K * refPhi(-d2) - F * refPhi(-d1));
}

/** d ln(price)/d ln(σ) = σ·vega/price, with vega = e^{−rT}·F·φ(d₁)·√T: how much σ information the price carries. */
function sigmaSensitivity(F: number, K: number, T: number, r: number, sigma: number, price: number): number {
  const sd = sigma * Math.sqrt(T);
  const d1 = Math.log(F / K) / sd + 0.5 * sd;
  const vega = Math.exp(-r * T) * F * Math.exp(-0.5 * d1 * d1 - 0.5 * Math.log(2 * Math.PI)) * Math.sqrt(T);
  return (sigma * vega) / price;
}

const relErr = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('black76Price', () => {
  it('matches the closed form for the textbook at-the-money call', () => {
    const p = black76Price(100, 100, 1, 0.05, true, 0.2);
    // e^{−0.05}·100·(Φ(0.1) − Φ(−0.1)) from 50-digit arithmetic, rounded to double
    expect(relErr(p, 7.577082146427273)).toBeLessThan(1e-14);
    expect(relErr(p, refBlack(100, 100, 1, 0.05, true, 0.2))).toBeLessThan(1e-12);
  });

  it.each([
    [100, 120, 0.5, 0.03, true, 0.25],
    [100, 120, 0.5, 0.03, false, 0.25],
    [3500, 3000, 0.25, 0.02, true, 0.18],
    [3500, 3000, 0.25, 0.02, false, 0.18],
    [50, 55, 2, 0.08, true, 0.6],
    [50, 40, 0.1, 0.0, false, 1.2],
    [7.5, 7.5, 3, 0.1, false, 2.5],
  ])('matches an independent implementation: F=%d K=%d T=%d r=%d call=%s σ=%d', (F, K, T, r, isCall, sigma) => {
    expect(relErr(black76Price(F, K, T, r, isCall, sigma), refBlack(F, K, T, r, isCall, sigma))).toBeLessThan(1e-12);
  });

  it('satisfies put–call parity', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.double({ min: 1 / 365, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        (m, sigma, T, r) => {
          const F = 100;
          const K = F * Math.exp(m);
          const c = black76Price(F, K, T, r, true, sigma);
          const p = black76Price(F, K, T, r, false, sigma);
          expect(Math.abs(c - p - Math.exp(-r * T) * (F - K))).toBeLessThan(1e-12 * (F + K));
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('returns the (discounted) intrinsic value for σ = 0 and T = 0', () => {
    expect(black76Price(120, 100, 1, 0.05, true, 0)).toBe(Math.exp(-0.05) * 20);
    expect(black76Price(80, 100, 1, 0.05, true, 0)).toBe(0);
    expect(black76Price(80, 100, 0, 0.05, false, 0.3)).toBe(20);
  });

  it('rejects invalid input with NaN', () => {
    for (const args of [
      [NaN, 100, 1, 0.05, 0.2],
      [100, Infinity, 1, 0.05, 0.2],
      [0, 100, 1, 0.05, 0.2],
      [100, -1, 1, 0.05, 0.2],
      [100, 100, -1, 0.05, 0.2],
      [100, 100, 1, NaN, 0.2],
      [100, 100, 1, 0.05, -0.2],
      [100, 100, 1, 0.05, Infinity],
    ] as const) {
      expect(black76Price(args[0], args[1], args[2], args[3], true, args[4])).toBeNaN();
    }
  });
});

describe('normalised Black kernel', () => {
  // b(x, s) for x ≤ 0 from 50-digit arithmetic (mpmath), covering every evaluation regime of the kernel.
  const reference: [number, number, number][] = [
    [-0.3, 0.1, 3.817410194082516e-5],
    [-8, 0.3, 6.361838192424413e-159],
    [-0.001, 0.01, 0.003509336918642542],
    [0, 0.2, 0.07965567455405796],
    [-12, 1.0, 1.2910437115451597e-34],
    [-20, 0.9, 3.819052616567423e-111],
    [-1, 0.5, 0.0041423587506785745],
    [-3, 1.2, 0.002071033845551743],
    [-0.1, 0.6, 0.18926840515068732],
    [-0.5, 1.5, 0.33630341911854833],
    [-0.2, 3, 0.7714182372320803],
    [-1, 8, 0.6064677622239917],
    [-1.5, 0.05, 8.157239757612589e-201],
    [-0.02, 0.4, 0.14872266050046906],
  ];
  it.each(reference)('b(%d, %d) to machine precision', (x, s, expected) => {
    const b = internals.otmBlack(x, s, Math.exp(0.5 * x));
    // The Gaussian factor e^{−(h²+t²)/2} inherits the rounding of its exponent: allow ε·(exponent) on top.
    const h = x / s;
    const exponent = 0.5 * (h * h + 0.25 * s * s);
    expect(relErr(b, expected)).toBeLessThan(4e-16 * (4 + exponent));
  });

  it('reports the vega ∂b/∂s and the complement b_max − b alongside b', () => {
    for (const [x, s] of [
      [-0.3, 0.1],
      [-1, 0.5],
      [-0.1, 0.6],
      [-0.2, 3],
      [-1, 8],
    ] as const) {
      const bMax = Math.exp(0.5 * x);
      const b = internals.otmBlack(x, s, bMax);
      const vega = internals.vega();
      const complement = internals.complement();
      const hs = 1e-6 * s;
      const slope = (internals.otmBlack(x, s + hs, bMax) - internals.otmBlack(x, s - hs, bMax)) / (2 * hs);
      expect(relErr(vega, slope)).toBeLessThan(1e-7);
      expect(Math.abs(complement - (bMax - b))).toBeLessThan(4e-16 * bMax);
    }
    // Deep in the upper tail the complement keeps relative precision although b rounds to b_max.
    const x = -0.5;
    const s = 16;
    internals.otmBlack(x, s, Math.exp(0.5 * x));
    // e^{x/2}Φ(−x/s − s/2) + e^{−x/2}Φ(x/s − s/2) from 50-digit arithmetic
    expect(relErr(internals.complement(), 1.2436023905190846e-15)).toBeLessThan(1e-13);
  });

  it('fits the requested end slopes and second derivative with the rational cubic', () => {
    const [xl, xr, yl, yr, dl, dr] = [0.1, 0.5, 1, 2, 1, 5];
    for (const [atLeft, d2] of [
      [true, 3],
      [false, 20],
      [true, 0],
    ] as const) {
      const r = internals.controlFittingSecondDerivative(atLeft, xl, xr, yl, yr, dl, dr, d2, false);
      const f = (x: number) => internals.rationalCubic(x, xl, xr, yl, yr, dl, dr, r);
      const h = 1e-4;
      expect(f(xl)).toBeCloseTo(yl, 14);
      expect(f(xr)).toBeCloseTo(yr, 14);
      expect((-3 * f(xl) + 4 * f(xl + h) - f(xl + 2 * h)) / (2 * h)).toBeCloseTo(dl, 5);
      expect((3 * f(xr) - 4 * f(xr - h) + f(xr - 2 * h)) / (2 * h)).toBeCloseTo(dr, 5);
      const at = atLeft ? xl : xr;
      const sign = atLeft ? 1 : -1;
      const g = (k: number) => f(at + sign * k * 1e-3);
      const second = (2 * g(0) - 5 * g(1) + 4 * g(2) - g(3)) / 1e-6; // one-sided, second order
      expect(second).toBeCloseTo(d2, 2);
    }
  });

  it('underflows to 0 rather than NaN for vanishing s', () => {
    expect(internals.otmBlack(-1.5, 1e-3, Math.exp(-0.75))).toBe(0);
    expect(internals.otmBlack(-1.5, 1e-30, Math.exp(-0.75))).toBe(0);
  });
});

describe('black76ImpliedVol', () => {
  const grid = fc.record({
    m: fc.double({ min: -1.5, max: 1.5, noNaN: true }), // ln(K/F)
    sigma: fc.double({ min: 0.01, max: 3, noNaN: true }),
    T: fc.double({ min: 1 / 365, max: 3, noNaN: true }),
    r: fc.double({ min: 0, max: 0.1, noNaN: true }),
    F: fc.double({ min: 1, max: 10000, noNaN: true }),
    isCall: fc.boolean(),
  });

  // Filter (stated once for all property tests): the price must carry σ information, i.e. the out-of-the-money price
  // is ≥ 1e-300 (not underflowed) and the relative σ-sensitivity d ln(price)/d ln(σ) = σ·vega/price is not tiny.
  // A relative price error ε then moves σ by ε/sensitivity, so
  //   sensitivity ≥ 1e-2 ("well conditioned") must give 1e-12 and sensitivity ≥ 1e-6 must give 1e-9.
  function check(tolerance: number, minSensitivity: number) {
    return ({
      m,
      sigma,
      T,
      r,
      F,
      isCall,
    }: {
      m: number;
      sigma: number;
      T: number;
      r: number;
      F: number;
      isCall: boolean;
    }) => {
      const K = F * Math.exp(m);
      const price = black76Price(F, K, T, r, isCall, sigma);
      const otmPrice = black76Price(F, K, T, r, K > F, sigma);
      const sensitivity = sigmaSensitivity(F, K, T, r, sigma, price);
      if (!(otmPrice >= 1e-300) || !(sensitivity >= minSensitivity)) return;
      const iv = black76ImpliedVol(price, F, K, T, r, isCall);
      expect(relErr(iv, sigma)).toBeLessThan(tolerance);
      // The price moves by sensitivity × the (few-ulp) σ error.
      expect(relErr(black76Price(F, K, T, r, isCall, iv), price)).toBeLessThan(1e-13 + 1e-14 * sensitivity);
    };
  }

  it('recovers σ to 1e-12 in the well-conditioned region', () => {
    fc.assert(fc.property(grid, check(1e-12, 1e-2)), { numRuns: 20000, seed: 42 });
  });

  it('recovers σ to 1e-9 wherever the price is not numerically degenerate', () => {
    fc.assert(fc.property(grid, check(1e-9, 1e-6)), { numRuns: 20000, seed: 4242 });
  });

  it('round-trips price → implied vol → price everywhere the price is positive', () => {
    fc.assert(
      fc.property(grid, ({ m, sigma, T, r, F, isCall }) => {
        const K = F * Math.exp(m);
        const price = black76Price(F, K, T, r, isCall, sigma);
        const iv = black76ImpliedVol(price, F, K, T, r, isCall);
        expect(iv).toBeGreaterThanOrEqual(0);
        // Where the time value is lost in rounding any σ reproduces the price; otherwise relative 1e-13, widened by
        // the price's σ-sensitivity for the few-ulp σ error.
        const back = black76Price(F, K, T, r, isCall, iv);
        const sensitivity = price > 0 ? sigmaSensitivity(F, K, T, r, sigma, price) : 0;
        const tolerance = (1e-13 + 1e-14 * sensitivity) * price + 4e-16 * Math.max(F, K);
        expect(Math.abs(back - price)).toBeLessThanOrEqual(tolerance);
      }),
      { numRuns: 20000, seed: 99 },
    );
  });

  it('recovers σ to 1e-9 far from the money too (|ln(K/F)| up to 6, beyond the tabulated guesses)', () => {
    const wide = fc.record({
      m: fc.double({ min: -6, max: 6, noNaN: true }),
      sigma: fc.double({ min: 0.01, max: 3, noNaN: true }),
      T: fc.double({ min: 1 / 365, max: 3, noNaN: true }),
      r: fc.double({ min: 0, max: 0.1, noNaN: true }),
      F: fc.double({ min: 1, max: 10000, noNaN: true }),
      isCall: fc.boolean(),
    });
    fc.assert(fc.property(wide, check(1e-9, 1e-6)), { numRuns: 10000, seed: 606 });
  });

  it('matches QuantLib blackFormula: prices to 4e-15·max(F, K), σ to 1e-10 from its prices', () => {
    expect(europeanRows.length).toBeGreaterThanOrEqual(1000);
    let checked = 0;
    for (const { F, K, T, r, sigma, call, price } of europeanRows) {
      const df = Math.exp(-r * T);
      expect(Math.abs(black76Price(F, K, T, r, call, sigma) - price)).toBeLessThan(4e-15 * df * Math.max(F, K));
      // QuantLib's price resolves the time value only well above its own rounding (~1e-16 of F or K).
      if (price - Math.max(df * (call ? F - K : K - F), 0) < 1e-6 * K) continue;
      expect(Math.abs(black76ImpliedVol(price, F, K, T, r, call) - sigma)).toBeLessThan(1e-10);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('is exact at the money (closed form), also for tiny prices', () => {
    for (const sigma of [1e-6, 0.01, 0.2, 1, 3, 8]) {
      const p = black76Price(2500, 2500, 0.5, 0.03, true, sigma);
      expect(relErr(black76ImpliedVol(p, 2500, 2500, 0.5, 0.03, true), sigma)).toBeLessThan(1e-14);
    }
  });

  it('handles deep in-the-money quotes through put–call parity', () => {
    // Call 40% in the money: the time value is ~1e-3 of the price.
    const price = black76Price(100, 60, 0.5, 0.05, true, 0.3);
    expect(relErr(black76ImpliedVol(price, 100, 60, 0.5, 0.05, true), 0.3)).toBeLessThan(1e-11);
    const put = black76Price(100, 250, 1, 0.05, false, 0.4);
    expect(relErr(black76ImpliedVol(put, 100, 250, 1, 0.05, false), 0.4)).toBeLessThan(1e-11);
  });

  it('returns exactly 0 when the price equals the intrinsic value', () => {
    const df = Math.exp(-0.05);
    expect(black76ImpliedVol(df * 20, 120, 100, 1, 0.05, true)).toBe(0);
    expect(black76ImpliedVol(df * 20, 80, 100, 1, 0.05, false)).toBe(0);
    expect(black76ImpliedVol(0, 80, 100, 1, 0.05, true)).toBe(0);
    expect(black76ImpliedVol(0, 100, 100, 1, 0.05, false)).toBe(0);
  });

  it('returns NaN below the intrinsic value', () => {
    const df = Math.exp(-0.05);
    expect(black76ImpliedVol(df * 20 - 1e-9, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(df * 20 * 0.9, 80, 100, 1, 0.05, false)).toBeNaN();
  });

  it('returns NaN at or above the no-arbitrage maximum', () => {
    const df = Math.exp(-0.05);
    expect(black76ImpliedVol(df * 120, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(df * 130, 120, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(df * 100, 80, 100, 1, 0.05, false)).toBeNaN();
    expect(black76ImpliedVol(df * 100 + 1, 80, 100, 1, 0.05, false)).toBeNaN();
  });

  it('returns NaN for T ≤ 0', () => {
    expect(black76ImpliedVol(5, 100, 100, 0, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(5, 100, 100, -1, 0.05, true)).toBeNaN();
  });

  it('returns NaN for non-finite or negative input and non-positive F or K', () => {
    const ok: [number, number, number, number, number] = [5, 100, 100, 1, 0.05];
    for (let i = 0; i < ok.length; i++) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        const [p, F, K, T, r] = ok.map((v, j) => (j === i ? bad : v)) as typeof ok;
        expect(black76ImpliedVol(p, F, K, T, r, true)).toBeNaN();
      }
    }
    expect(black76ImpliedVol(-1, 100, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(5, -100, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(5, 100, -100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(5, 0, 100, 1, 0.05, true)).toBeNaN();
    expect(black76ImpliedVol(5, 100, 0, 1, 0.05, false)).toBeNaN();
  });

  it('accepts negative interest rates (the discount factor is then above 1)', () => {
    const p = black76Price(100, 110, 1, -0.01, true, 0.3);
    expect(relErr(black76ImpliedVol(p, 100, 110, 1, -0.01, true), 0.3)).toBeLessThan(1e-13);
  });
});
