import { describe, expect, it } from 'vitest';
import { black76Price } from '../black76.js';
import { butterflyCheck, checkGrid, fitSvi, sviW, type SmilePoint, type SviParams } from './svi.js';
import { SmileSurface, type SurfaceSlice } from './surface.js';

/*
 * The smile's promises (docs/smile.md): a fit close to the quotes, and a served surface with no static arbitrage —
 * call prices convex and decreasing in strike on a dense grid, total variance non-decreasing in time at fixed k —
 * on chains shaped like the simulated market's and on adversarial ones.
 */

/** A seeded uniform generator (mulberry32) and a normal from it. */
function rng(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u() + 1e-300)) * Math.cos(2 * Math.PI * u());
}

/** The simulated exchange's smile (apps/server/src/market/smile.ts): atm·(1 + skew·x + curvature·x²), noise on top. */
function simulatedChain(atm: number, skew: number, curvature: number, T: number, seed: number, noise = 0.0008) {
  const normal = rng(seed);
  const F = 80_000;
  const points: SmilePoint[] = [];
  for (let K = F * 0.7; K <= F * 1.3; K += F * 0.01) {
    const x = Math.max(-4, Math.min(4, Math.log(K / F) / (atm * Math.sqrt(T))));
    // Options farther out have no time value left to quote a vol by (curveRules.ts drops them).
    if (Math.abs(x) > 3) continue;
    const vol = atm * Math.max(0.5, 1 + skew * x + curvature * x * x) + noise * normal();
    points.push({ k: Math.log(K / F), vol });
  }
  return points;
}

const PRODUCTS = [
  { name: 'metal', atm: 0.16, skew: -0.03, curvature: 0.035 },
  { name: 'precious', atm: 0.13, skew: 0.03, curvature: 0.03 },
  { name: 'agri', atm: 0.2, skew: 0.04, curvature: 0.04 },
  { name: 'energy', atm: 0.3, skew: -0.02, curvature: 0.04 },
  { name: 'index', atm: 0.2, skew: -0.08, curvature: 0.04 },
];
const EXPIRIES = [7 / 365, 30 / 365, 90 / 365, 180 / 365, 1];

/**
 * Undiscounted call prices of a slice (total variance w(k)) at 2,001 strikes from F·e^−2.5 to F·e^2.5: the largest
 * rise from one strike to the next and the most negative second difference, both as fractions of F.
 */
function staticArbitrage(w: (k: number) => number) {
  const F = 100;
  const n = 2001;
  const ks = Array.from({ length: n }, (_, i) => -2.5 + (5 * i) / (n - 1));
  const calls = ks.map((k) => black76Price(F, F * Math.exp(k), 1, 0, true, Math.sqrt(w(k))));
  let rise = -Infinity;
  let convexity = Infinity;
  for (let i = 1; i < n; i++) rise = Math.max(rise, (calls[i]! - calls[i - 1]!) / F);
  for (let i = 1; i < n - 1; i++) {
    const K0 = F * Math.exp(ks[i - 1]!);
    const K1 = F * Math.exp(ks[i]!);
    const K2 = F * Math.exp(ks[i + 1]!);
    // Slope change on the uneven grid (≥ 0 for a convex function).
    const d = (calls[i + 1]! - calls[i]!) / (K2 - K1) - (calls[i]! - calls[i - 1]!) / (K1 - K0);
    convexity = Math.min(convexity, d);
  }
  return { rise, convexity };
}

// Rounding of the prices (≈1e-16·F) divided by strike steps: far below any arbitrage.
const NO_ARBITRAGE = 1e-10;

function expectArbitrageFree(w: (k: number) => number) {
  const { rise, convexity } = staticArbitrage(w);
  expect(rise).toBeLessThanOrEqual(NO_ARBITRAGE);
  expect(convexity).toBeGreaterThanOrEqual(-NO_ARBITRAGE);
}

describe('fitSvi', () => {
  it('recovers a raw SVI slice from its own vols', () => {
    const p: SviParams = { a: 0.01, b: 0.08, rho: -0.4, m: 0.02, sigma: 0.15 };
    const T = 0.5;
    const points = Array.from({ length: 25 }, (_, i) => {
      const k = -0.4 + i / 30;
      return { k, vol: Math.sqrt(sviW(p, k) / T) };
    });
    const fit = fitSvi(points, T)!;
    expect(fit.flat).toBe(false);
    expect(fit.rmse).toBeLessThan(2e-5);
  });

  it('fits the simulated market within a few tenths of a vol point, every slice arbitrage-free', () => {
    let worst = 0;
    for (const [i, p] of PRODUCTS.entries()) {
      for (const [j, T] of EXPIRIES.entries()) {
        const points = simulatedChain(p.atm, p.skew, p.curvature, T, 1000 * i + j);
        const fit = fitSvi(points, T)!;
        expect(fit.flat, `${p.name} T=${T}`).toBe(false);
        expect(butterflyCheck(fit.params, checkGrid(points)).ok).toBe(true);
        expectArbitrageFree((k) => sviW(fit.params, k));
        worst = Math.max(worst, fit.rmse);
      }
    }
    // The quotes carry 0.08 vol points of per-strike noise, and the simulation's smile is a parabola in
    // k/√T, not SVI.
    expect(worst).toBeLessThan(0.0025);
  });

  it('fits a noisy chain, a kinked one and one whose quotes are themselves arbitrage to arbitrage-free slices', () => {
    const T = 60 / 365;
    const normal = rng(7);
    const noisy = simulatedChain(0.2, -0.05, 0.04, T, 3, 0.02);
    // A spike of 8 vol points at one strike.
    const kinked = simulatedChain(0.2, 0, 0.03, T, 4).map((p, i) => (i === 20 ? { ...p, vol: p.vol + 0.08 } : p));
    // A frown falling steeply on the right: quoted as is, the calls would not be convex.
    const frown = Array.from({ length: 21 }, (_, i) => {
      const k = -0.3 + i * 0.03;
      return { k, vol: Math.max(0.02, 0.3 - 1.2 * k * k - 0.4 * k + 0.002 * normal()) };
    });
    // Two strikes only a hair apart with different vols, and a flat chain.
    const clustered = simulatedChain(0.25, 0.02, 0.02, T, 5).flatMap((p) => [p, { k: p.k + 1e-4, vol: p.vol + 0.01 }]);
    const flat = Array.from({ length: 9 }, (_, i) => ({ k: -0.2 + i * 0.05, vol: 0.18 }));
    for (const [name, points] of Object.entries({ noisy, kinked, frown, clustered, flat })) {
      const fit = fitSvi(points, T)!;
      expect(fit, name).toBeDefined();
      expect(butterflyCheck(fit.params, checkGrid(points)).ok, name).toBe(true);
      expectArbitrageFree((k) => sviW(fit.params, k));
    }
  });

  it('does not fit fewer than five points', () => {
    expect(
      fitSvi(
        [0.1, 0.2, 0.3, 0.4].map((k) => ({ k, vol: 0.2 })),
        0.5,
      ),
    ).toBeUndefined();
  });
});

/** Slices fitted to chains of one product at these expiries (years), each a different shape and level. */
function fittedSlices(shapes: { T: number; atm: number; skew: number; curvature: number; noise?: number }[]) {
  return shapes.map((s, i): SurfaceSlice => {
    const fit = fitSvi(simulatedChain(s.atm, s.skew, s.curvature, s.T, 50 + i, s.noise), s.T)!;
    return { expiry: `E${i}`, T: s.T, params: fit.params };
  });
}

function expectSurfaceArbitrageFree(surface: SmileSurface) {
  const ks = Array.from({ length: 81 }, (_, i) => -2 + i * 0.05);
  const times = Array.from({ length: 120 }, (_, i) => (i + 1) / 60); // 6 days … 2 years
  for (const k of ks) {
    let prev = 0;
    for (const T of times) {
      const w = surface.at(k, T).totalVariance;
      expect(w).toBeGreaterThanOrEqual(prev * (1 - 1e-14));
      prev = w;
    }
  }
  for (const T of [2 / 365, 20 / 365, 45 / 365, 100 / 365, 0.75, 1.3, 2])
    expectArbitrageFree((k) => surface.at(k, T).totalVariance);
}

describe('SmileSurface', () => {
  it('serves a simulated product: total variance rises with time at every k, calls convex and decreasing at any date', () => {
    const surface = new SmileSurface(
      fittedSlices([
        { T: 10 / 365, atm: 0.18, skew: -0.03, curvature: 0.035 },
        { T: 40 / 365, atm: 0.17, skew: -0.03, curvature: 0.035 },
        { T: 70 / 365, atm: 0.165, skew: -0.03, curvature: 0.035 },
        { T: 160 / 365, atm: 0.16, skew: -0.03, curvature: 0.035 },
      ]),
    );
    expectSurfaceArbitrageFree(surface);
  });

  it('keeps the calendar when a later chain is quoted below an earlier one (crossing slices)', () => {
    const slices = fittedSlices([
      { T: 20 / 365, atm: 0.35, skew: 0.1, curvature: 0.06, noise: 0.01 },
      { T: 30 / 365, atm: 0.15, skew: -0.1, curvature: 0.01, noise: 0.01 },
      { T: 90 / 365, atm: 0.12, skew: 0.05, curvature: 0.08, noise: 0.01 },
    ]);
    // The raw fits do cross: the second chain's total variance is below the first's somewhere.
    expect(sviW(slices[1]!.params, 0)).toBeLessThan(sviW(slices[0]!.params, 0));
    const surface = new SmileSurface(slices);
    expectSurfaceArbitrageFree(surface);
  });

  it('names the rule it used: a slice, between two, before the first, after the last', () => {
    const surface = new SmileSurface(
      fittedSlices([
        { T: 0.1, atm: 0.2, skew: 0, curvature: 0.03 },
        { T: 0.3, atm: 0.2, skew: 0, curvature: 0.03 },
      ]),
    );
    expect(surface.at(0, 0.1)).toMatchObject({ rule: 'slice', expiries: ['E0'] });
    expect(surface.at(0, 0.2)).toMatchObject({ rule: 'interpolated', expiries: ['E0', 'E1'] });
    expect(surface.at(0, 0.05)).toMatchObject({ rule: 'before_first', expiries: ['E0'] });
    expect(surface.at(0, 1)).toMatchObject({ rule: 'after_last', expiries: ['E1'] });
    // Flat vol in time before the first expiry; at the money linear in total variance between two.
    expect(surface.at(0.1, 0.05).vol).toBeCloseTo(surface.at(0.1, 0.1).vol, 12);
    expect(surface.at(0, 0.2).totalVariance).toBeCloseTo(
      (surface.at(0, 0.1).totalVariance + surface.at(0, 0.3).totalVariance) / 2,
      12,
    );
    const w = surface.at(0.1, 0.2).totalVariance;
    expect(w).toBeGreaterThan(surface.at(0.1, 0.1).totalVariance);
    expect(w).toBeLessThan(surface.at(0.1, 0.3).totalVariance);
  });
});
