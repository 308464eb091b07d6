/**
 * Exact discrete monitoring on a futures price (b = 0): backward induction over the observation dates, each step an
 * integral of the next step's value against the Gaussian transition density of x = ln(F/F₀) (drift −σ²Δt/2).
 *
 * Between observations nothing is monitored, so no continuity correction is needed: the value just after observation
 * i−1 (the structure alive) at x is
 *   C_{i−1}(x) = E_x[P_i(Y)] + ∫_{alive} φ_i(y − x)·C_i(y) dy,   C_n ≡ 0,
 * where P_i is what observation i pays (already discounted), alive or knocked out. Payments are piecewise linear in F
 * between fixed levels (strike, barrier), so E_x[P_i] is in closed form (normal CDFs). The integral runs over a uniform
 * grid anchored on the barrier: C_i is smooth on the alive side up to the barrier, so the trapezoid rule is spectrally
 * accurate inside (h = σ√Δt_min/3) and the barrier end takes Gregory's end weights of order 6. The
 * grid reaches Z standard deviations of the whole horizon beyond the current price; the kernel is cut at Z of a step.
 */
import { normCdf } from '../normal.js';

/** A payment piecewise linear in F: on the k-th interval between `breaks` (ascending) it pays a[k] + b[k]·F. */
export interface Piecewise {
  breaks: readonly number[];
  a: readonly number[];
  b: readonly number[];
}

export interface Monitored {
  F: number;
  sigma: number;
  /** Observation times in years, increasing, all > 0. */
  times: readonly number[];
  /** Level beyond which the structure ends (at an observation). */
  barrier: number;
  /** true: alive while F < barrier (an up barrier); false: alive while F > barrier. */
  up: boolean;
  /** What observation i (0-based) pays, discounted to today, on the whole line. */
  payment: (i: number) => Piecewise;
}

/** Standard deviations kept (the mass beyond is 2e-9 of the whole) and grid points per standard deviation of
 * the shortest step; settable so that the tests can show the answer has converged. */
export const latticeSettings = { Z: 6, pointsPerSd: 3, order: 6 };
/**
 * Gregory end weights of order p for a rule starting at a node (the barrier): w_j = 1 + e_j for j < p, with the e_j
 * making the rule exact on polynomials of degree < p (Euler–Maclaurin: Σ e_j·j^d = −½ for d = 0, B_{d+1}/(d+1) for
 * odd d, 0 for even d > 0). p = 3 gives the classic 3/8, 7/6, 23/24.
 */
export function gregoryWeights(p: number): number[] {
  const bernoulli = [1, -1 / 2, 1 / 6, 0, -1 / 30, 0, 1 / 42, 0, -1 / 30, 0, 5 / 66, 0, -691 / 2730];
  const A = Array.from({ length: p }, (_, d) => Array.from({ length: p }, (_, j) => j ** d));
  const rhs = Array.from({ length: p }, (_, d) => (d === 0 ? -0.5 : d % 2 === 1 ? bernoulli[d + 1]! / (d + 1) : 0));
  // Gaussian elimination with partial pivoting (p ≤ 10).
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[piv]![c]!)) piv = r;
    [A[c], A[piv]] = [A[piv]!, A[c]!];
    [rhs[c], rhs[piv]] = [rhs[piv]!, rhs[c]!];
    for (let r = c + 1; r < p; r++) {
      const f = A[r]![c]! / A[c]![c]!;
      for (let k = c; k < p; k++) A[r]![k]! -= f * A[c]![k]!;
      rhs[r]! -= f * rhs[c]!;
    }
  }
  const e = new Array<number>(p).fill(0);
  for (let r = p - 1; r >= 0; r--) {
    let acc = rhs[r]!;
    for (let k = r + 1; k < p; k++) acc -= A[r]![k]! * e[k]!;
    e[r] = acc / A[r]![r]!;
  }
  return e.map((v) => 1 + v);
}
const GREGORY = gregoryWeights(latticeSettings.order);

/** Piecewise linear payment from its value as a function of F: the pieces are read at one point inside each. */
export function piecewise(breaks: number[], pays: (F: number) => [number, number]): Piecewise {
  const levels = [...new Set(breaks)].sort((x, y) => x - y);
  const a: number[] = [];
  const b: number[] = [];
  for (let k = 0; k <= levels.length; k++) {
    const lo = k === 0 ? 0 : levels[k - 1]!;
    const hi = k === levels.length ? 2 * levels[levels.length - 1]! + 1 : levels[k]!;
    const [ak, bk] = pays(0.5 * (lo + hi));
    a.push(ak);
    b.push(bk);
  }
  return { breaks: levels, a, b };
}

/** ln(level/F₀) of each break, and whether the payment is zero everywhere (then there is nothing to integrate). */
function prepared(p: Piecewise, F0: number) {
  const logBreaks = p.breaks.map((level) => Math.log(level / F0));
  const zero = p.a.every((v) => v === 0) && p.b.every((v) => v === 0);
  return { p, logBreaks, zero };
}

/** E[P(F₀e^Y)] for Y ~ N(x − s²/2, s²). */
export function expectPiecewise(p: Piecewise, F0: number, x: number, s: number): number {
  return expectPrepared(prepared(p, F0), F0, x, s);
}

function expectPrepared(q: ReturnType<typeof prepared>, F0: number, x: number, s: number): number {
  if (q.zero) return 0;
  const { p, logBreaks } = q;
  const m = x - 0.5 * s * s;
  const fx = F0 * Math.exp(x);
  const reach = 9 * s; // beyond, Φ is 0 or 1 to double precision
  let total = 0;
  let prevP = 0; // P(Y < lower end of the interval), and E[F·1{Y < lower end}]/F(x)
  let prevQ = 0;
  const n = logBreaks.length;
  for (let k = 0; k <= n; k++) {
    let P = 1;
    let Q = 1;
    if (k < n) {
      const d = logBreaks[k]! - m;
      if (d <= -reach) P = Q = 0;
      else if (d < reach) {
        const u = d / s;
        P = normCdf(u);
        Q = normCdf(u - s);
      }
    }
    const ak = p.a[k]!;
    const bk = p.b[k]!;
    if (ak !== 0) total += ak * (P - prevP);
    if (bk !== 0) total += bk * fx * (Q - prevQ);
    prevP = P;
    prevQ = Q;
  }
  return total;
}

export interface LatticeResult {
  /** Value at F and at F·e^{±δ}. */
  value: number;
  up: number;
  down: number;
  delta: number;
}

/** The grid spacing in ln F: a third of the shortest step's standard deviation. */
export function gridStep(sigma: number, times: readonly number[]): number {
  let dtMin = Infinity;
  for (let i = 1; i < times.length; i++) dtMin = Math.min(dtMin, times[i]! - times[i - 1]!);
  if (!(dtMin < Infinity)) dtMin = times[0] ?? 1;
  return (sigma * Math.sqrt(dtMin)) / latticeSettings.pointsPerSd;
}

/** Value of a monitored structure today, on the grid spacing `h` (fixed by the caller so that bumped runs share it). */
export function monitoredValue(spec: Monitored, h: number): LatticeResult {
  const { F, sigma, times, barrier, up } = spec;
  const Z = latticeSettings.Z;
  const n = times.length;
  const dir = up ? -1 : 1; // alive nodes run from the barrier in this direction
  const b = Math.log(barrier / F);
  const sdAll = sigma * Math.sqrt(times[n - 1]!);
  const s1 = sigma * Math.sqrt(times[0]!);
  const delta = 0.01 * s1;
  const xs = [0, delta, -delta];
  const out: [number, number, number] = [0, 0, 0];
  const first = prepared(spec.payment(0), F);
  for (let q = 0; q < 3; q++) out[q] = expectPrepared(first, F, xs[q]!, s1);
  if (n > 1) {
    // Grid: x_j = b + dir·j·h for j = j0..j1 (alive side); j0 > 0 when the barrier is out of reach.
    const dist = dir * (0 - b); // distance from the barrier to today's price, on the alive side (> 0 when alive)
    const j0 = Math.max(0, Math.floor((dist - Z * sdAll) / h));
    const j1 = Math.ceil((dist + Z * sdAll) / h);
    const M = j1 - j0 + 1;
    const w = new Float64Array(M).fill(h);
    if (j0 === 0) {
      const greg = latticeSettings.order === GREGORY.length ? GREGORY : gregoryWeights(latticeSettings.order);
      for (let g = 0; g < greg.length && g < M; g++) w[g] = h * greg[g]!;
    }
    const x = new Float64Array(M);
    for (let j = 0; j < M; j++) x[j] = b + dir * (j0 + j) * h;
    const centre = dist / h - j0; // today's price, in node units
    let C = new Float64Array(M);
    let next = new Float64Array(M);
    const wc = new Float64Array(M);
    const pw = new Float64Array(M);
    for (let i = n - 1; i >= 1; i--) {
      const dt = times[i]! - times[i - 1]!;
      const s = sigma * Math.sqrt(dt);
      const mu = -0.5 * s * s;
      const pay = prepared(spec.payment(i), F);
      // Only the nodes within Z standard deviations of today's price at t_{i−1} can matter; the rest stay 0.
      const half = (Z * sigma * Math.sqrt(times[i - 1]!)) / h + 2;
      const rlo = Math.max(0, Math.floor(centre - half));
      const rhi = Math.min(M - 1, Math.ceil(centre + half));
      next.fill(0);
      if (!pay.zero) for (let j = rlo; j <= rhi; j++) next[j] = expectPrepared(pay, F, x[j]!, s);
      if (i < n - 1) {
        // Toeplitz kernel: node k seen from node j is at x_k − x_j = dir·(k − j)·h, density
        // A·g(k − j)·ρ^(k−j) with g(d) = exp(−d²h²/2s²) even and ρ = exp(dir·h·μ/s²): with u_k = ρ^k·w_k·C_k the sum is
        // A·ρ^(−j)·Σ_d g(d)·(u_{j+d} + u_{j−d}), half the multiplications.
        const B = Math.min(M - 1, Math.ceil((Z * s) / h) + 1);
        const g = new Float64Array(B + 1);
        for (let d = 0; d <= B; d++) {
          const z = (d * h) / s;
          g[d] = Math.exp(-0.5 * z * z);
        }
        const A = Math.exp((-0.5 * mu * mu) / (s * s)) / (s * 2.5066282746310002);
        const lnRho = (dir * h * mu) / (s * s);
        for (let k = 0; k < M; k++) {
          pw[k] = Math.exp(lnRho * k);
          wc[k] = w[k]! * C[k]! * pw[k]!;
        }
        for (let j = rlo; j <= rhi; j++) {
          const up = Math.min(B, M - 1 - j);
          const both = Math.min(up, j);
          let acc = g[0]! * wc[j]!;
          for (let d = 1; d <= both; d++) acc += g[d]! * (wc[j + d]! + wc[j - d]!);
          for (let d = both + 1; d <= up; d++) acc += g[d]! * wc[j + d]!;
          const down = Math.min(B, j);
          for (let d = both + 1; d <= down; d++) acc += g[d]! * wc[j - d]!;
          next[j] = next[j]! + (A * acc) / pw[j]!;
        }
      }
      const t = C;
      C = next;
      next = t;
    }
    // Today: the first interval from the grid of C_1, at today's price and its two neighbours.
    for (let k = 0; k < M; k++) wc[k] = w[k]! * C[k]!;
    const integrate = (x0: number, s: number) => {
      const mu = -0.5 * s * s;
      const norm = 1 / (s * 2.5066282746310002);
      // Cut far out: gamma divides this integral's changes by (0.01·s)², so a cut within reach would show.
      const reach = 12 * s;
      let acc = 0;
      for (let k = 0; k < M; k++) {
        const d = x[k]! - x0 - mu;
        if (d > reach || d < -reach) continue;
        const z = d / s;
        acc += norm * Math.exp(-0.5 * z * z) * wc[k]!;
      }
      return acc;
    };
    for (let q = 0; q < 3; q++) out[q] = out[q]! + integrate(xs[q]!, s1);
  }
  return { value: out[0]!, up: out[1]!, down: out[2]!, delta };
}

/**
 * Price and the Greeks from one run plus two at σ ± dσ on the same grid (central: a knock-in is a vanilla less a
 * knock-out, and a one-sided difference's error would not cancel). Theta comes from the pricing equation: between
 * observations the value solves ∂V/∂t + ½σ²F²·∂²V/∂F² − rV = 0 (payments discounted at r).
 */
export function monitoredGreeks(spec: Monitored, r: number) {
  const h = gridStep(spec.sigma, spec.times);
  const base = monitoredValue(spec, h);
  const dSigma = 1e-4 * spec.sigma;
  const volUp = monitoredValue({ ...spec, sigma: spec.sigma + dSigma }, h).value;
  const volDown = monitoredValue({ ...spec, sigma: spec.sigma - dSigma }, h).value;
  const { value, up, down, delta: d } = base;
  // Derivatives in x = ln F, then in F: V_F = V_x/F, V_FF = (V_xx − V_x)/F².
  const vx = (up - down) / (2 * d);
  const vxx = (up - 2 * value + down) / (d * d);
  const F = spec.F;
  return {
    price: value,
    delta: vx / F,
    gamma: (vxx - vx) / (F * F),
    vega: (volUp - volDown) / (2 * dSigma),
    theta: r * value - 0.5 * spec.sigma * spec.sigma * (vxx - vx),
  };
}
