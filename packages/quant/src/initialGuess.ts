/**
 * Jäckel's initial guesses for the implied-volatility solver (normalisedImpliedVol.ts).
 *
 * Initial-guess data that only depend on x: b at the inflection point s_c, b and ∂b/∂s at Jäckel's tangent points
 * s_l(x) and s_u(x), and the end values of his lower and upper maps there. Tabulated once in u = √|x| (where they are
 * smooth) instead of costing two Black evaluations and a few transcendental functions per implied volatility. They
 * only shape the initial guess (interpolation end points and the choice of segment), so the cubic interpolation's
 * error (below 1e-8 relative) only moves the guess, which the correction steps remove.
 */
import {
  ERF_SMALL,
  INV_SQRT2,
  INV_SQRT_TWO_PI,
  SQRT_HALF_PI,
  SQRT_TWO_PI,
  erfSmall,
  erfcxPos,
  invNormCdf,
  millsY,
  tailDeviateFromRoot,
  normCdf,
} from './normal.js';
import { cubicWeights } from './lagrange.js';
import { kernelOut, otmBlack, VEGA } from './normalisedBlack.js';
import { controlFittingSecondDerivative } from './rationalCubic.js';

const SQRT3 = 1.7320508075688772;
/** 1/(√27·√(2π)): constant of the lower map f = (2π/√27)·|x|·Φ(z)³ once Φ is written as Y·φ. */
const LOWER_MAP_SCALE = 0.07677647766029679;
/** 2π/√27: f = (2π/√27)·|x|·Φ(z)³ is inverted through Φ(z) = (f/((2π/√27)·|x|))^{1/3}. */
const TWO_PI_OVER_SQRT27 = 1.2091995761561452;
/** ln 0.075: below this probability AS 241 uses its tail approximations. */
const LN_TAIL_PROBABILITY = -2.5902671654458267;

export const CENTRE_B = 0; // b_c / b_max
export const LOWER_B = 1; // b_l / b_max
export const LOWER_INV_V = 2; // b_max / (∂b/∂s at s_l)
export const UPPER_B = 3; // b_u / b_max
export const UPPER_INV_V = 4; // b_max / (∂b/∂s at s_u)
export const LOWER_F = 5; // lower map f_l and its first two derivatives in β at b_l
export const LOWER_DF = 6;
export const LOWER_D2F = 7;
export const UPPER_F = 8; // upper map f_u and its first two derivatives in β at b_u
export const UPPER_DF = 9;
export const UPPER_D2F = 10;
// Control parameters of the rational cubic interpolations: lower map, lower middle, upper middle, upper map segment.
export const LOWER_R = 11;
export const LOWER_MIDDLE_R = 12;
export const UPPER_MIDDLE_R = 13;
export const UPPER_R = 14;
export const LN_LOWER_B = 15; // ln(b_l / b_max)
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
export function locateGuess(x: number, bMax: number, rootAx: number): void {
  const f = rootAx / U_STEP;
  const i = Math.floor(f);
  // From the second cell on: near x = 0 the data have a √|x| behaviour that the first cell does not resolve.
  if (!(i >= 2 && i <= U_COUNT - 3)) {
    computeGuess(x, bMax);
    weights[0] = -1;
    return;
  }
  weights[0] = (i - 1) * GUESS_SIZE;
  weights[5] = i - 1;
  cubicWeights(f - i, weights, 1);
}

/** Whether the x given to locateGuess lies inside the table (else its data were computed). */
export function tabulated(): boolean {
  return weights[0]! >= 0;
}

/** Guess datum k of the x given to locateGuess. */
export function guessValue(k: number): number {
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
export function invertLowerMap(f: number, ax: number): number {
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

const wWeights = new Float64Array(4);

/** c at w for the u located by locateGuess (cubic Lagrange in both). */
export function lowerCorrection(table: Float64Array, w: number): number {
  const f = w / W_STEP + 1;
  const j = Math.floor(f);
  cubicWeights(f - j, wWeights);
  const w0 = wWeights[0]!;
  const w1 = wWeights[1]!;
  const w2 = wWeights[2]!;
  const w3 = wWeights[3]!;
  let c = 0;
  for (let k = 0; k < 4; k++) {
    const row = (weights[5]! + k) * W_COUNT + j - 1;
    c += weights[1 + k]! * (w0 * table[row]! + w1 * table[row + 1]! + w2 * table[row + 2]! + w3 * table[row + 3]!);
  }
  return c;
}

/**
 * The lower-segment corrections, solved by `solve` (the solver, with Jäckel's guess and 2 steps while the table is not
 * there yet): ~2,500 solves.
 */
export function buildLowerTable(solve: (beta: number, x: number, bMax: number) => number): Float64Array {
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
        c = solve(beta, x, bMax) / invertLowerMap(beta, -x) - 1;
      }
      table[i * W_COUNT + k] = c;
    }
    table[i * W_COUNT] = table[i * W_COUNT + 2]!; // w = −W_STEP mirrors w = W_STEP
  }
  return table;
}
