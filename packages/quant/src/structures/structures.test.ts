import { describe, expect, it } from 'vitest';
import {
  accumulatorRows,
  asianRows,
  barrierRows,
  GREEK_BUMPS,
  greekRows,
  haugRows,
  times,
  vanillaRows,
  type AccumulatorRow,
  type AsianRow,
  type BarrierRow,
} from '../../reference/structures.js';
import { black76Price } from '../black76.js';
import { accumulator, zeroCostStrike } from './accumulator.js';
import { asianOption } from './asian.js';
import { barrierOption } from './barrier.js';
import { tradingDays, yearFraction } from './calendar.js';
import type { Valuation } from './greeks.js';
import { latticeSettings } from './lattice.js';
import { vanilla } from './vanilla.js';

const asianOf = (row: AsianRow, over: Partial<{ F: number; sigma: number; shift: number }> = {}) => {
  const t = times(row.days).map((x) => x + (over.shift ?? 0));
  return asianOption({
    F: over.F ?? row.F,
    K: row.K,
    isCall: row.call,
    sigma: over.sigma ?? row.sigma,
    r: row.r,
    times: t,
    fixings: row.fixings,
    payTime: t[t.length - 1]!,
  });
};
const barrierOf = (row: BarrierRow, over: Partial<{ F: number; sigma: number; shift: number }> = {}) =>
  barrierOption({
    F: over.F ?? row.F,
    K: row.K,
    isCall: row.call,
    sigma: over.sigma ?? row.sigma,
    r: row.r,
    barrier: row.barrier,
    direction: row.direction,
    knock: row.knock,
    rebate: row.rebate,
    times: times(row.days).map((x) => x + (over.shift ?? 0)),
  });
const accumulatorOf = (
  row: AccumulatorRow,
  over: Partial<{ F: number; sigma: number; shift: number; K: number }> = {},
) =>
  accumulator({
    F: over.F ?? row.F,
    K: over.K ?? row.K,
    sigma: over.sigma ?? row.sigma,
    r: row.r,
    side: row.side,
    barrier: row.barrier,
    leverage: row.leverage,
    quantityPerDay: row.quantityPerDay,
    times: times(row.days).map((x) => x + (over.shift ?? 0)),
  });

/** Central differences of the engine's own price: the bumped Greeks the analytic ones are held to. */
function bumped(
  price: (o: { F?: number; sigma?: number; shift?: number }) => number,
  F: number,
  sigma: number,
  T: number,
) {
  // F moves by 1% of the price's spread at expiry: short and low-vol structures curve on a small scale, and a smaller
  // step would magnify the grid's rounding (its reach is cut at 6 standard deviations from F, ~1e-9 of the price).
  const hF = F * 1e-2 * sigma * Math.sqrt(T);
  const hS = 1e-3;
  const hT = 2e-4;
  const p0 = price({});
  const pu = price({ F: F + hF });
  const pd = price({ F: F - hF });
  return {
    delta: (pu - pd) / (2 * hF),
    gamma: (pu - 2 * p0 + pd) / (hF * hF),
    vega: (price({ sigma: sigma + hS }) - price({ sigma: sigma - hS })) / (2 * hS),
    // Theta: value change as time passes = −∂V/∂(every time lengthened).
    theta: -(price({ shift: hT }) - price({ shift: -hT })) / (2 * hT),
  };
}

/** Each Greek within 1% of its bumped value, or within `floor` of it where the Greek is next to nothing. */
function expectGreeks(v: Valuation, ref: ReturnType<typeof bumped>, floors: Record<keyof typeof ref, number>) {
  for (const k of ['delta', 'gamma', 'vega', 'theta'] as const) {
    expect(Math.abs(v[k] - ref[k]), k).toBeLessThanOrEqual(0.01 * Math.abs(ref[k]) + floors[k]);
  }
}

describe('calendar', () => {
  it('counts weekdays as trading days and calendar days ÷ 365 as time', () => {
    expect(tradingDays('2027-01-01', '2027-01-11')).toEqual([
      '2027-01-01',
      '2027-01-04',
      '2027-01-05',
      '2027-01-06',
      '2027-01-07',
      '2027-01-08',
      '2027-01-11',
    ]);
    expect(yearFraction('2027-01-04', '2028-01-04')).toBeCloseTo(365 / 365, 12);
    expect(yearFraction('2027-01-04', '2027-01-11')).toBe(7 / 365);
  });
});

describe('vanilla (Black-76) against QuantLib AnalyticEuropeanEngine', () => {
  it('matches price and every Greek', () => {
    expect(vanillaRows.length).toBeGreaterThanOrEqual(50);
    for (const row of vanillaRows) {
      const v = vanilla(row.F, row.K, row.days / 365, row.r, row.call, row.sigma);
      expect(Math.abs(v.price - row.price)).toBeLessThan(1e-9 * row.F);
      expect(Math.abs(v.delta - row.delta)).toBeLessThan(1e-9);
      expect(Math.abs(v.gamma - row.gamma)).toBeLessThan(1e-9 * Math.abs(row.gamma) + 1e-15);
      expect(Math.abs(v.vega - row.vega)).toBeLessThan(1e-8 * Math.abs(row.vega) + 1e-9 * row.F);
      expect(Math.abs(v.theta - row.theta)).toBeLessThan(1e-8 * Math.abs(row.theta) + 1e-9 * row.F);
    }
  });
});

describe('Asian (arithmetic average over trading days)', () => {
  it('covers 5–120 days, σ 10–60%, fresh and part-fixed windows, calls and puts', () => {
    const n = asianRows.map((r) => r.days.length + r.fixings.length);
    expect(Math.min(...n)).toBe(5);
    expect(Math.max(...n)).toBe(120);
    expect(asianRows.some((r) => r.fixings.length > 0)).toBe(true);
    expect(asianRows.some((r) => r.call) && asianRows.some((r) => !r.call)).toBe(true);
  });

  it('is within 1e-4·F + 3 standard errors of the 10⁶-path Monte Carlo on every row', () => {
    for (const row of asianRows) {
      expect(Math.abs(asianOf(row).price - row.price)).toBeLessThanOrEqual(1e-4 * row.F + 3 * row.se);
    }
  });

  it('agrees with QuantLib’s own Monte Carlo where it was run', () => {
    const rows = asianRows.filter((r) => r.quantlibMc !== undefined);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Math.abs(asianOf(row).price - row.quantlibMc!)).toBeLessThanOrEqual(1e-4 * row.F + 3 * row.quantlibMcSe!);
    }
  });

  it('has Greeks within 1% of bumped prices', () => {
    for (const row of asianRows) {
      const ref = bumped((o) => asianOf(row, o).price, row.F, row.sigma, row.days.at(-1)! / 365);
      expectGreeks(asianOf(row), ref, { delta: 1e-6, gamma: 1e-7 / row.F, vega: 1e-6 * row.F, theta: 1e-6 * row.F });
    }
  });

  // Haug, "Option Pricing Formulas" (2nd ed.), Table 4-28, b = 0 (QuantLib's testTurnbullWakemanAsianEngine, flat
  // volatility): 26 fixings from 1/52 to 0.5 years (Actual/360), F = 100, σ 20%, r 5%. The table is Turnbull–
  // Wakeman's two-moment approximation, off the exact value by up to 0.014 here; the engine is held to the table within
  // that, and to the Monte Carlo of the exact value within 1e-4·F + 3 s.e.
  it('reproduces Haug’s Turnbull–Wakeman table (b = 0) and the exact values beside it', () => {
    expect(haugRows).toHaveLength(10);
    for (const row of haugRows) {
      const v = asianOption({
        F: 100,
        K: row.K,
        isCall: row.call,
        sigma: 0.2,
        r: 0.05,
        times: row.times,
        payTime: 0.5,
      });
      expect(Math.abs(v.price - row.haug)).toBeLessThan(0.015);
      expect(Math.abs(v.price - row.price)).toBeLessThanOrEqual(1e-4 * 100 + 3 * row.se);
    }
  });

  it('reduces to Black-76 with one fixing left and to the discounted intrinsic value with none', () => {
    const one = asianOption({ F: 100, K: 95, isCall: false, sigma: 0.3, r: 0.03, times: [0.2], payTime: 0.2 });
    expect(one.price).toBeCloseTo(black76Price(100, 95, 0.2, 0.03, false, 0.3), 10);
    const none = asianOption({
      F: 100,
      K: 95,
      isCall: true,
      sigma: 0.3,
      r: 0.03,
      times: [],
      fixings: [99, 100],
      payTime: 0.1,
    });
    expect(none.price).toBeCloseTo(Math.exp(-0.003) * 4.5, 12);
    // The fixings already above the strike: the call is a forward on the average, the put worthless.
    const deep = { F: 100, K: 50, sigma: 0.3, r: 0.03, times: [0.1, 0.2], fixings: [120, 130], payTime: 0.2 };
    expect(asianOption({ ...deep, isCall: true }).price).toBeCloseTo(Math.exp(-0.006) * (112.5 - 50), 10);
    expect(asianOption({ ...deep, isCall: false }).price).toBe(0);
  });
});

describe('daily-observed barrier', () => {
  it('covers up/down, in/out, rebates, 5–120 days', () => {
    for (const k of ['up-in', 'up-out', 'down-in', 'down-out'])
      expect(barrierRows.some((r) => `${r.direction}-${r.knock}` === k)).toBe(true);
    expect(barrierRows.some((r) => r.rebate > 0)).toBe(true);
  });

  it('is within 1e-4·F + 3 standard errors of the 10⁶-path Monte Carlo on every row', () => {
    for (const row of barrierRows) {
      expect(Math.abs(barrierOf(row).price - row.price)).toBeLessThanOrEqual(1e-4 * row.F + 3 * row.se);
    }
  });

  it('has Greeks within 1% of bumped prices', () => {
    for (const row of barrierRows) {
      const ref = bumped((o) => barrierOf(row, o).price, row.F, row.sigma, row.days.at(-1)! / 365);
      expectGreeks(barrierOf(row), ref, { delta: 1e-5, gamma: 1e-7 / row.F, vega: 1e-5 * row.F, theta: 1e-5 * row.F });
    }
  });

  it('in + out = vanilla + rebate, and a barrier out of reach changes nothing', () => {
    const base = { F: 100, K: 100, isCall: true, sigma: 0.25, r: 0.02, times: [1, 2, 5, 6, 7].map((d) => d / 365) };
    const T = 7 / 365;
    for (const direction of ['up', 'down'] as const) {
      const barrier = direction === 'up' ? 104 : 96;
      const out = barrierOption({ ...base, barrier, direction, knock: 'out', rebate: 2 });
      const inn = barrierOption({ ...base, barrier, direction, knock: 'in', rebate: 2 });
      // Equal up to the quadrature's error (the two run different payments on the grid).
      const parity = black76Price(100, 100, T, 0.02, true, 0.25) + 2 * Math.exp(-0.02 * T);
      expect(Math.abs(out.price + inn.price - parity)).toBeLessThan(1e-6 * 100);
      expect(Math.abs(out.delta + inn.delta - vanilla(100, 100, T, 0.02, true, 0.25).delta)).toBeLessThan(1e-4);
    }
    const far = barrierOption({ ...base, barrier: 300, direction: 'up', knock: 'out' });
    expect(Math.abs(far.price - black76Price(100, 100, T, 0.02, true, 0.25))).toBeLessThan(1e-9 * 100);
  });

  it('has converged on its grid (3 points per standard deviation against 6)', () => {
    const row = barrierRows.find((r) => r.days.length === 120 && r.knock === 'out')!;
    const coarse = barrierOf(row).price;
    latticeSettings.pointsPerSd = 6;
    try {
      expect(Math.abs(barrierOf(row).price - coarse)).toBeLessThan(1e-6 * row.F);
    } finally {
      latticeSettings.pointsPerSd = 3;
    }
  });
});

describe('accumulator (累购 / 累沽)', () => {
  it('covers both sides, leverage 1–3, 5–120 days', () => {
    expect(accumulatorRows.some((r) => r.side === 'buy') && accumulatorRows.some((r) => r.side === 'sell')).toBe(true);
    expect(new Set(accumulatorRows.map((r) => r.days.length)).size).toBeGreaterThanOrEqual(5);
  });

  it('is within 1e-4·F·(total quantity) + 3 standard errors of the 10⁶-path Monte Carlo on every row', () => {
    for (const row of accumulatorRows) {
      const Q = row.quantityPerDay * row.days.length;
      expect(Math.abs(accumulatorOf(row).price - row.price)).toBeLessThanOrEqual(1e-4 * row.F * Q + 3 * row.se);
    }
  });

  it('has Greeks within 1% of bumped prices', () => {
    for (const row of accumulatorRows) {
      const Q = row.quantityPerDay * row.days.length;
      const ref = bumped((o) => accumulatorOf(row, o).price, row.F, row.sigma, row.days.at(-1)! / 365);
      expectGreeks(accumulatorOf(row), ref, {
        delta: 1e-5 * Q,
        gamma: (1e-7 * Q) / row.F,
        vega: 1e-5 * Q * row.F,
        theta: 1e-5 * Q * row.F,
      });
    }
  });

  it('pays exactly the issue’s schedule on a one-day structure', () => {
    // One observation: the value is the expectation of the day's payment, by direct numerical integration.
    const F = 100;
    const sigma = 0.3;
    const t = 1 / 365;
    const s = sigma * Math.sqrt(t);
    const K = 99;
    const H = 101;
    const L = 2;
    const pay = (x: number) => (x >= H ? H - K : x >= K ? x - K : L * (x - K));
    let expected = 0;
    for (let z = -9; z <= 9; z += 1e-4) {
      expected += pay(F * Math.exp(s * z - 0.5 * s * s)) * Math.exp(-0.5 * z * z) * 1e-4;
    }
    expected /= Math.sqrt(2 * Math.PI);
    const v = accumulator({ F, K, barrier: H, leverage: L, quantityPerDay: 1, side: 'buy', sigma, r: 0, times: [t] });
    expect(v.price).toBeCloseTo(expected, 6);
  });

  it('solves the zero-cost strike', () => {
    for (const row of accumulatorRows.slice(0, 8)) {
      const { K: _K, ...rest } = { ...row, times: times(row.days) };
      const K = zeroCostStrike({ ...rest, sigma: row.sigma });
      expect(row.side === 'buy' ? K < row.barrier : K > row.barrier).toBe(true);
      const Q = row.quantityPerDay * row.days.length;
      expect(Math.abs(accumulatorOf(row, { K }).price)).toBeLessThan(1e-8 * row.F * Q);
    }
  });
});

describe('Greeks against the Monte Carlo references, bumped on common random numbers', () => {
  // The reference is a central difference (F ± 1 %, σ ± 0.01); the engine's Greek is held to it within 1 % plus 3 of
  // its standard errors plus the difference itself makes (the engine's own central difference over the same bump).
  const engines = {
    asian: (i: number, o: { F?: number; sigma?: number } = {}) => asianOf(asianRows[i]!, o),
    barrier: (i: number, o: { F?: number; sigma?: number } = {}) => barrierOf(barrierRows[i]!, o),
    accumulator: (i: number, o: { F?: number; sigma?: number } = {}) => accumulatorOf(accumulatorRows[i]!, o),
  };
  const rowOf = (engine: keyof typeof engines, i: number) =>
    engine === 'asian' ? asianRows[i]! : engine === 'barrier' ? barrierRows[i]! : accumulatorRows[i]!;

  it('covers every engine', () => {
    for (const e of ['asian', 'barrier', 'accumulator']) expect(greekRows.some((g) => g.engine === e)).toBe(true);
  });

  it('has delta and vega within 1% of the bumped Monte Carlo', () => {
    for (const g of greekRows) {
      const price = engines[g.engine];
      const { F, sigma } = rowOf(g.engine, g.index);
      const v = price(g.index);
      const hF = GREEK_BUMPS.F * F;
      const hS = GREEK_BUMPS.sigma;
      const fdDelta = (price(g.index, { F: F + hF }).price - price(g.index, { F: F - hF }).price) / (2 * hF);
      const fdVega =
        (price(g.index, { sigma: sigma + hS }).price - price(g.index, { sigma: sigma - hS }).price) / (2 * hS);
      const label = `${g.engine} #${g.index}`;
      expect(Math.abs(v.delta - g.delta), `${label} delta`).toBeLessThanOrEqual(
        0.01 * Math.abs(g.delta) + 3 * g.deltaSe + Math.abs(fdDelta - v.delta),
      );
      expect(Math.abs(v.vega - g.vega), `${label} vega`).toBeLessThanOrEqual(
        0.01 * Math.abs(g.vega) + 3 * g.vegaSe + Math.abs(fdVega - v.vega),
      );
    }
  });
});
