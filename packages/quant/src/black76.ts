/**
 * Black-76 (options on futures) price and implied volatility.
 *
 * Everything runs on the normalised Black function of P. Jäckel, "Let's Be Rational" (Wilmott 2015):
 *   x = ln(F/K), s = σ√T, b(x, s) = e^{x/2}·Φ(x/s + s/2) − e^{−x/2}·Φ(x/s − s/2)  (a call),
 *   price = e^{−rT}·√(FK)·b.
 * Put–call parity moves every quote to the out-of-the-money side, where b is a pure time value and can be computed
 * (and inverted) to full relative precision; that side is always a call with x ≤ 0.
 */
import {
  ERF_SMALL,
  INV_SQRT2,
  INV_SQRT_TWO_PI,
  SQRT_HALF_PI,
  SQRT_TWO_PI,
  Z_SMALL,
  Z_TAIL,
  erfSmall,
  erfcxPos,
  erfcxTailCorrection,
  invNormCdf,
  invNormCdfOffset,
  millsY,
  tailDeviateFromRoot,
  normCdf,
} from './normal.js';

const DBL_EPSILON = 2.220446049250313e-16;
/** Below t = s/2 = 0.21 the two Φ terms are too close to subtract; a Taylor series in t is used (≈2·ε^{1/16}). */
const SMALL_T = 0.21;
const SQRT3 = 1.7320508075688772;
/** 1/(√27·√(2π)): constant of the lower map f = (2π/√27)·|x|·Φ(z)³ once Φ is written as Y·φ. */
const LOWER_MAP_SCALE = 0.07677647766029679;
/** 2π/√27: f = (2π/√27)·|x|·Φ(z)³ is inverted through Φ(z) = (f/((2π/√27)·|x|))^{1/3}. */
const TWO_PI_OVER_SQRT27 = 1.2091995761561452;
/** ln 0.075: below this probability AS 241 uses its tail approximations. */
const LN_TAIL_PROBABILITY = -2.5902671654458267;
/** Number of correction steps; Jäckel's initial guesses make two sufficient for machine precision, mostly one. */
const MAX_ITERATIONS = 2;
/**
 * Each step is of fourth order (quintic convergence, see `quartic`): after a first correction ds below 2e-3·s the
 * relative error measured over the whole domain is below 5e-14, so the second step is skipped.
 */
const CONVERGED_STEP = 2e-3;

// Side outputs of the kernel. A typed array rather than module-level `let`s: V8 boxes a double stored in a
// module/closure variable, so every write would allocate a heap number in the hot path.
const kernelOut = new Float64Array(2);
const VEGA = 0; // ∂b/∂s at the last evaluation
const COMPLEMENT = 1; // b_max − b at the last evaluation, accurate also when b is close to b_max

/**
 * Normalised out-of-the-money call b(x, s) for x ≤ 0, s > 0; bMax = e^{x/2}. Also sets kernelOut[VEGA] and
 * kernelOut[COMPLEMENT].
 *
 * With h = x/s, t = s/2 and Y(z) = Φ(z)/φ(z), both Black terms share the Gaussian weight v = φ(h)·e^{−t²/2} (which is
 * also the vega ∂b/∂s), so b = v·[Y(h+t) − Y(h−t)]: a single exponential per evaluation, the rest rational functions.
 * The difference is evaluated in four regimes according to how badly its two terms cancel.
 */
function otmBlack(x: number, s: number, bMax: number): number {
  const h = x / s;
  const t = 0.5 * s;
  const e = Math.exp(-0.5 * (h * h + t * t));
  const v = e * INV_SQRT_TWO_PI;
  kernelOut[VEGA] = v;
  let b: number;
  if (!(e > 0) && h + t <= -Z_SMALL) {
    // The Gaussian weight underflowed and b with it (this also keeps t → 0 series away from ∞·0).
    b = 0;
  } else if (t < SMALL_T) {
    // Y(h+t) − Y(h−t) loses up to −log10(t) digits: expand in odd powers of t instead.
    b = v * smallTDifference(h, t);
  } else {
    const u = h + t;
    if (u < -Z_TAIL) {
      // Both arguments are deep in the tail: Y(z) = −1/z + W(z) with W = O(z⁻³) taken from Cody's asymptotic
      // interval, so the dominant −1/z parts are differenced exactly by algebra and only the small W parts cancel.
      const d = h - t;
      b = v * ((2 * t) / (u * d) + tailW(u) - tailW(d));
    } else if (u <= -Z_SMALL) {
      // Moderate cancellation (bounded because t ≥ 0.21 and |h| is moderate): difference of two erfcx.
      b = v * SQRT_HALF_PI * (erfcxPos(-u * INV_SQRT2) - erfcxPos((t - h) * INV_SQRT2));
    } else {
      // b is a sizeable fraction of b_max: evaluate the two Φ terms separately (erf near the centre), keeping the
      // complement b_max − b as a sum of positive terms for the upper-branch objective.
      const w = (t - h) * INV_SQRT2;
      const second = w > ERF_SMALL ? 0.5 * e * erfcxPos(w) : (0.5 / bMax) * (1 - erfSmall(w));
      if (u <= Z_SMALL) {
        b = 0.5 * bMax * (1 + erfSmall(u * INV_SQRT2)) - second;
      } else {
        const complement = 0.5 * e * erfcxPos(u * INV_SQRT2) + second;
        kernelOut[COMPLEMENT] = complement;
        return bMax - complement;
      }
    }
  }
  kernelOut[COMPLEMENT] = bMax - b;
  return b;
}

/** W(z) = Y(z) + 1/z for z < −4√2, from erfcx(y) = (1/√π − r(y))/y with y = −z/√2. */
function tailW(z: number): number {
  const y = -z * INV_SQRT2;
  return (-SQRT_HALF_PI * erfcxTailCorrection(y)) / y;
}

/**
 * Y(h+t) − Y(h−t) = 2·Σ_{k odd} Y⁽ᵏ⁾(h)·tᵏ/k! for t < 0.21 (terms to t¹⁷ reach 1e-17). The derivatives follow from
 * Y' = 1 + hY, i.e. Y⁽ⁿ⁺¹⁾ = h·Y⁽ⁿ⁾ + n·Y⁽ⁿ⁻¹⁾; the recurrence loses accuracy for large |h| but each order is damped by
 * t² < 0.045, so only Y' needs care: in the far tail it is taken as h·W(h) instead of the cancelling 1 + hY.
 */
function smallTDifference(h: number, t: number): number {
  let prev: number;
  let cur: number;
  if (h < -Z_TAIL) {
    const w = tailW(h);
    prev = w - 1 / h;
    cur = h * w;
  } else {
    prev = millsY(h);
    cur = 1 + h * prev;
  }
  const tt = t * t;
  let sum = cur;
  let fac = 1;
  for (let n = 1; n < 17; n += 2) {
    const next = h * cur + n * prev;
    prev = next;
    cur = h * next + (n + 1) * cur;
    fac *= tt / ((n + 1) * (n + 2));
    sum += cur * fac;
  }
  return 2 * t * sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Rational cubic interpolation (Delbourgo & Gregory 1985), used for Jäckel's initial guesses.

const RC_MIN = -(1 - Math.sqrt(DBL_EPSILON)); // r > −1 keeps the denominator positive
const RC_MAX = 2 / (DBL_EPSILON * DBL_EPSILON); // at or above: the interpolant degenerates to a straight line

function rationalCubic(x: number, xl: number, xr: number, yl: number, yr: number, dl: number, dr: number, r: number) {
  const h = xr - xl;
  if (!(Math.abs(h) > 0)) return 0.5 * (yl + yr);
  const t = (x - xl) / h;
  if (r < RC_MAX) {
    const omt = 1 - t;
    const t2 = t * t;
    const omt2 = omt * omt;
    return (
      (yr * t2 * t + (r * yr - h * dr) * t2 * omt + (r * yl + h * dl) * t * omt2 + yl * omt2 * omt) /
      (1 + (r - 3) * t * omt)
    );
  }
  return yr * t + yl * (1 - t);
}

/** Smallest control parameter that keeps the interpolant monotone and/or convex where the data allow it. */
function minimumControl(dl: number, dr: number, slope: number, preferShape: boolean): number {
  const monotonic = dl * slope >= 0 && dr * slope >= 0;
  const convex = dl <= slope && slope <= dr;
  const concave = dl >= slope && slope >= dr;
  if (!monotonic && !convex && !concave) return RC_MIN;
  let r1 = -Infinity;
  let r2 = -Infinity;
  if (monotonic) {
    if (slope !== 0) r1 = (dr + dl) / slope;
    else if (preferShape) r1 = RC_MAX;
  }
  if (convex || concave) {
    const left = slope - dl;
    const right = dr - slope;
    if (left !== 0 && right !== 0) r2 = Math.max(Math.abs((dr - dl) / right), Math.abs((dr - dl) / left));
    else if (preferShape) r2 = RC_MAX;
  } else if (monotonic && preferShape) {
    r2 = RC_MAX;
  }
  return Math.max(RC_MIN, r1, r2);
}

/**
 * Control parameter making the interpolant's second derivative equal d2 at the left (atLeft) or right end, raised
 * to the shape-preserving minimum. From s''(x_l) = (2/h)·[r(Δ − d_l) − (d_r − d_l)] and its mirror image.
 */
function controlFittingSecondDerivative(
  atLeft: boolean,
  xl: number,
  xr: number,
  yl: number,
  yr: number,
  dl: number,
  dr: number,
  d2: number,
  preferShape: boolean,
): number {
  const h = xr - xl;
  const slope = (yr - yl) / h;
  const numerator = 0.5 * h * d2 + (dr - dl);
  const denominator = atLeft ? slope - dl : dr - slope;
  let r: number;
  if (numerator === 0) r = 0;
  else if (denominator === 0) r = numerator > 0 ? RC_MAX : RC_MIN;
  else r = numerator / denominator;
  return Math.max(r, minimumControl(dl, dr, slope, preferShape));
}

// ---------------------------------------------------------------------------------------------------------------
// Initial-guess data that only depend on x: b at the inflection point s_c, b and ∂b/∂s at Jäckel's tangent points
// s_l(x) and s_u(x), and the end values of his lower and upper maps there. Tabulated once in u = √|x| (where they are
// smooth) instead of costing two Black evaluations and a few transcendental functions per implied volatility. They
// only shape the initial guess (interpolation end points and the choice of segment), so the cubic interpolation's
// error (below 1e-8 relative) only moves the guess, which the correction steps remove.

const CENTRE_B = 0; // b_c / b_max
const LOWER_B = 1; // b_l / b_max
const LOWER_INV_V = 2; // b_max / (∂b/∂s at s_l)
const UPPER_B = 3; // b_u / b_max
const UPPER_INV_V = 4; // b_max / (∂b/∂s at s_u)
const LOWER_F = 5; // lower map f_l and its first two derivatives in β at b_l
const LOWER_DF = 6;
const LOWER_D2F = 7;
const UPPER_F = 8; // upper map f_u and its first two derivatives in β at b_u
const UPPER_DF = 9;
const UPPER_D2F = 10;
// Control parameters of the rational cubic interpolations: lower map, lower middle, upper middle, upper map segment.
const LOWER_R = 11;
const LOWER_MIDDLE_R = 12;
const UPPER_MIDDLE_R = 13;
const UPPER_R = 14;
const LN_LOWER_B = 15; // ln(b_l / b_max)
const GUESS_SIZE = 16;
/** The guess data of the current x (tabulated or computed). */
const guess = new Float64Array(GUESS_SIZE);

/** Computes the guess data of x (< 0) into `guess`: two Black evaluations. */
function computeGuess(x: number, bMax: number): void {
  const ax = -x;
  const sC = Math.sqrt(2 * ax);
  const rootAx = Math.sqrt(ax);
  // At s_c: h + t = 0 and h − t = −s_c, hence b_c = ½e^{x/2}·(1 − erfcx(√|x|)) and vega v_c = e^{x/2}/√(2π).
  // For small |x|, erfcx(√|x|) = e^{|x|}·(1 − erf(√|x|)) with e^{|x|} = 1/b_max², so no exponential is needed and
  // b_c = ½(erf(√|x|) − (1 − b_max²))/b_max does not cancel (erf(√|x|) ≈ 1.13√|x| against 1 − b_max² ≈ |x|).
  const bC =
    rootAx > ERF_SMALL ? 0.5 * bMax * (1 - erfcxPos(rootAx)) : (0.5 * (erfSmall(rootAx) - (1 - bMax * bMax))) / bMax;
  const vC = bMax * INV_SQRT_TWO_PI;
  const sL = sC - bC / vC;
  const bL = otmBlack(x, sL, bMax);
  const vL = kernelOut[VEGA]!;
  // Lower map f(s) = (2π/√27)|x|·Φ(z)³, z = −|x|/(√3·s), reproduces b's behaviour for s → 0.
  const z = -ax / (SQRT3 * sL);
  const y = z * z;
  const mills = millsY(z);
  const e8l = Math.exp(0.125 * sL * sL);
  const eL = vL * SQRT_TWO_PI; // = e^{−3y/2 − s²/8}
  guess[LOWER_F] = ax * mills * mills * mills * eL * e8l * LOWER_MAP_SCALE;
  guess[LOWER_DF] = y * mills * mills * e8l; // df/dβ
  guess[LOWER_D2F] = SQRT_TWO_PI * y * mills * (e8l / eL) * ((mills * (sL * sL - 8 - 8 * y)) / (4 * sL) - (2 * z) / sL);
  const sU = sC + (bMax - bC) / vC;
  const bU = otmBlack(x, sU, bMax);
  const vU = kernelOut[VEGA]!;
  // Upper map f(s) = Φ(−s/2) = b_max − b for x → 0, the shape of b near its supremum.
  const e8u = Math.exp(-0.125 * sU * sU);
  const eU = vU * SQRT_TWO_PI; // = e^{−w/2 − s²/8}, w = (x/s)²
  const w = (x / sU) * (x / sU);
  // Φ(−s/2) = ½·erfcx(s/√8)·e^{−s²/8}: reuse the exponential just computed.
  const yU = 0.5 * sU * INV_SQRT2;
  guess[UPPER_F] = yU > ERF_SMALL ? 0.5 * erfcxPos(yU) * e8u : normCdf(-0.5 * sU);
  guess[UPPER_DF] = (-0.5 * e8u) / eU;
  guess[UPPER_D2F] = (SQRT_HALF_PI * (w / sU) * e8u) / (eU * eU);
  const d2fL = guess[LOWER_D2F]!;
  guess[LOWER_R] =
    d2fL > -Infinity && d2fL < Infinity
      ? controlFittingSecondDerivative(false, 0, bL, 0, guess[LOWER_F]!, 1, guess[LOWER_DF]!, d2fL, true)
      : NaN;
  guess[LOWER_MIDDLE_R] = controlFittingSecondDerivative(false, bL, bC, sL, sC, 1 / vL, 1 / vC, 0, false);
  guess[UPPER_MIDDLE_R] = controlFittingSecondDerivative(true, bC, bU, sC, sU, 1 / vC, 1 / vU, 0, false);
  const d2fU = guess[UPPER_D2F]!;
  guess[UPPER_R] =
    d2fU > -Infinity && d2fU < Infinity
      ? controlFittingSecondDerivative(true, bU, bMax, guess[UPPER_F]!, 0, guess[UPPER_DF]!, -0.5, d2fU, true)
      : NaN;
  guess[CENTRE_B] = bC / bMax;
  guess[LOWER_B] = bL / bMax;
  guess[LN_LOWER_B] = Math.log(bL / bMax);
  guess[LOWER_INV_V] = bMax / vL;
  guess[UPPER_B] = bU / bMax;
  guess[UPPER_INV_V] = bMax / vU;
}

const U_STEP = 0.02;
const U_MAX = 2; // |x| ≤ 4; beyond it (and for |x| < (2·U_STEP)²) the data are computed
const U_COUNT = Math.round(U_MAX / U_STEP) + 3;
const GUESS_TABLE = new Float64Array(U_COUNT * GUESS_SIZE);
for (let i = 0; i < U_COUNT; i++) {
  const u = Math.max(i * U_STEP, 1e-6); // at u = 0 (x = 0): the limit
  computeGuess(-u * u, Math.exp(-0.5 * u * u));
  GUESS_TABLE.set(guess, i * GUESS_SIZE);
}

/** Cubic Lagrange weights and first row for `guessValue`, set by `locateGuess`; row −1: computed into `guess`. */
const weights = new Float64Array(6);

/** Prepares the guess data of x < 0 (rootAx = √|x|): a position in the table, or computed where it does not reach. */
function locateGuess(x: number, bMax: number, rootAx: number): void {
  const f = rootAx / U_STEP;
  const i = Math.floor(f);
  // From the second cell on: near x = 0 the data have a √|x| behaviour that the first cell does not resolve.
  if (!(i >= 2 && i <= U_COUNT - 3)) {
    computeGuess(x, bMax);
    weights[0] = -1;
    return;
  }
  const v = f - i;
  const vm1 = v - 1;
  const vm2 = v - 2;
  const vp1 = v + 1;
  weights[0] = (i - 1) * GUESS_SIZE;
  weights[5] = i - 1;
  weights[1] = (-v * vm1 * vm2) / 6;
  weights[2] = (vp1 * vm1 * vm2) / 2;
  weights[3] = (-vp1 * v * vm2) / 2;
  weights[4] = (vp1 * v * vm1) / 6;
}

/** Guess datum k of the x given to locateGuess. */
function guessValue(k: number): number {
  const base = weights[0]!;
  if (base < 0) return guess[k]!;
  const j = base + k;
  return (
    weights[1]! * GUESS_TABLE[j]! +
    weights[2]! * GUESS_TABLE[j + GUESS_SIZE]! +
    weights[3]! * GUESS_TABLE[j + 2 * GUESS_SIZE]! +
    weights[4]! * GUESS_TABLE[j + 3 * GUESS_SIZE]!
  );
}

/** s with f(s) = f for the lower map f(s) = (2π/√27)|x|·Φ(−|x|/(√3·s))³. */
function invertLowerMap(f: number, ax: number): number {
  // Φ(z) = (f/((2π/√27)|x|))^{1/3}, s = |x|/(√3·|z|). In the normal tail Φ⁻¹ only needs ln Φ(z), which spares the
  // cube root.
  const ratio = f / (TWO_PI_OVER_SQRT27 * ax);
  const lnPhi = Math.log(ratio) / 3;
  const z = lnPhi < LN_TAIL_PROBABILITY ? -tailDeviateFromRoot(Math.sqrt(-lnPhi)) : invNormCdf(Math.cbrt(ratio));
  return ax / (SQRT3 * -z);
}

// In the lower segment the implied s is s_map(β)·(1 + c), s_map inverting the lower map at β itself. The correction c
// is smooth in u = √|x| and w = ln(b_l)/ln(β) ∈ (0, 1) (β → 0 is w → 0, where the map becomes exact and c → 0 like
// w²), so it is tabulated (u as above, w in steps of W_STEP) from this solver's own converged answers: the guess is
// then within ~1e-4 and one fourth-order step reaches machine precision. Column 0 is w = −W_STEP, mirrored.
const W_STEP = 0.05;
const W_COUNT = Math.round(1 / W_STEP) + 4; // w = −W_STEP … 1 + 2·W_STEP

/** c at w for the u located by locateGuess (cubic Lagrange in both). */
function lowerCorrection(table: Float64Array, w: number): number {
  const f = w / W_STEP + 1;
  const j = Math.floor(f);
  const v = f - j;
  const vm1 = v - 1;
  const vm2 = v - 2;
  const vp1 = v + 1;
  const w0 = -v * vm1 * vm2 * SIXTH;
  const w1 = vp1 * vm1 * vm2 * 0.5;
  const w2 = -vp1 * v * vm2 * 0.5;
  const w3 = vp1 * v * vm1 * SIXTH;
  let c = 0;
  for (let k = 0; k < 4; k++) {
    const row = (weights[5]! + k) * W_COUNT + j - 1;
    c += weights[1 + k]! * (w0 * table[row]! + w1 * table[row + 1]! + w2 * table[row + 2]! + w3 * table[row + 3]!);
  }
  return c;
}

/** Third-order Householder factor: the step is ν·(1 + h₂ν/2)/(1 + ν(h₂ + h₃ν/6)) with h_k = g⁽ᵏ⁾/g'. */
function householder(nu: number, h2: number, h3: number): number {
  return (1 + 0.5 * h2 * nu) / (1 + nu * (h2 + (h3 * nu) / 6));
}

const SIXTH = 1 / 6;
const FIVE_TWELFTHS = 5 / 12;
const FIVE_EIGHTHS = 5 / 8;
const TWENTY_FOURTH = 1 / 24;

/** Fourth-order (quintically convergent) step from the Newton step ν and h_k = g⁽ᵏ⁾/g′: series reversion of Taylor. */
function quartic(nu: number, h2: number, h3: number, h4: number): number {
  const c3 = 0.5 * h2 * h2 - SIXTH * h3;
  const c4 = h2 * (FIVE_TWELFTHS * h3 - FIVE_EIGHTHS * h2 * h2) - TWENTY_FOURTH * h4;
  return nu * (1 + nu * (-0.5 * h2 + nu * (c3 + nu * c4)));
}

/**
 * s = σ√T such that b(x, s) = beta, for x < 0 and 0 < beta < bMax = e^{x/2} (Let's Be Rational).
 *
 * b(x, ·) has its inflection point at s_c = √(2|x|). Tangents there define s_l < s_c < s_u and split the β axis into
 * four segments. In the two middle ones s(β) is interpolated directly by a rational cubic; in the outer ones the
 * interpolation is done on transformed values f(β) that mimic b's asymptotics (so the guess is already close), and
 * the Householder steps use objectives that are nearly linear there: 1/ln b in the lower and ln(b_max − b) in the
 * upper segment.
 */
function normalisedImpliedVol(beta: number, x: number, bMax: number): number {
  const ax = -x;
  const rootAx = Math.sqrt(ax);
  const sC = Math.SQRT2 * rootAx;
  locateGuess(x, bMax, rootAx);
  const centre = guessValue(CENTRE_B);
  const bC = bMax * centre;
  const invBMax = 1 / bMax;
  const invVC = SQRT_TWO_PI * invBMax; // 1/v_c, v_c = b_max/√(2π)
  let s: number;
  let sLeft = 0;
  let sRight = Infinity;
  let ds = Infinity;
  let iterations = 0;

  if (beta < bC) {
    const sL = sC - SQRT_TWO_PI * centre; // s_c − b_c/v_c
    const bL = bMax * guessValue(LOWER_B);
    if (beta < bL) {
      const invLnBeta = 1 / Math.log(beta);
      // Lower map f(s) = (2π/√27)|x|·Φ(z)³, z = −|x|/(√3·s), reproduces b's behaviour for s → 0. Where the table of
      // its correction reaches, the map is inverted at β itself and corrected; otherwise Jäckel's rational cubic
      // interpolates f(β) first.
      let f = 0;
      let correction = 0;
      const w = (0.5 * x + guessValue(LN_LOWER_B)) * invLnBeta; // ln(b_l)/ln(β) ∈ (0, 1)
      if (lowerTableState === 0) {
        lowerTableState = 1;
        lowerTable = buildLowerTable();
        lowerTableState = 2;
        locateGuess(x, bMax, rootAx); // the build moved the interpolation weights
      }
      if (lowerTable !== null && weights[0]! >= 0 && w < 1) {
        f = beta;
        correction = lowerCorrection(lowerTable, w);
      } else {
        const fL = guessValue(LOWER_F);
        const dfL = guessValue(LOWER_DF);
        const d2fL = guessValue(LOWER_D2F);
        const r = guessValue(LOWER_R);
        if (d2fL > -Infinity && d2fL < Infinity && r > -Infinity && r < Infinity) {
          f = rationalCubic(beta, 0, bL, 0, fL, 1, dfL, Math.max(r, RC_MIN));
        }
        if (!(f > 0)) {
          // Round-off for extreme |x|: quadratic through f(0) = 0, f'(0) = 1 and f(b_l).
          const q = beta / bL;
          f = (fL * q + bL * (1 - q)) * q;
        }
      }
      s = invertLowerMap(f, ax) * (1 + correction);
      sRight = sL;
      for (; iterations < MAX_ITERATIONS && Math.abs(ds) > CONVERGED_STEP * s; ++iterations) {
        if (iterations > 0 && !(s > sLeft && s < sRight)) s = 0.5 * (sLeft + sRight);
        const b = otmBlack(x, s, bMax);
        const bp = kernelOut[VEGA]!;
        if (b > beta && s < sRight) sRight = s;
        else if (b < beta && s > sLeft) sLeft = s;
        if (!(b > 0 && bp > 0)) {
          ds = 0.5 * (sLeft + sRight) - s; // underflow: bisect
        } else {
          // g(s) = 1/ln b(s) − 1/ln β is almost linear in s for small s.
          const lnB = Math.log(b);
          const invLnB = 1 / lnB;
          const q = bp / b;
          const invS = 1 / s;
          const hs2 = x * x * invS * invS; // (x/s)²
          const p = hs2 * invS - 0.25 * s; // b''/b' = x²/s³ − s/4
          const p3 = p * p - 3 * hs2 * invS * invS - 0.25; // b'''/b' = (b''/b')² − 3x²/s⁴ − 1/4
          const k = 1 + 2 * invLnB;
          const nu = ((1 - lnB * invLnBeta) * lnB) / q; // Newton step of g(s) = 1/ln b(s) − 1/ln β
          const h2 = p - q * k;
          const h3 = p3 + q * q * (2 + 6 * invLnB * (1 + invLnB)) - 3 * p * q * k;
          const qd = -3 * hs2 * invS * invS - 0.25;
          const m4 = 12 * hs2 * invS * invS * invS + 3 * p * qd + p * p * p;
          const R = q;
          const iL = invLnB;
          const h4 =
            -24 * R * R * R * iL * iL * iL +
            36 * R * R * p * iL * iL -
            36 * R * R * R * iL * iL -
            2 * iL * (3 * R * p * p - 18 * R * R * p + 11 * R * R * R + 4 * R * p3) +
            m4 -
            4 * R * p3 -
            3 * R * p * p +
            12 * R * R * p -
            6 * R * R * R;
          ds = Math.abs(nu) < 0.05 * s ? quartic(nu, h2, h3, h4) : nu * householder(nu, h2, h3);
        }
        ds = Math.max(-0.5 * s, ds);
        s += ds;
      }
      return s;
    }
    const invVL = invBMax * guessValue(LOWER_INV_V);
    s = rationalCubic(beta, bL, bC, sL, sC, invVL, invVC, Math.max(guessValue(LOWER_MIDDLE_R), RC_MIN));
    sLeft = sL;
    sRight = sC;
  } else {
    const sU = sC + SQRT_TWO_PI * (1 - centre); // s_c + (b_max − b_c)/v_c
    const bU = bMax * guessValue(UPPER_B);
    if (beta <= bU) {
      const invVU = invBMax * guessValue(UPPER_INV_V);
      s = rationalCubic(beta, bC, bU, sC, sU, invVC, invVU, Math.max(guessValue(UPPER_MIDDLE_R), RC_MIN));
      sLeft = sC;
      sRight = sU;
    } else {
      // Upper map f(s) = Φ(−s/2) = b_max − b for x → 0, the shape of b near its supremum.
      const fU = guessValue(UPPER_F);
      const dfU = guessValue(UPPER_DF);
      const d2fU = guessValue(UPPER_D2F);
      let f = 0;
      const r = guessValue(UPPER_R);
      if (d2fU > -Infinity && d2fU < Infinity && r > -Infinity && r < Infinity) {
        f = rationalCubic(beta, bU, bMax, fU, 0, dfU, -0.5, Math.max(r, RC_MIN));
      }
      if (!(f > 0)) {
        const hb = bMax - bU;
        const q = (beta - bU) / hb;
        f = (fU * (1 - q) + 0.5 * hb * q) * (1 - q);
      }
      s = -2 * invNormCdf(f);
      sLeft = sU;
      if (beta > 0.5 * bMax) {
        const gap = bMax - beta;
        for (; iterations < MAX_ITERATIONS && Math.abs(ds) > CONVERGED_STEP * s; ++iterations) {
          if (iterations > 0 && !(s > sLeft && s < sRight)) {
            s = sRight < Infinity ? 0.5 * (sLeft + sRight) : 2 * sLeft;
          }
          const b = otmBlack(x, s, bMax);
          const bp = kernelOut[VEGA]!;
          const c = kernelOut[COMPLEMENT]!;
          if (b > beta && s < sRight) sRight = s;
          else if (b < beta && s > sLeft) sLeft = s;
          if (!(c > 0 && bp > 0)) {
            ds = (sRight < Infinity ? 0.5 * (sLeft + sRight) : 2 * s) - s;
          } else {
            // g(s) = ln(b_max − β) − ln(b_max − b(s)) straightens the exponential approach to b_max.
            const invC = 1 / c;
            const g = Math.log(gap * invC);
            const q = bp * invC;
            const invS = 1 / s;
            const hs2 = x * x * invS * invS;
            const p = hs2 * invS - 0.25 * s;
            const p3 = p * p - 3 * hs2 * invS * invS - 0.25;
            const nu = -g / q;
            const qd = -3 * hs2 * invS * invS - 0.25;
            const m4 = 12 * hs2 * invS * invS * invS + 3 * p * qd + p * p * p;
            const h4 = m4 + (4 * p3 + 3 * p * p) * q + 12 * p * q * q + 6 * q * q * q;
            ds =
              Math.abs(nu) < 0.05 * s
                ? quartic(nu, p + q, p3 + q * (2 * q + 3 * p), h4)
                : nu * householder(nu, p + q, p3 + q * (2 * q + 3 * p));
          }
          ds = Math.max(-0.5 * s, ds);
          s += ds;
        }
        return s;
      }
    }
  }
  // Middle segments: objective g(s) = b(s) − β, with b''/b' and b'''/b' in closed form.
  for (; iterations < MAX_ITERATIONS && Math.abs(ds) > CONVERGED_STEP * s; ++iterations) {
    const b = otmBlack(x, s, bMax);
    const bp = kernelOut[VEGA]!;
    if (b > beta && s < sRight) sRight = s;
    else if (b < beta && s > sLeft) sLeft = s;
    const invS = 1 / s;
    const hs2 = x * x * invS * invS;
    const p = hs2 * invS - 0.25 * s;
    const p3 = p * p - 3 * hs2 * invS * invS - 0.25;
    const nu = (beta - b) / bp;
    const qd = -3 * hs2 * invS * invS - 0.25;
    const m4 = 12 * hs2 * invS * invS * invS + 3 * p * qd + p * p * p;
    ds = Math.max(-0.5 * s, Math.abs(nu) < 0.05 * s ? quartic(nu, p, p3, m4) : nu * householder(nu, p, p3));
    s += ds;
  }
  return s;
}

/** The lower-segment corrections, solved with Jäckel's guess (2 steps) when the module loads: ~2,500 solves. */
function buildLowerTable(): Float64Array {
  const table = new Float64Array(U_COUNT * W_COUNT);
  for (let i = 0; i < U_COUNT; i++) {
    const u = Math.max(i * U_STEP, 1e-6);
    const x = -u * u;
    const bMax = Math.exp(0.5 * x);
    computeGuess(x, bMax);
    const lnBl = 0.5 * x + guess[LN_LOWER_B]!;
    for (let k = 2; k < W_COUNT; k++) {
      const lnBeta = lnBl / ((k - 1) * W_STEP);
      let c = 0;
      if (lnBeta > -700) {
        const beta = Math.exp(lnBeta);
        c = normalisedImpliedVol(beta, x, bMax) / invertLowerMap(beta, -x) - 1;
      }
      table[i * W_COUNT + k] = c;
    }
    table[i * W_COUNT] = table[i * W_COUNT + 2]!; // w = −W_STEP mirrors w = W_STEP
  }
  return table;
}

/** Built on the first lower-segment quote (a few milliseconds), not at import; null while building. */
let lowerTable: Float64Array | null = null;
let lowerTableState = 0; // 0: not built, 1: building, 2: built

function isFiniteNonNegative(v: number): boolean {
  return v >= 0 && v < Infinity;
}

/**
 * Black-76 price of a European option on a futures contract: e^{−rT}·Black(F, K, σ√T).
 * NaN for non-finite input, F ≤ 0, K ≤ 0, T < 0 or σ < 0 (r may be negative). T = 0 or σ = 0 give the intrinsic
 * value (discounted).
 */
export function black76Price(F: number, K: number, T: number, r: number, isCall: boolean, sigma: number): number {
  if (!(F > 0 && K > 0 && F < Infinity && K < Infinity && isFiniteNonNegative(T) && isFiniteNonNegative(sigma))) {
    return NaN;
  }
  if (!(Math.abs(r) < Infinity)) return NaN;
  const df = Math.exp(-r * T);
  const intrinsic = isCall ? F - K : K - F;
  const s = sigma * Math.sqrt(T);
  let timeValue = 0;
  if (s > 0) {
    const x = -Math.abs(Math.log(F / K));
    const bMax = Math.sqrt(F < K ? F / K : K / F);
    timeValue = Math.sqrt(F * K) * otmBlack(x, s, bMax);
  }
  // An in-the-money option is its intrinsic forward value plus the out-of-the-money option's (put–call parity).
  return df * (intrinsic > 0 ? intrinsic + timeValue : timeValue);
}

/**
 * Black-76 implied volatility: the σ with black76Price(F, K, T, r, isCall, σ) = price, to the precision the inputs
 * allow. NaN when no σ reproduces the price (below intrinsic, at or above e^{−rT}·F for a call or e^{−rT}·K for a put,
 * T ≤ 0, non-finite or negative input, F ≤ 0 or K ≤ 0); 0 when the price equals the intrinsic value.
 */
export function black76ImpliedVol(price: number, F: number, K: number, T: number, r: number, isCall: boolean): number {
  if (!(isFiniteNonNegative(price) && F > 0 && K > 0 && F < Infinity && K < Infinity && T > 0 && T < Infinity)) {
    return NaN;
  }
  if (!(Math.abs(r) < Infinity)) return NaN;
  const df = Math.exp(-r * T);
  const intrinsicForward = isCall ? F - K : K - F;
  const intrinsic = intrinsicForward > 0 ? df * intrinsicForward : 0;
  if (price < intrinsic || price >= df * (isCall ? F : K)) return NaN;
  if (price === intrinsic) return 0;
  // Normalised out-of-the-money value β = time value / (e^{−rT}·√(FK)), with √(FK) = K·√(F/K) and b_max = e^{x/2} =
  // √(F/K) or its inverse: one square root and one logarithm of F/K serve all three.
  const forwardPrice = price / df;
  const timeValue = intrinsicForward > 0 ? forwardPrice - intrinsicForward : forwardPrice;
  const ratio = F / K;
  const rootRatio = Math.sqrt(ratio);
  const beta = timeValue / (K * rootRatio);
  if (!(beta > 0)) return 0; // the time value is below the resolution of the price
  const bMax = F < K ? rootRatio : 1 / rootRatio;
  if (beta >= bMax) return NaN;
  const x = -Math.abs(Math.log(ratio));
  // At the money b(0, s) = 2Φ(s/2) − 1 inverts in closed form; passing β/2 keeps small β precise.
  const s = x === 0 ? 2 * invNormCdfOffset(0.5 * beta) : normalisedImpliedVol(beta, x, bMax);
  return s / Math.sqrt(T);
}

/** Internal hooks for tests and the American module; not part of the public entry point. */
export const internals = {
  otmBlack,
  normalisedImpliedVol,
  rationalCubic,
  controlFittingSecondDerivative,
  vega: (): number => kernelOut[VEGA]!,
  complement: (): number => kernelOut[COMPLEMENT]!,
};
