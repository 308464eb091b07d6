/**
 * Black-76 (options on futures) price and implied volatility.
 *
 * Everything runs on the normalised Black function of P. Jäckel, "Let's Be Rational" (Wilmott 2015):
 *   x = ln(F/K), s = σ√T, b(x, s) = e^{x/2}·Φ(x/s + s/2) − e^{−x/2}·Φ(x/s − s/2)  (a call),
 *   price = e^{−rT}·√(FK)·b.
 * Put–call parity moves every quote to the out-of-the-money side, where b is a pure time value and can be computed
 * (and inverted) to full relative precision; that side is always a call with x ≤ 0.
 */
import { normalisedImpliedVol } from './normalisedImpliedVol.js';
import { COMPLEMENT, kernelOut, otmBlack, VEGA } from './normalisedBlack.js';
import { invNormCdfOffset } from './normal.js';
import { controlFittingSecondDerivative, rationalCubic } from './rationalCubic.js';

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
