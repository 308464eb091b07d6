// The former American engine (Barone-Adesi–Whaley, b = 0), kept only so that the benchmark can print its accuracy
// and cost beside the Andersen–Lake–Offengenden engine that replaced it (src/american.ts). Not exported.
/**
 * American options on futures: Barone-Adesi & Whaley (1987) quadratic approximation with cost of carry b = 0.
 *
 * For b = 0 the early-exercise premium of a call is A·(F/F*)^{q₂} below the critical futures price F*, where
 *   q₂ = (1 + √(1 + 4M/k))/2,  M = 2r/σ²,  k = 1 − e^{−rT},
 * (q₁ = (1 − √(1 + 4M/k))/2 < 0 and F** < K for a put), and the option is worth its intrinsic value beyond it.
 * The premium is written in value-matching form, (exercise value − European value)(F*)·(F/F*)^q: its derivative in
 * F* vanishes exactly at BAW's smooth-pasting boundary, so the price is insensitive (second order) to the residual
 * error of the boundary iteration and stays smooth in σ, which the implied volatility solver relies on.
 */
import { black76ImpliedVol, black76Price, internals } from '../src/black76.js';
import { INV_SQRT2, erfc } from '../src/normal.js';

const { otmBlack, vega } = internals;

const SIGMA_MIN = 1e-6;
const SIGMA_MAX = 10;
const LN_SIGMA_MIN = Math.log(SIGMA_MIN);
const LN_SIGMA_MAX = Math.log(SIGMA_MAX);
const DBL_EPSILON = 2.220446049250313e-16;

// Scratch state of the last evaluation, in a typed array so that writes do not allocate heap numbers.
const scratch = new Float64Array([NaN, 0]);
const BOUNDARY = 0; // critical futures price found by the last bawPrice call (warm start for the next)
const EUROPEAN_VEGA = 1; // ∂(European price)/∂σ at the last bawPrice call

/**
 * BAW American price for validated input with T > 0, σ > 0, r > 0. `boundaryGuess` warm-starts the critical-price
 * Newton iteration (NaN: use BAW's own seed).
 */
function bawCore(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number, boundaryGuess: number) {
  const european = black76Price(F, K, T, r, isCall, sigma);
  const sqrtT = Math.sqrt(T);
  const sT = sigma * sqrtT;
  const df = Math.exp(-r * T);
  scratch[EUROPEAN_VEGA] = df * Math.sqrt(F * K) * vega() * sqrtT;
  const k = -Math.expm1(-r * T);
  const m = (2 * r) / (sigma * sigma);
  const root = Math.sqrt(1 + (4 * m) / k);
  const theta = isCall ? 1 : -1;
  const q = isCall ? 0.5 * (1 + root) : 0.5 * (1 - root);

  let S = boundaryGuess;
  if (!(isCall ? S > K : S > 0 && S < K)) {
    // BAW's seed: the perpetual boundary K/(1 − 1/q∞) pulled towards K for finite maturity.
    const rootInf = Math.sqrt(1 + 4 * m);
    const qInf = isCall ? 0.5 * (1 + rootInf) : 0.5 * (1 - rootInf);
    const sInf = K / (1 - 1 / qInf);
    const decay = Math.exp((-2 * sT * K) / Math.abs(sInf - K));
    S = isCall ? K + (sInf - K) * (1 - decay) : sInf + (K - sInf) * decay;
    if (!(isCall ? S > K : S > 0 && S < K)) S = isCall ? 2 * K : 0.5 * K;
  }
  // Smooth pasting: f(S) = E(S) − S·A(S)/|q| = 0, where E = k·θ(S − K) − o(S) is the gain of exercising now over
  // the European (o: the out-of-the-money European at S, a put for a call boundary and vice versa), E' = θ·A and
  // A = k + e^{−rT}·Φ(−θd₁). Split f = L − R into the part linear in S, L = k·(θ(S − K) − S/|q|), and the Gaussian
  // tails R = o + e^{−rT}·Φ(−θd₁)·S/|q|. Newton runs in y = ln S inside a bracket [yLo, yHi] kept from the sign of
  // f; where R dominates (far from the strike, e.g. for tiny r·T) it uses ln R − ln L, almost quadratic in y, since
  // Newton on f itself crawls through a Gaussian tail. The root has L = R > 0, which bounds it by L's zero.
  const qa = Math.abs(q);
  const lnK = Math.log(K);
  let yLo = isCall ? lnK + Math.log(qa / (qa - 1)) : -Infinity;
  let yHi = isCall ? Infinity : lnK + Math.log(qa / (qa + 1));
  let expand = 4 * sT + 0.01;
  let stepOld = Infinity; // the step before last: Newton must at least halve it or bisection takes over
  let stepLast = Infinity;
  let y = Math.log(S);
  if (!(y > yLo && y < yHi)) y = isCall ? yLo + expand : yHi - expand;
  S = Math.exp(y);
  let gain = 0;
  let sEval = S;
  for (let i = 0; i < 100; i++) {
    sEval = S;
    const lnSK = y - lnK;
    const o = df * Math.sqrt(S * K) * otmBlack(-Math.abs(lnSK), sT, Math.sqrt(S < K ? S / K : K / S));
    const density = vega() * Math.sqrt(K / S); // φ(d₁) from the normalised vega: S·φ(d₁) = √(SK)·∂b/∂s
    const tail = 0.5 * df * erfc(theta * (lnSK / sT + 0.5 * sT) * INV_SQRT2); // e^{−rT}·Φ(−θd₁)
    const linear = k * theta * (S - K);
    gain = linear - o;
    const l = linear - (k * S) / qa;
    const rTail = o + (tail * S) / qa;
    const f = l - rTail;
    const rootAbove = theta * f < 0;
    if (rootAbove) yLo = y;
    else yHi = y;
    const aPrime = (theta * df * density) / sT; // −θ·S·dA/dS
    const rPrime = -theta * tail + (tail - aPrime) / qa; // dR/dS
    const lPrime = k * (theta - 1 / qa); // dL/dS
    const step =
      rTail > 2 * l && l > 0 ? Math.log(rTail / l) / (S * (rPrime / rTail - lPrime / l)) : f / (S * (lPrime - rPrime));
    if (Math.abs(step) <= 1e-10) break; // this S is within ~step² of the root: good enough (see below)
    let next = y - step;
    const bracketed = yLo > -Infinity && yHi < Infinity;
    if (next > yLo && next < yHi && (Math.abs(2 * step) <= stepOld || !bracketed)) {
      // accept the Newton step
    } else if (bracketed) {
      next = 0.5 * (yLo + yHi);
    } else {
      next = yLo > -Infinity ? yLo + expand : yHi - expand;
      expand *= 2;
    }
    stepOld = stepLast;
    stepLast = Math.abs(next - y);
    if (yHi - yLo <= 1e-12) break;
    y = next;
    S = Math.exp(y);
  }
  scratch[BOUNDARY] = sEval;
  if (theta * (F - sEval) >= 0) return theta * (F - K); // beyond the boundary: exercise now
  // Value matching at the last evaluated boundary; stationary in the boundary, so its residual error is second order.
  const premium = gain > 0 ? gain * Math.pow(F / sEval, q) : 0;
  return Math.max(european + premium, Math.max(theta * (F - K), 0));
}

function validInputs(F: number, K: number, T: number, r: number): boolean {
  return F > 0 && K > 0 && F < Infinity && K < Infinity && T >= 0 && T < Infinity && Math.abs(r) < Infinity;
}

/**
 * American option on a futures contract (Barone-Adesi–Whaley, b = 0). NaN for non-finite input, F ≤ 0, K ≤ 0,
 * T < 0 or σ < 0. With r ≤ 0 early exercise is never optimal and the price is the European one.
 */
export function bawPrice(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): number {
  if (!validInputs(F, K, T, r) || !(sigma >= 0 && sigma < Infinity)) return NaN;
  if (!(r > 0)) return black76Price(F, K, T, r, isCall, sigma);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  if (T === 0 || sigma === 0) return intrinsic;
  return bawCore(F, K, T, r, isCall, sigma, NaN);
}

/** g(u) = ln(A(e^u) − intrinsic) − lnTarget: the American time value in log space against the quoted one. */
function logGap(
  u: number,
  F: number,
  K: number,
  T: number,
  r: number,
  isCall: boolean,
  intrinsic: number,
  lnTarget: number,
  boundaryGuess: number,
): number {
  const timeValue = bawCore(F, K, T, r, isCall, Math.exp(u), boundaryGuess) - intrinsic;
  return timeValue > 0 ? Math.log(timeValue) - lnTarget : -Infinity;
}

/**
 * Implied volatility of an American option on a futures contract (inverse of americanPrice). NaN when no σ in
 * [1e-6, 10] reproduces the price: below the intrinsic value max(±(F − K), 0), at or above F (call) or K (put),
 * T ≤ 0, non-finite or negative input, F ≤ 0 or K ≤ 0. 0 when the price equals the intrinsic value. For r ≤ 0 the
 * option is European (no early exercise) and the European implied volatility, with its rules, is returned.
 *
 * The root is bracketed and polished by Brent's method in (ln σ, ln time value) coordinates, where the price curve is
 * close to linear even for tiny time values; the European implied volatility of the same price (an upper bound,
 * American ≥ European) starts it, and each evaluation warm-starts BAW's boundary iteration from the previous one.
 */
export function bawImpliedVol(price: number, F: number, K: number, T: number, r: number, isCall: boolean): number {
  if (!validInputs(F, K, T, r) || !(T > 0) || !(price >= 0 && price < Infinity)) return NaN;
  if (!(r > 0)) return black76ImpliedVol(price, F, K, T, r, isCall);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  if (price < intrinsic || price >= (isCall ? F : K)) return NaN;
  if (price === intrinsic) return 0;
  const lnTarget = Math.log(price - intrinsic);

  let sigma0 = black76ImpliedVol(price, F, K, T, r, isCall);
  if (!(sigma0 <= SIGMA_MAX)) sigma0 = SIGMA_MAX;
  else if (!(sigma0 >= SIGMA_MIN)) sigma0 = SIGMA_MIN;
  let uPrev = Math.log(sigma0);
  let gPrev = logGap(uPrev, F, K, T, r, isCall, intrinsic, lnTarget, NaN);
  if (gPrev === 0) return sigma0;
  let boundary = scratch[BOUNDARY]!;
  // Bracketing: step from σ0 towards the root (downwards unless BAW fell short of the European price) with the
  // European log-vega as slope estimate, then by secant extrapolation, until g changes sign.
  const down = gPrev > 0;
  const europeanTimeValue = price - (isCall ? Math.max(F - K, 0) : Math.max(K - F, 0)) * Math.exp(-r * T);
  let slope = (sigma0 * scratch[EUROPEAN_VEGA]!) / europeanTimeValue;
  let step = slope > 0 && slope < Infinity ? -gPrev / slope : down ? -0.5 : 0.5;
  let u = uPrev;
  let g = gPrev;
  for (let i = 0; ; i++) {
    if (down) step = Math.min(Math.max(step, -2), -1e-9);
    else step = Math.max(Math.min(step, 2), 1e-9);
    uPrev = u;
    gPrev = g;
    u = Math.min(Math.max(u + step, LN_SIGMA_MIN), LN_SIGMA_MAX);
    g = logGap(u, F, K, T, r, isCall, intrinsic, lnTarget, boundary);
    boundary = scratch[BOUNDARY]!;
    if (g === 0) return Math.exp(u);
    if (down ? g < 0 : g > 0) break;
    if (u === (down ? LN_SIGMA_MIN : LN_SIGMA_MAX) || i === 60) return NaN; // no root within the range
    slope = (g - gPrev) / (u - uPrev);
    step = slope > 0 && slope < Infinity ? -g / slope : 2 * step;
  }
  // Brent's method on the bracket {uPrev, u}: inverse quadratic / secant steps, bisection when they stall.
  let b = u;
  let fb = g;
  let a = uPrev;
  let fa = gPrev;
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let i = 0; i < 100; i++) {
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * DBL_EPSILON * Math.abs(b) + 1e-15;
    const m = 0.5 * (c - b);
    if (Math.abs(m) <= tol || fb === 0) break;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb) && fa > -Infinity && fc > -Infinity) {
      let p: number;
      let q: number;
      const s = fb / fa;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const rb = fb / fc;
        p = s * (2 * m * qa * (qa - rb) - (b - a) * (rb - 1));
        q = (qa - 1) * (rb - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = logGap(b, F, K, T, r, isCall, intrinsic, lnTarget, boundary);
    boundary = scratch[BOUNDARY]!;
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
  }
  return Math.exp(b);
}
