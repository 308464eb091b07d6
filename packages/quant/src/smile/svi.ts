/**
 * Raw SVI (Gatheral 2004) for one expiry: total implied variance w(k) = a + b(ρ(k − m) + √((k − m)² + σ²)) at
 * log-moneyness k = ln(K/F). Fitted to a chain's implied vols under the no-butterfly-arbitrage condition of
 * Gatheral & Jacquier (2014): g(k) ≥ 0 (the implied density is non-negative), w > 0, and Roger Lee's wing bound
 * b(1 + |ρ|) ≤ 2 (g's limit in both wings is 1/4 − b²(1 ± ρ)²/16). docs/smile.md.
 */
import { nelderMead } from './nelderMead.js';

export interface SviParams {
  a: number;
  b: number;
  rho: number;
  m: number;
  sigma: number;
}

/** A market point: log-moneyness and implied vol (a fraction). */
export interface SmilePoint {
  k: number;
  vol: number;
}

export interface SviFit {
  params: SviParams;
  /** Years to expiry the vols are quoted for. */
  T: number;
  /** Root-mean-square and largest absolute difference between the fitted and the market vols (fractions). */
  rmse: number;
  maxError: number;
  /** The fitter's evaluations of the objective (both stages). */
  evaluations: number;
  /** The constrained fit still failed the check and the slice is flat at the at-the-money total variance. */
  flat: boolean;
}

export function sviW(p: SviParams, k: number): number {
  const y = k - p.m;
  return p.a + p.b * (p.rho * y + Math.sqrt(y * y + p.sigma * p.sigma));
}

/** w, w′ and w″ at k. */
export function sviDerivatives(p: SviParams, k: number): [number, number, number] {
  const y = k - p.m;
  const r = Math.sqrt(y * y + p.sigma * p.sigma);
  return [p.a + p.b * (p.rho * y + r), p.b * (p.rho + y / r), (p.b * p.sigma * p.sigma) / (r * r * r)];
}

/** Gatheral–Jacquier's g(k): the risk-neutral density is g(k)/√(2πw)·exp(−d₋²/2), so g ≥ 0 means no butterfly. */
export function gFunction(w: number, w1: number, w2: number, k: number): number {
  const u = 1 - (k * w1) / (2 * w);
  return u * u - ((w1 * w1) / 4) * (1 / w + 0.25) + w2 / 2;
}

/** Roger Lee's bound on the wings' slopes, which is also where g's limit 1/4 − slope²/16 stays ≥ 0. */
export const MAX_WING_SLOPE = 2;

/** The smallest g on `grid`, the smallest w there, and whether the wings keep Lee's bound. */
export function butterflyCheck(p: SviParams, grid: readonly number[]) {
  let minG = Infinity;
  let minW = Infinity;
  for (const k of grid) {
    const [w, w1, w2] = sviDerivatives(p, k);
    minW = Math.min(minW, w);
    minG = Math.min(minG, w > 0 ? gFunction(w, w1, w2, k) : -Infinity);
  }
  const wings = p.b * (1 + Math.abs(p.rho)) <= MAX_WING_SLOPE;
  return { minG, minW, wings, ok: minG >= 0 && minW > 0 && wings };
}

const linspace = (lo: number, hi: number, n: number) =>
  Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));

/** The k-range a slice is checked on: far beyond the quotes (SVI's wings are linear out there). */
export function checkGrid(points: readonly SmilePoint[], n = 4001): number[] {
  const ks = points.map((p) => p.k);
  const lo = Math.min(...ks);
  const hi = Math.max(...ks);
  const span = Math.max(hi - lo, 0.05);
  return linspace(lo - 4 * span - 2, hi + 4 * span + 2, n);
}

/** a, bρ, b for fixed (m, σ) by least squares in total variance (Zeliade's quasi-explicit step), clamped. */
function innerLinear(ks: readonly number[], ws: readonly number[], m: number, sigma: number): SviParams {
  // Normal equations for w ≈ a + d·y + c·z, y = k − m, z = √(y² + σ²).
  const A = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const rhs = [0, 0, 0];
  for (let i = 0; i < ks.length; i++) {
    const y = ks[i]! - m;
    const v = [1, y, Math.sqrt(y * y + sigma * sigma)];
    for (let r = 0; r < 3; r++) {
      rhs[r]! += v[r]! * ws[i]!;
      for (let c = 0; c < 3; c++) A[r]![c]! += v[r]! * v[c]!;
    }
  }
  const sol = solve3(A, rhs);
  const b = Math.max(sol?.[2] ?? 0, 1e-6);
  const rho = Math.max(-0.99, Math.min(0.99, (sol?.[1] ?? 0) / b));
  return { a: sol?.[0] ?? mean(ws), b, rho, m, sigma };
}

function solve3(A: number[][], y: number[]): number[] | undefined {
  const M = A.map((row, i) => [...row, y[i]!]);
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (Math.abs(M[p]![c]!) < 1e-300) return undefined;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let j = c; j < 4; j++) M[r]![j]! -= f * M[c]![j]!;
    }
  }
  return [M[0]![3]! / M[0]![0]!, M[1]![3]! / M[1]![1]!, M[2]![3]! / M[2]![2]!];
}

const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / a.length;

const toParams = (x: readonly number[]): SviParams => ({
  a: x[0]!,
  b: Math.exp(x[1]!),
  rho: Math.tanh(x[2]!),
  m: x[3]!,
  sigma: Math.exp(x[4]!),
});

/** g is held this far above 0 on the fitter's grid, so the denser check grid finds it ≥ 0 too. */
const G_MARGIN = 1e-3;

/** The fewest market points a slice is fitted to (SVI has five parameters). */
export const MIN_POINTS = 5;

/**
 * Fits raw SVI to one expiry's points, least squares in vol, with the no-arbitrage conditions as penalties on a
 * grid reaching beyond the quotes; the result is checked on a denser, wider grid and replaced by a flat slice
 * (at-the-money total variance, trivially arbitrage-free) in the rare case it still fails. Undefined with fewer
 * than MIN_POINTS points.
 */
export function fitSvi(points: readonly SmilePoint[], T: number): SviFit | undefined {
  const pts = points.filter((p) => Number.isFinite(p.k) && p.vol > 0 && Number.isFinite(p.vol));
  if (pts.length < MIN_POINTS || !(T > 0)) return undefined;
  const ks = pts.map((p) => p.k);
  const ws = pts.map((p) => p.vol * p.vol * T);
  const lo = Math.min(...ks);
  const hi = Math.max(...ks);
  const span = Math.max(hi - lo, 0.02);
  const penaltyGrid = checkGrid(pts, 81);
  const wScale = mean(ws);
  const minSigma = span / (4 * pts.length);
  // The vertex near the quotes and the curvature's reach a few spans at most: the wings are then straight well
  // inside the checked grid.
  const maxSigma = Math.max(1, 4 * span);

  // Stage 1: (m, ln σ) by Nelder–Mead, a, bρ, b by least squares in w.
  const sse = (p: SviParams) => {
    let s = 0;
    for (let i = 0; i < ks.length; i++) {
      const d = sviW(p, ks[i]!) - ws[i]!;
      s += d * d;
    }
    return s;
  };
  let stage1 = { x: [0, Math.log(span / 2)], value: Infinity, evaluations: 0 };
  for (const m0 of [lo + 0.5 * span, lo + 0.25 * span, lo + 0.75 * span]) {
    const r = nelderMead((x) => sse(innerLinear(ks, ws, x[0]!, Math.exp(x[1]!))), [m0, Math.log(span / 3)], {
      step: [span / 4, 0.7],
      maxEvaluations: 300,
      tolerance: 1e-10,
    });
    if (r.value < stage1.value) stage1 = { ...r, evaluations: stage1.evaluations + r.evaluations };
    else stage1.evaluations += r.evaluations;
  }
  const clampedInit = (m: number, sigma: number) =>
    innerLinear(
      ks,
      ws,
      Math.max(lo - 2 * span, Math.min(hi + 2 * span, m)),
      Math.max(Math.min(sigma, maxSigma), minSigma),
    );
  const vertex = pts.reduce((a, p) => (p.vol < a.vol ? p : a)).k;
  // Starts: stage 1's optimum, and wide vertices at the smile's lowest point (a near-parabolic smile wants a large σ).
  const inits = [
    clampedInit(stage1.x[0]!, Math.exp(stage1.x[1]!)),
    ...[0.5 * span, 2 * span, maxSigma].map((sg) => clampedInit(vertex, sg)),
  ];

  // Stage 2: all five parameters, least squares in vol, the conditions as penalties on `grid`.
  const objectiveOn = (grid: readonly number[], margin: number) => (x: number[]) => {
    const p = toParams(x);
    let s = 0;
    for (let i = 0; i < ks.length; i++) {
      const w = sviW(p, ks[i]!);
      const d = Math.sqrt(Math.max(w, 0) / T) - pts[i]!.vol;
      s += d * d;
    }
    s /= ks.length;
    let pen = 0;
    const wMin = p.a + p.b * p.sigma * Math.sqrt(1 - p.rho * p.rho);
    if (wMin < 1e-3 * wScale) pen += ((1e-3 * wScale - wMin) / wScale) ** 2;
    const wing = p.b * (1 + Math.abs(p.rho)) - 0.98 * MAX_WING_SLOPE;
    if (wing > 0) pen += wing * wing;
    if (p.sigma < minSigma) pen += ((minSigma - p.sigma) / minSigma) ** 2;
    if (p.sigma > maxSigma) pen += ((p.sigma - maxSigma) / span) ** 2;
    if (p.m < lo - 2 * span) pen += ((lo - 2 * span - p.m) / span) ** 2;
    if (p.m > hi + 2 * span) pen += ((p.m - hi - 2 * span) / span) ** 2;
    for (const k of grid) {
      const [w, w1, w2] = sviDerivatives(p, k);
      const g = w > 0 ? gFunction(w, w1, w2, k) : -1;
      // Linear (exact) penalty with a margin, so the optimum does not trade a little arbitrage for fit.
      if (g < margin) pen += margin - g;
    }
    return s + pen;
  };
  const objective = objectiveOn(penaltyGrid, G_MARGIN);
  const toX = (p: SviParams) => [p.a, Math.log(p.b), Math.atanh(p.rho), p.m, Math.log(Math.max(p.sigma, minSigma))];
  let evaluations = stage1.evaluations;
  const run = (x: readonly number[], objectiveFn: (x: number[]) => number) => {
    let r = nelderMead(objectiveFn, x, { step: [0.1 * wScale, 0.3, 0.3, span / 8, 0.3], maxEvaluations: 1000 });
    // A restart from the end point lets the simplex leave a collapsed shape.
    const again = nelderMead(objectiveFn, r.x, {
      step: [0.05 * wScale, 0.15, 0.15, span / 16, 0.15],
      maxEvaluations: 600,
    });
    evaluations += r.evaluations + again.evaluations;
    if (again.value < r.value) r = again;
    return r;
  };
  // The two most promising starts, each run in full.
  const starts = inits
    .map((p) => toX(p))
    .map((x) => ({ x, value: objective(x) }))
    .sort((a, b) => a.value - b.value)
    .slice(0, 2);
  let best = starts.map((st) => run(st.x, objective)).reduce((a, b) => (b.value < a.value ? b : a));
  // A dip of g between the coarse grid's points: once more on a finer grid with a wider margin.
  const dense = checkGrid(pts);
  if (!butterflyCheck(toParams(best.x), dense).ok) best = run(best.x, objectiveOn(checkGrid(pts, 801), 10 * G_MARGIN));

  let params = toParams(best.x);
  let flat = false;
  if (!butterflyCheck(params, dense).ok) {
    flat = true;
    const atm = pts.reduce((a, p) => (Math.abs(p.k) < Math.abs(a.k) ? p : a));
    params = { a: atm.vol * atm.vol * T, b: 0, rho: 0, m: 0, sigma: 1 };
  }
  const errors = pts.map((p) => Math.sqrt(sviW(params, p.k) / T) - p.vol);
  return {
    params,
    T,
    rmse: Math.sqrt(mean(errors.map((e) => e * e))),
    maxError: Math.max(...errors.map(Math.abs)),
    evaluations,
    flat,
  };
}
