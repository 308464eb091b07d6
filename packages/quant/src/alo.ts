/**
 * The exercise boundary and price of an American put on a futures (cost of carry b = 0, so q = r) by the method of
 * L. Andersen, M. Lake & D. Offengenden, "High performance American option pricing" (J. Comp. Finance 2016), as in
 * QuantLib's QdFpAmericanEngine. boundaryTable.ts tabulates its boundary; american.ts uses it directly outside that
 * table.
 *
 * A call on a futures is a put with spot and strike swapped (McDonald–Schroder symmetry: with q = r it keeps r), so
 * only the put is solved, in units of its strike (K = 1). Its price is the European value plus the early-exercise
 * premium, an integral over the exercise boundary B(τ) (τ: time to expiry):
 *   P = p_E + r·∫₀ᵀ e^{−rt}·[Φ(−d₋(t)) − S·Φ(−d₊(t))] dt,  d± = ln(S/B(T − t))/(σ√t) ± σ√t/2.
 * B is found as the fixed point of the integral equation B(τ) = N(τ, B)/D(τ, B) ("FP-A", the form ALO and QuantLib
 * use when r = q), collocated on the Chebyshev–Lobatto nodes of z = 2√(τ/T) − 1 in the variable H = (ln B)², which
 * is close to linear in τ near expiry. The starting boundary is Li's QD+ approximation (Halley iteration per node);
 * the first fixed-point sweep is a Jacobi–Newton step, the others plain. All integrals are Gauss–Legendre; the
 * interpolation weights of the fixed-point integrals only depend on the node and quadrature point, never on the
 * inputs, so they are computed once.
 */
import { INV_SQRT2, INV_SQRT_TWO_PI, Z_SMALL, erfSmall, erfcxPos } from './normal.js';

// ---------------------------------------------------------------------------------------------------------------
// Quadrature and collocation tables

/** Gauss–Legendre nodes and weights on [−1, 1] (Newton on P_n from the Tricomi guesses). */
function gaussLegendre(n: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let dp = 0;
    for (let it = 0; it < 100; it++) {
      let p0 = 1;
      let p1 = z;
      for (let k = 2; k <= n; k++) {
        const p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      if (n === 1) p0 = 1;
      dp = (n * (z * p1 - p0)) / (z * z - 1);
      const dz = p1 / dp;
      z -= dz;
      if (Math.abs(dz) < 1e-16) break;
    }
    x[n - 1 - i] = z;
    w[n - 1 - i] = 2 / ((1 - z * z) * dp * dp);
  }
  return { x, w };
}

/** A discretisation: n Chebyshev intervals, l points per fixed-point integral, m sweeps, p premium points. */
export interface Scheme {
  readonly n: number;
  readonly l: number;
  readonly m: number;
  readonly p: number;
  /** √(τ_k/T) at the nodes k = 0..n (τ_0 = 0). */
  readonly root: Float64Array;
  /** Per node i = 1..n and point j (index (i−1)·l + j): weight, (1 + y)/2, √(m/T), (τ_i − m)/T. */
  readonly weight: Float64Array;
  readonly half: Float64Array;
  readonly rootM: Float64Array;
  readonly rest: Float64Array;
  /** Interpolation weights of H_1..H_n at the point (index ((i−1)·l + j)·n + k − 1); H_0 = 0 needs none. */
  readonly interp: Float64Array;
  /** Chebyshev coefficients from node values: a_k = Σ_j cheb[k·(n+1) + j]·H_j. */
  readonly cheb: Float64Array;
  readonly premiumX: Float64Array;
  readonly premiumW: Float64Array;
}

export function makeScheme(n: number, l: number, m: number, p: number): Scheme {
  const root = new Float64Array(n + 1);
  const node = new Float64Array(n + 1);
  const bary = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    node[k] = -Math.cos((k * Math.PI) / n);
    root[k] = 0.5 * (1 + node[k]!);
    bary[k] = (k % 2 === 0 ? 1 : -1) * (k === 0 || k === n ? 0.5 : 1);
  }
  const gl = gaussLegendre(l);
  const size = n * l;
  const weight = new Float64Array(size);
  const half = new Float64Array(size);
  const rootM = new Float64Array(size);
  const rest = new Float64Array(size);
  const interp = new Float64Array(size * n);
  for (let i = 1; i <= n; i++) {
    const tauRel = root[i]! * root[i]!;
    for (let j = 0; j < l; j++) {
      const idx = (i - 1) * l + j;
      const y = gl.x[j]!;
      weight[idx] = gl.w[j]!;
      half[idx] = 0.5 * (1 + y);
      rootM[idx] = 0.5 * root[i]! * (1 + y);
      const u = tauRel * (1 - 0.25 * (1 + y) * (1 + y));
      rest[idx] = u;
      // Barycentric Lagrange weights at z = 2√(u/T) − 1.
      const z = 2 * Math.sqrt(u) - 1;
      let sum = 0;
      let exact = -1;
      for (let k = 0; k <= n; k++) {
        if (z === node[k]) exact = k;
        sum += bary[k]! / (z - node[k]!);
      }
      for (let k = 1; k <= n; k++) {
        interp[idx * n + k - 1] = exact >= 0 ? (k === exact ? 1 : 0) : bary[k]! / (z - node[k]!) / sum;
      }
    }
  }
  // DCT-I: a_k = (2/n)·Σ″_j H_j·T_k(z_j), T_k(z_j) = cos(k(n − j)π/n); the end terms (″) are halved, and a_0, a_n too.
  const cheb = new Float64Array((n + 1) * (n + 1));
  for (let k = 0; k <= n; k++) {
    for (let j = 0; j <= n; j++) {
      const c = (2 / n) * Math.cos((k * (n - j) * Math.PI) / n) * (j === 0 || j === n ? 0.5 : 1);
      cheb[k * (n + 1) + j] = k === 0 || k === n ? 0.5 * c : c;
    }
  }
  const pl = gaussLegendre(p);
  return {
    n,
    l,
    m,
    p,
    root,
    weight,
    half,
    rootM,
    rest,
    interp,
    cheb,
    premiumX: pl.x,
    premiumW: pl.w,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Normal distribution with one shared exponential

/** Φ(−a) for a ≥ 0, given g = e^{−a²/2}: Cody's erfcx times the Gaussian the caller needs for φ(a) anyway. */
export function upperTail(a: number, g: number): number {
  return a > Z_SMALL ? 0.5 * g * erfcxPos(a * INV_SQRT2) : 0.5 - 0.5 * erfSmall(a * INV_SQRT2);
}

/** Φ(d) given g = e^{−d²/2}. */
function cdf(d: number, g: number): number {
  return d >= 0 ? 1 - upperTail(d, g) : upperTail(-d, g);
}

// ---------------------------------------------------------------------------------------------------------------
// The put engine (K = 1, q = r > 0)

const MAX_N = 32;
const MAX_POINTS = 64 * 32;
/** H_k = (ln B(τ_k))² at the nodes; H_0 = 0 (B(0⁺) = K when r = q). */
const boundary = new Float64Array(MAX_N + 1);
const nextBoundary = new Float64Array(MAX_N + 1);
/** e^{r(τ_i − m)} at the fixed-point quadrature points, kept while r·T is unchanged. */
const growth = new Float64Array(MAX_POINTS);
const growthKey = new Float64Array([NaN, NaN, NaN]);
const coefficients = new Float64Array(MAX_N + 1);

/**
 * Li's QD+ boundary at time to expiry τ for the put (K = 1, q = r), by Halley's iteration from B = K as in QuantLib's
 * QdPlusAmericanEngine (b = 0 makes ω = 0 and the carry terms vanish).
 */
function qdPlusBoundary(tau: number, r: number, sigma: number): number {
  const sigma2 = sigma * sigma;
  const v = sigma * Math.sqrt(tau);
  const dr = Math.exp(-r * tau);
  const oneMinusDr = -Math.expm1(-r * tau);
  const h = (8 * r) / (sigma2 * oneMinusDr);
  const root = Math.sqrt(1 + h);
  const lambda = 0.5 * (1 - root);
  const lambdaPrime = (2 * r) / (sigma2 * oneMinusDr * oneMinusDr * root);
  const twoLambdaMinusOne = 2 * lambda - 1;
  const alphaOverRDr = 2 / (sigma2 * twoLambdaMinusOne); // α/(r·e^{−rτ})
  const alpha = alphaOverRDr * r * dr;
  const beta = alpha * (1 / oneMinusDr + lambdaPrime / twoLambdaMinusOne) - lambda;
  let x = 1;
  for (let it = 0; it < 20; it++) {
    const lnx = Math.log(x);
    const dp = lnx / v + 0.5 * v;
    const dm = dp - v;
    const g = Math.exp(-0.5 * dp * dp);
    const phiP = g * INV_SQRT_TWO_PI;
    const PhiP = dp >= 0 ? upperTail(dp, g) : 1 - upperTail(-dp, g); // Φ(−d₊)
    const gm = g * x; // e^{−d₋²/2} = e^{−d₊²/2}·S/K
    const PhiM = dm >= 0 ? upperTail(dm, gm) : 1 - upperTail(-dm, gm);
    const npv = dr * (PhiM - x * PhiP);
    const theta = r * npv - (sigma2 * x * dr * phiP) / (2 * v);
    const charm = -dr * (-(phiP * dm) / (2 * tau) + r * PhiP);
    const f = (1 - dr * PhiP) * x - beta * (1 - x - npv) + alphaOverRDr * theta;
    const f1 = 1 - dr * PhiP + (dr * phiP) / v + beta * (1 - dr * PhiP) + alphaOverRDr * charm;
    const gamma = (phiP * dr) / (v * x);
    const colour = gamma * (r + (1 - dp * dm) / (2 * tau));
    const f2 = dr * (phiP / (x * v) - (phiP * dp) / (x * v * v)) + beta * gamma + alphaOverRDr * colour;
    const lf = (f * f2) / (f1 * f1);
    const step = f / f1 / (1 - 0.5 * lf);
    const next = Math.max(1e-12, x - step);
    const done = Math.abs(next - x) < 1e-9 * x;
    x = next;
    if (done) break;
  }
  return x;
}

/**
 * Fixed-point sweeps on the node values in `boundary`. The first sweep is the Jacobi–Newton one of ALO (§4.4) when
 * `newton` is set.
 */
function fixedPoint(scheme: Scheme, T: number, r: number, sigma: number, sweeps: number, newton: boolean) {
  const { n, l, weight, half, rootM, interp, root } = scheme;
  const sqrtT = Math.sqrt(T);
  const sigmaRootT = sigma * sqrtT;
  for (let sweep = 0; sweep < sweeps; sweep++) {
    for (let i = 1; i <= n; i++) {
      const lnb = -Math.sqrt(boundary[i]!);
      const sqrtTau = sqrtT * root[i]!;
      const tau = sqrtTau * sqrtTau;
      const v = sigma * sqrtTau;
      const stv = sqrtTau / sigma;
      let k12 = 0;
      let k3 = 0;
      const base = (i - 1) * l;
      for (let j = 0; j < l; j++) {
        const idx = base + j;
        let hu = 0;
        const row = idx * n;
        for (let k = 0; k < n; k++) hu += interp[row + k]! * boundary[k + 1]!;
        const x = lnb + Math.sqrt(hu > 0 ? hu : 0); // ln(b/B(τ − m))
        const vm = sigmaRootT * rootM[idx]!;
        const dp = x / vm + 0.5 * vm;
        const g = Math.exp(-0.5 * dp * dp);
        const phiP = g * INV_SQRT_TWO_PI;
        const wg = weight[idx]! * growth[idx]!;
        k12 += wg * (tau * half[idx]! * cdf(dp, g) + stv * phiP);
        k3 += wg * stv * phiP * Math.exp(x);
      }
      const dp = lnb / v + 0.5 * v;
      const dm = dp - v;
      const g = Math.exp(-0.5 * dp * dp);
      const phiP = g * INV_SQRT_TWO_PI;
      const b = Math.exp(lnb);
      const phiM = phiP * b;
      const N = phiM / v + r * k3;
      const D = phiP / v + cdf(dp, g) + r * k12;
      const fv = N / D;
      let next = fv;
      if (newton && sweep === 0) {
        const nd = (-phiM * dm) / (b * v * v);
        const dd = (phiP * (1 - dp / v)) / (b * v);
        const fd = nd / D - (dd * N) / (D * D);
        next = b - (fv - b) / (fd - 1);
        if (!(next > 0 && next < 1)) next = fv;
      }
      const ln = Math.log(next);
      nextBoundary[i] = ln * ln;
    }
    for (let i = 1; i <= n; i++) boundary[i] = nextBoundary[i]!;
  }
}

function fillGrowth(scheme: Scheme, T: number, r: number) {
  if (growthKey[0] === r && growthKey[1] === T && growthKey[2] === scheme.n * 1000 + scheme.l) return;
  const rT = r * T;
  const { rest } = scheme;
  for (let idx = 0; idx < rest.length; idx++) growth[idx] = Math.exp(rT * rest[idx]!);
  growthKey[0] = r;
  growthKey[1] = T;
  growthKey[2] = scheme.n * 1000 + scheme.l;
}

/** Chebyshev coefficients of H from the node values. */
function fitCoefficients(scheme: Scheme) {
  const { n, cheb } = scheme;
  for (let k = 0; k <= n; k++) {
    let a = 0;
    for (let j = 1; j <= n; j++) a += cheb[k * (n + 1) + j]! * boundary[j]!;
    coefficients[k] = a;
  }
}

/** H at z ∈ [−1, 1] (Clenshaw). */
function evalH(n: number, z: number): number {
  let b1 = 0;
  let b2 = 0;
  const z2 = 2 * z;
  for (let k = n; k >= 1; k--) {
    const t = z2 * b1 - b2 + coefficients[k]!;
    b2 = b1;
    b1 = t;
  }
  return z * b1 - b2 + coefficients[0]!;
}

/**
 * Early-exercise premium of the put (K = 1) at spot s from the current boundary: r·T·∫₀¹ 2w·e^{−rTw²}·[Φ(−d₋) −
 * s·Φ(−d₊)] dw with t = T·w². When s is just above B(T) the integrand switches on at w ≈ ln(s/B(T))/(σ√T), which
 * can be far inside [0, 1]: the interval is then split there so that both parts are smooth on their scale.
 */
function premium(scheme: Scheme, s: number, T: number, r: number, sigma: number, lnS: number): number {
  fitCoefficients(scheme);
  const { n, premiumX, premiumW, p } = scheme;
  const sqrtT = Math.sqrt(T);
  const x0 = lnS + Math.sqrt(boundary[n]!);
  const edge = x0 / (sigma * sqrtT);
  const split = edge < 0.25 ? 4 * edge : 1;
  let sum = 0;
  for (let part = 0; part < (split < 1 ? 2 : 1); part++) {
    const lo = part === 0 ? 0 : split;
    const hi = part === 0 ? split : 1;
    const c = 0.5 * (hi - lo);
    let acc = 0;
    for (let j = 0; j < p; j++) {
      const w = lo + c * (1 + premiumX[j]!);
      const t = T * w * w;
      const zc = 2 * Math.sqrt(1 - w * w) - 1;
      const h = evalH(n, zc);
      const lnB = -Math.sqrt(h > 0 ? h : 0);
      const x = lnS - lnB;
      const v = sigma * sqrtT * w;
      const dp = x / v + 0.5 * v;
      const dm = dp - v;
      const gp = Math.exp(-0.5 * dp * dp);
      const gm = gp * Math.exp(x);
      const tailM = dm >= 0 ? upperTail(dm, gm) : 1 - upperTail(-dm, gm);
      const tailP = dp >= 0 ? upperTail(dp, gp) : 1 - upperTail(-dp, gp);
      acc += premiumW[j]! * w * Math.exp(-r * t) * (tailM - s * tailP);
    }
    sum += c * acc;
  }
  return 2 * r * T * sum;
}

/** QD+ start at every node, then `sweeps` fixed-point sweeps (the first Jacobi–Newton): the boundary for (T, r, σ). */
export function solveBoundary(scheme: Scheme, T: number, r: number, sigma: number, sweeps: number) {
  fillGrowth(scheme, T, r);
  boundary[0] = 0;
  for (let i = 1; i <= scheme.n; i++) {
    const ln = Math.log(qdPlusBoundary(T * scheme.root[i]! * scheme.root[i]!, r, sigma));
    boundary[i] = ln * ln;
  }
  fixedPoint(scheme, T, r, sigma, sweeps, true);
}

/** H = (ln B/K)² at τ = T after solveBoundary. */
export function boundaryAtExpiry(scheme: Scheme): number {
  return boundary[scheme.n]!;
}

/**
 * ALO early-exercise premium of the put (K = 1, r > 0, σ > 0, T > 0) at spot s, solving the boundary first; −1 when s
 * is at or beyond the boundary (exercise now: the put is worth 1 − s).
 */
export function aloPremium(scheme: Scheme, s: number, T: number, r: number, sigma: number): number {
  solveBoundary(scheme, T, r, sigma, scheme.m);
  const lnS = Math.log(s);
  if (lnS + Math.sqrt(boundary[scheme.n]!) <= 0) return -1;
  return Math.max(premium(scheme, s, T, r, sigma, lnS), 0);
}
