/**
 * The normalised Black function of P. Jäckel, "Let's Be Rational" (Wilmott 2015), on the out-of-the-money side:
 *   x = ln(F/K) ≤ 0, s = σ√T, b(x, s) = e^{x/2}·Φ(x/s + s/2) − e^{−x/2}·Φ(x/s − s/2),
 * computed to full relative precision (black76.ts scales it to prices; the solver inverts it).
 */
import {
  ERF_SMALL,
  INV_SQRT2,
  INV_SQRT_TWO_PI,
  SQRT_HALF_PI,
  Z_SMALL,
  Z_TAIL,
  erfSmall,
  erfcxPos,
  erfcxTailCorrection,
  millsY,
} from './normal.js';

/** Below t = s/2 = 0.21 the two Φ terms are too close to subtract; a Taylor series in t is used (≈2·ε^{1/16}). */
const SMALL_T = 0.21;

// Side outputs of the kernel. A typed array rather than module-level `let`s: V8 boxes a double stored in a
// module/closure variable, so every write would allocate a heap number in the hot path.
export const kernelOut = new Float64Array(2);
export const VEGA = 0; // ∂b/∂s at the last evaluation
export const COMPLEMENT = 1; // b_max − b at the last evaluation, accurate also when b is close to b_max

/**
 * Normalised out-of-the-money call b(x, s) for x ≤ 0, s > 0; bMax = e^{x/2}. Also sets kernelOut[VEGA] and
 * kernelOut[COMPLEMENT].
 *
 * With h = x/s, t = s/2 and Y(z) = Φ(z)/φ(z), both Black terms share the Gaussian weight v = φ(h)·e^{−t²/2} (which is
 * also the vega ∂b/∂s), so b = v·[Y(h+t) − Y(h−t)]: a single exponential per evaluation, the rest rational functions.
 * The difference is evaluated in four regimes according to how badly its two terms cancel.
 */
export function otmBlack(x: number, s: number, bMax: number): number {
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
