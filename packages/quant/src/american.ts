/**
 * American options on futures (cost of carry b = 0) by the method of Andersen, Lake & Offengenden (ALO, as in
 * QuantLib's QdFpAmericanEngine): European value plus the early-exercise premium, an integral over the exercise
 * boundary. A call on F at K is a put on K at F (McDonald–Schroder symmetry, which keeps r when q = r), so only the
 * put is priced, in units of its strike: for spot s = S/K,
 *   P = p_E + 2rT·∫₀¹ w·e^{−rTw²}·[Φ(−d₋) − s·Φ(−d₊)] dw,  d± = ln(s/B(τ))/(σ√T·w) ± σ√T·w/2,  τ = T(1 − w²).
 * The boundary B comes from the tabulated ALO solutions (boundaryTable.ts); outside that table alo.ts solves it for
 * the option at hand (QD+ start, fixed-point sweeps). The integral is Gauss–Legendre in w; when s is just above
 * B(T) the integrand switches on at w ≈ ln(s/B(T))/(σ√T), and the interval is split there.
 */
import { aloPremium, makeScheme, upperTail } from './alo.js';
import { black76ImpliedVol, black76Price } from './black76.js';
import { boundaryG, tableOut } from './boundaryTable.js';
import { INV_SQRT_TWO_PI } from './normal.js';

/**
 * A Gauss–Legendre rule for the premium integral on [0, 1], with ln(1 − w²) at its points and e^{−rTw²} kept while
 * rT is unchanged (an implied-volatility solve reuses it).
 */
interface Rule {
  x: Float64Array;
  w: Float64Array;
  lnRest: Float64Array;
  discount: Float64Array;
  key: number;
}

function rule(premiumX: Float64Array, premiumW: Float64Array): Rule {
  const x = premiumX.map((v) => 0.5 * (1 + v));
  return {
    x,
    w: premiumW.map((v) => 0.5 * v),
    lnRest: x.map((v) => Math.log1p(-v * v)),
    discount: new Float64Array(x.length),
    key: NaN,
  };
}

/** The direct solve outside the table: 6 Chebyshev intervals, 8-point integrals, QD+ and two sweeps. */
const DIRECT = makeScheme(6, 8, 2, 16);
/** Prices: 16 points (32 when the integral is split). */
const FINE = rule(DIRECT.premiumX, DIRECT.premiumW);
/**
 * The first Newton steps of an in-the-money implied-volatility solve: 8 points, within ~5e-6 of FINE's premium in σ
 * at half the cost; the last step is always taken with FINE, whose root the answer is (it inverts americanPrice).
 */
const coarseScheme = makeScheme(1, 1, 1, 8);
const COARSE = rule(coarseScheme.premiumX, coarseScheme.premiumW);

/** ∂(premium)/∂σ at the last tablePremium call with `slope` set. */
const slopeOut = new Float64Array(1);

/**
 * Early-exercise premium of the put (K = 1, r > 0, σ > 0, T > 0) at spot s on the tabulated boundary: −1 when s is at
 * or beyond the boundary (exercise now), NaN outside the table. With `slope`, also ∂(premium)/∂σ in slopeOut, through
 * both the integrand and the boundary: ∂ln B/∂σ = −(a/σ)(G + ∂G/∂z)/√H with H = aG, a = σ²τ.
 */
function tablePremium(s: number, T: number, r: number, sigma: number, slope: boolean, q: Rule = FINE): number {
  const lnS = Math.log(s);
  const lnRT = Math.log(r * T);
  const lnRatio = Math.log((sigma * sigma) / r); // z − x
  const gT = lnRT > X_MIN ? boundaryG(lnRT, lnRT + lnRatio, false) : NaN;
  if (!(gT >= 0)) return NaN;
  const sigma2 = sigma * sigma;
  slopeOut[0] = 0;
  const x0 = lnS + Math.sqrt(sigma2 * T * gT); // ln(s/B(T))
  if (x0 <= 0) return -1;
  const rT = r * T;
  const { x: GX, w: GW, lnRest: LN_REST, discount } = q;
  const P = GX.length;
  if (q.key !== rT) {
    for (let j = 0; j < P; j++) discount[j] = Math.exp(-rT * GX[j]! * GX[j]!);
    q.key = rT;
  }
  const sigmaRootT = sigma * Math.sqrt(T);
  const edge = x0 / sigmaRootT;
  const split = edge < 0.25 ? 4 * edge : 1;
  let sum = 0;
  let dSum = 0;
  for (let part = split < 1 ? 0 : 1; part < 2; part++) {
    // part 0: [0, split] and part 1: [split, 1] when split; otherwise only part 1 over [0, 1].
    const lo = part === 0 || split >= 1 ? 0 : split;
    const width = part === 0 ? split : 1 - lo;
    const fixed = width === 1;
    let acc = 0;
    let dAcc = 0;
    for (let j = 0; j < P; j++) {
      const w = lo + width * GX[j]!;
      const lnRest = fixed ? LN_REST[j]! : Math.log1p(-w * w);
      const x = lnRT + lnRest;
      const g = boundaryG(x, x + lnRatio, slope);
      if (!(g >= 0)) return NaN;
      const a = sigma2 * T * (1 - w * w); // σ²τ
      const sqrtH = Math.sqrt(a * g);
      const xx = lnS + sqrtH; // ln(s/B(τ))
      const v = sigmaRootT * w;
      const dp = xx / v + 0.5 * v;
      const dm = dp - v;
      const gp = Math.exp(-0.5 * dp * dp);
      const ratio = Math.exp(xx); // s/B
      const gm = gp * ratio; // e^{−d₋²/2}
      const tailM = dm >= 0 ? upperTail(dm, gm) : 1 - upperTail(-dm, gm);
      const tailP = dp >= 0 ? upperTail(dp, gp) : 1 - upperTail(-dp, gp);
      const weight = GW[j]! * w * (fixed ? discount[j]! : Math.exp(-rT * w * w));
      acc += weight * (tailM - s * tailP);
      if (slope) {
        const b = s / ratio;
        const dLnB = sqrtH > 0 ? (-(a / sigma) * (g + tableOut[0]!)) / sqrtH : 0;
        dAcc += weight * gm * INV_SQRT_TWO_PI * ((dp - b * dm) / sigma + ((1 - b) * dLnB) / v);
      }
    }
    sum += width * acc;
    dSum += width * dAcc;
  }
  slopeOut[0] = 2 * rT * dSum;
  return Math.max(2 * rT * sum, 0);
}

/** Premium of the put (K = 1) on the table, or with the boundary solved directly outside it; −1: exercise now. */
function premium(s: number, T: number, r: number, sigma: number): number {
  const e = tablePremium(s, T, r, sigma, false);
  return e === e ? e : aloPremium(DIRECT, s, T, r, sigma);
}

/** Put (K = 1) at spot s. */
function put(s: number, T: number, r: number, sigma: number): number {
  const e = premium(s, T, r, sigma);
  return e < 0 ? 1 - s : Math.max(black76Price(s, 1, T, r, false, sigma) + e, 1 - s);
}

/**
 * Below this r·T the premium (< r·T·K) is negligible and the option is priced as European, where the boundary is
 * too far out for the solver; with r ≤ 0 early exercise is never optimal at all.
 */
const R_T_MIN = 1e-13;
/** ln(rT) below which the table does not reach (it clamps there), so the boundary is solved directly. */
const X_MIN = -21;

function validInputs(F: number, K: number, T: number, r: number): boolean {
  return F > 0 && K > 0 && F < Infinity && K < Infinity && T >= 0 && T < Infinity && Math.abs(r) < Infinity;
}

/**
 * American option on a futures contract. NaN for non-finite input, F ≤ 0, K ≤ 0, T < 0 or σ < 0. With r ≤ 0 early
 * exercise is never optimal and the price is the European one (also for r·T ≤ 1e-13, see R_T_MIN).
 */
export function americanPrice(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): number {
  if (!validInputs(F, K, T, r) || !(sigma >= 0 && sigma < Infinity)) return NaN;
  if (!(r * T > R_T_MIN)) return black76Price(F, K, T, r, isCall, sigma);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  if (sigma === 0) return intrinsic;
  const strike = isCall ? F : K;
  const e = premium((isCall ? K : F) / strike, T, r, sigma);
  // The European value in the caller's units, so that the American one is never below it by a rounding.
  return e < 0 ? intrinsic : Math.max(black76Price(F, K, T, r, isCall, sigma) + strike * e, intrinsic);
}

const SIGMA_MIN = 1e-4;
const SIGMA_MAX = 10;
/** Newton converges quadratically: a step below this leaves an error of order its square. */
const ACCEPT_STEP = 1e-4;
/**
 * A coarse step below this (relative) leaves an error ~κ·step² (κ = g″/2g′ ≲ 20 on the reference table) plus the coarse
 * rule's own, both below ACCEPT_STEP: one FINE step then finishes.
 */
const SWITCH_STEP = 5e-3;

/**
 * Implied volatility of an American option on a futures contract (inverse of americanPrice). NaN when no σ in
 * [1e-4, 10] reproduces the price: below the intrinsic value, at or above F (call) or K (put), T ≤ 0, non-finite or
 * negative input, F ≤ 0 or K ≤ 0. 0 when the price equals the intrinsic value. For r ≤ 0 the option is European and
 * the European implied volatility is returned.
 *
 * The American price is the European one plus the premium e(σ), small and smooth in σ, so σ is the root of the
 * nearly linear g(σ) = IV_E(price − e(σ)) − σ (IV_E: Black-76 implied volatility). Newton's method on g, with
 * g′ = −e′(σ)/vega_E − 1 and e′ from the table, starts from the European implied volatility of the whole price (out
 * of the money) or from inside the bracket below (in the money, where the premium is large and g curved; there the
 * first steps use the 8-point rule and only the last the 16-point one). Cost per implied volatility, in Black-76
 * evaluations: docs/performance.md.
 */
export function americanImpliedVol(price: number, F: number, K: number, T: number, r: number, isCall: boolean): number {
  if (!(price >= 0 && price < Infinity) || !validInputs(F, K, T, r) || !(T > 0)) return NaN;
  if (!(r * T > R_T_MIN)) return black76ImpliedVol(price, F, K, T, r, isCall);
  const intrinsic = Math.max(isCall ? F - K : K - F, 0);
  const strike = isCall ? F : K;
  if (price < intrinsic || price >= strike) return NaN;
  if (price === intrinsic) return 0;
  const s = (isCall ? K : F) / strike;
  const target = price / strike;
  let sigma = black76ImpliedVol(target, s, 1, T, r, false);
  if (!(sigma >= SIGMA_MIN && sigma <= SIGMA_MAX)) return bisection(target, s, T, r);
  const rootT = Math.sqrt(T);
  // In the money (s < 1): P_E(σ) ≤ P(σ) ≤ e^{rT}·P_E(σ), the undiscounted European value (without discounting,
  // exercising early never pays), so the root lies between the European implied volatilities at r and at r = 0.
  // Deep in the money it is near the middle of that bracket, at the money near its top: start from the top moved
  // down by half the bracket times Φ(−d₋), the chance of ending in the money.
  let q = FINE;
  if (s < 1) {
    const lowest = black76ImpliedVol(target, s, 1, T, 0, false);
    if (lowest > 0 && lowest < sigma) {
      const v = sigma * rootT;
      const dm = Math.log(s) / v - 0.5 * v;
      const g = Math.exp(-0.5 * dm * dm);
      sigma -= 0.5 * (dm >= 0 ? upperTail(dm, g) : 1 - upperTail(-dm, g)) * (sigma - lowest);
    }
    q = COARSE;
  }
  const df = Math.exp(-r * T);
  for (let it = 0; it < 12; it++) {
    const e = tablePremium(s, T, r, sigma, true, q);
    if (!(e >= 0)) return bisection(target, s, T, r);
    const implied = black76ImpliedVol(target - e, s, 1, T, r, false);
    if (!(implied > 0)) return bisection(target, s, T, r);
    const sd = implied * rootT;
    const d1 = Math.log(s) / sd + 0.5 * sd;
    const vega = df * rootT * Math.exp(-0.5 * d1 * d1) * INV_SQRT_TWO_PI * s;
    const g = implied - sigma;
    const slope = -slopeOut[0]! / vega - 1;
    const next = sigma - g / slope;
    if (!(next > SIGMA_MIN && next < SIGMA_MAX)) return bisection(target, s, T, r);
    const step = Math.abs(next - sigma);
    if (q === FINE) {
      if (step <= ACCEPT_STEP * sigma) return next;
    } else if (step <= SWITCH_STEP * sigma) q = FINE;
    sigma = next;
  }
  return bisection(target, s, T, r);
}

/** Fallback: bisection in ln σ on the price itself (outside the table, or if Newton leaves [1e-4, 10]). */
function bisection(target: number, s: number, T: number, r: number): number {
  let lo = Math.log(SIGMA_MIN);
  let hi = Math.log(SIGMA_MAX);
  if (put(s, T, r, SIGMA_MAX) < target || put(s, T, r, SIGMA_MIN) > target) return NaN;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = 0.5 * (lo + hi);
    if (put(s, T, r, Math.exp(mid)) < target) lo = mid;
    else hi = mid;
  }
  return Math.exp(0.5 * (lo + hi));
}
