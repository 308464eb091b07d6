/**
 * American options on futures (cost of carry b = 0): the method of L. Andersen, M. Lake & D. Offengenden, "High
 * performance American option pricing" (J. Comp. Finance 2016), as in QuantLib's QdFpAmericanEngine.
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
import { black76ImpliedVol, black76Price } from './black76.js';
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
function upperTail(a: number, g: number): number {
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
  const h = 8 * r / (sigma2 * oneMinusDr);
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

/** The production discretisation (see docs/market.md for its accuracy against QuantLib). */
const SCHEME = makeScheme(6, 8, 2, 16);

/** QD+ start at every node, then the sweeps: the boundary for (T, r, σ) in `boundary`. */
function solveBoundary(scheme: Scheme, T: number, r: number, sigma: number, sweeps: number) {
  fillGrowth(scheme, T, r);
  boundary[0] = 0;
  for (let i = 1; i <= scheme.n; i++) {
    const ln = Math.log(qdPlusBoundary(T * scheme.root[i]! * scheme.root[i]!, r, sigma));
    boundary[i] = ln * ln;
  }
  fixedPoint(scheme, T, r, sigma, sweeps, true);
}

/**
 * Put price (K = 1) at spot s from the boundary in `boundary`: intrinsic beyond it, else European + premium. Also
 * leaves the European value in putOut[EUROPEAN].
 */
function putFromBoundary(scheme: Scheme, s: number, T: number, r: number, sigma: number): number {
  const lnS = Math.log(s);
  const european = black76Price(s, 1, T, r, false, sigma);
  putOut[EUROPEAN] = european;
  if (lnS + Math.sqrt(boundary[scheme.n]!) <= 0) return 1 - s; // at or beyond the boundary: exercise now
  const eep = premium(scheme, s, T, r, sigma, lnS);
  return Math.max(european + Math.max(eep, 0), 1 - s);
}

const putOut = new Float64Array(1);
const EUROPEAN = 0;

/** Exposed for the tests and the benchmark only (not part of the package's entry point). */
export const internals = { makeScheme, SCHEME };

function validInputs(F: number, K: number, T: number, r: number): boolean {
  return F > 0 && K > 0 && F < Infinity && K < Infinity && T >= 0 && T < Infinity && Math.abs(r) < Infinity;
}

/**
 * American option on a futures contract (Andersen–Lake–Offengenden). NaN for non-finite input, F ≤ 0, K ≤ 0, T < 0
 * or σ < 0. With r ≤ 0 early exercise is never optimal and the price is the European one.
 */
export function americanPrice(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): number {
  if (!validInputs(F, K, T, r) || !(sigma >= 0 && sigma < Infinity)) return NaN;
  if (!(r > 0)) return black76Price(F, K, T, r, isCall, sigma);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  if (T === 0 || sigma === 0) return intrinsic;
  // A call on F at K is a put on K at F (b = 0).
  const strike = isCall ? F : K;
  const spot = isCall ? K : F;
  solveBoundary(SCHEME, T, r, sigma, SCHEME.m);
  return Math.max(strike * putFromBoundary(SCHEME, spot / strike, T, r, sigma), intrinsic);
}

const SIGMA_MIN = 1e-4;
const SIGMA_MAX = 10;
/** Absolute σ step below which the secant iteration stops (the goal is 1e-5 against QuantLib). */
const SIGMA_TOLERANCE = 1e-8;

/**
 * Implied volatility of an American option on a futures contract (inverse of americanPrice). NaN when no σ in
 * [1e-4, 10] reproduces the price: below the intrinsic value, at or above F (call) or K (put), T ≤ 0, non-finite or
 * negative input, F ≤ 0 or K ≤ 0. 0 when the price equals the intrinsic value. For r ≤ 0 the option is European and
 * the European implied volatility is returned.
 *
 * The American price is the European one plus the early-exercise premium e(σ), small and smooth in σ. So σ is the
 * root of g(σ) = IV_E(price − e(σ)) − σ (IV_E: the Black-76 implied volatility), which is nearly linear: it starts
 * from the European implied volatility of the whole price and proceeds by secant steps. Each step warm-starts the
 * boundary from the previous σ's, scaled by the leading-order law ln B ∝ σ, and runs one fixed-point sweep.
 */
export function americanImpliedVol(price: number, F: number, K: number, T: number, r: number, isCall: boolean): number {
  if (!(price >= 0 && price < Infinity) || !validInputs(F, K, T, r) || !(T > 0)) return NaN;
  if (!(r > 0)) return black76ImpliedVol(price, F, K, T, r, isCall);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  const strike = isCall ? F : K;
  if (price < intrinsic || price >= strike) return NaN;
  if (price === intrinsic) return 0;
  const spot = isCall ? K : F;
  const s = spot / strike;
  const target = price / strike;
  let sigma = black76ImpliedVol(target, s, 1, T, r, false);
  if (!(sigma >= SIGMA_MIN)) sigma = SIGMA_MIN;
  else if (!(sigma <= SIGMA_MAX)) sigma = SIGMA_MAX;
  solveBoundary(SCHEME, T, r, sigma, SCHEME.m);
  let prevSigma = NaN;
  let prevG = NaN;
  for (let it = 0; it < 12; it++) {
    const put = putFromBoundary(SCHEME, s, T, r, sigma);
    const eep = put - putOut[EUROPEAN]!;
    const next = black76ImpliedVol(target - eep, s, 1, T, r, false);
    if (!(next >= 0)) return bracketed(target, s, T, r);
    const g = next - sigma;
    let step = g;
    if (prevG === prevG && g !== prevG) step = (g * (sigma - prevSigma)) / (prevG - g);
    let candidate = sigma + step;
    if (!(candidate > SIGMA_MIN && candidate < SIGMA_MAX)) candidate = next;
    if (Math.abs(candidate - sigma) <= SIGMA_TOLERANCE) return candidate;
    prevSigma = sigma;
    prevG = g;
    const ratio = candidate / sigma;
    const scale = ratio * ratio;
    for (let i = 1; i <= SCHEME.n; i++) boundary[i] = boundary[i]! * scale;
    sigma = candidate;
    fixedPoint(SCHEME, T, r, sigma, 1, false);
  }
  return bracketed(target, s, T, r);
}

/** Fallback: bisection on the full price over [SIGMA_MIN, SIGMA_MAX] (never needed on the reference table). */
function bracketed(target: number, s: number, T: number, r: number): number {
  let lo = Math.log(SIGMA_MIN);
  let hi = Math.log(SIGMA_MAX);
  const price = (u: number) => {
    const sigma = Math.exp(u);
    solveBoundary(SCHEME, T, r, sigma, SCHEME.m);
    return putFromBoundary(SCHEME, s, T, r, sigma);
  };
  if (price(hi) < target || price(lo) > target) return NaN;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = 0.5 * (lo + hi);
    if (price(mid) < target) lo = mid;
    else hi = mid;
  }
  return Math.exp(0.5 * (lo + hi));
}
