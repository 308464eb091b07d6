/** The implied volatility of the normalised Black function (Let's Be Rational): guess, then at most two steps. */
import { SQRT_TWO_PI, invNormCdf } from './normal.js';
import { householder, quartic } from './householderSteps.js';
import {
  buildLowerTable,
  CENTRE_B,
  guessValue,
  invertLowerMap,
  LN_LOWER_B,
  locateGuess,
  LOWER_B,
  LOWER_D2F,
  LOWER_DF,
  LOWER_F,
  LOWER_INV_V,
  LOWER_MIDDLE_R,
  LOWER_R,
  lowerCorrection,
  tabulated,
  UPPER_B,
  UPPER_D2F,
  UPPER_DF,
  UPPER_F,
  UPPER_INV_V,
  UPPER_MIDDLE_R,
  UPPER_R,
} from './initialGuess.js';
import { COMPLEMENT, kernelOut, otmBlack, VEGA } from './normalisedBlack.js';
import { RC_MIN, rationalCubic } from './rationalCubic.js';

/** Number of correction steps; Jäckel's initial guesses make two sufficient for machine precision, mostly one. */
const MAX_ITERATIONS = 2;
/**
 * Each step is of fourth order (quintic convergence, see `quartic`): after a first correction ds below 2e-3·s the
 * relative error measured over the whole domain is below 5e-14, so the second step is skipped.
 */
const CONVERGED_STEP = 2e-3;

/** Built on the first lower-segment quote (a few milliseconds), not at import; null while building. */
let lowerTable: Float64Array | null = null;
let lowerTableState = 0; // 0: not built, 1: building, 2: built

/**
 * s = σ√T such that b(x, s) = beta, for x < 0 and 0 < beta < bMax = e^{x/2} (Let's Be Rational).
 *
 * b(x, ·) has its inflection point at s_c = √(2|x|). Tangents there define s_l < s_c < s_u and split the β axis into
 * four segments. In the two middle ones s(β) is interpolated directly by a rational cubic; in the outer ones the
 * interpolation is done on transformed values f(β) that mimic b's asymptotics (so the guess is already close), and
 * the Householder steps use objectives that are nearly linear there: 1/ln b in the lower and ln(b_max − b) in the
 * upper segment.
 */
export function normalisedImpliedVol(beta: number, x: number, bMax: number): number {
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
        lowerTable = buildLowerTable(normalisedImpliedVol);
        lowerTableState = 2;
        locateGuess(x, bMax, rootAx); // the build moved the interpolation weights
      }
      if (lowerTable !== null && tabulated() && w < 1) {
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
