/**
 * Normal-distribution primitives used by the option maths.
 *
 * The error function family follows W. J. Cody's rational Chebyshev approximations (Math. Comp. 1969), split so
 * that callers can combine the scaled complementary error function erfcx(y) = e^{y²}·erfc(y) with an exponential they
 * already hold: in the Black formula both Φ terms share one Gaussian factor, so evaluating erfcx instead of erfc saves
 * an exp per term and avoids the relative error of exp(−y²) for large y. The inverse follows Wichura's AS 241.
 */

export const SQRT_HALF_PI = 1.2533141373155001; // √(π/2)
export const SQRT_TWO_PI = 2.5066282746310002; // √(2π)
export const INV_SQRT_TWO_PI = 0.3989422804014327; // 1/√(2π)
export const INV_SQRT2 = 0.7071067811865476; // 1/√2
const INV_SQRT_PI = 0.5641895835477563; // 1/√π

/** Below this |y| erf uses Cody's first interval (no exponential needed). */
export const ERF_SMALL = 0.46875;
/** |z| = √2·ERF_SMALL: the matching threshold on a standard normal variate. */
export const Z_SMALL = 0.6629126073623883;
/** |z| = √2·4: beyond it erfcx uses Cody's asymptotic interval, z = Z_TAIL. */
export const Z_TAIL = 5.656854249492381;

// The rational functions below are evaluated in Estrin's scheme (pairs of coefficients combined by powers y², y⁴,
// y⁸) rather than by Horner's rule: all coefficients and arguments are positive, so nothing cancels, and the
// dependency chain is half as long, which matters in the implied-volatility iteration where every evaluation waits
// for the previous one.

/** erf(y) for |y| ≤ 0.46875 (Cody interval 1). */
export function erfSmall(y: number): number {
  const q = y * y;
  const q2 = q * q;
  const num =
    3209.3775891384694 +
    377.485237685302 * q +
    q2 * (113.86415415105016 + 3.1611237438705655 * q + 0.18577770618460315 * q2);
  const den = 2844.236833439171 + 1282.6165260773723 * q + q2 * (244.02463793444417 + 23.601290952344122 * q + q2);
  return (y * num) / den;
}

/**
 * Correction r(y) of the asymptotic form erfcx(y) = (1/√π − r(y))/y for y > 4 (Cody interval 3). Exposed separately
 * because r is the whole of erfcx(y) − 1/(√π·y), which the Black kernel needs without cancellation.
 */
export function erfcxTailCorrection(y: number): number {
  const q = 1 / (y * y);
  const q2 = q * q;
  const num =
    0.0006587491615298378 +
    0.016083785148742275 * q +
    q2 * (0.12578172611122926 + 0.36034489994980445 * q + q2 * (0.30532663496123236 + 0.016315387137302097 * q));
  const den =
    0.0023352049762686918 +
    0.06051834131244132 * q +
    q2 * (0.5279051029514285 + 1.8729528499234604 * q + q2 * (2.568520192289822 + q));
  return (q * num) / den;
}

/** erfcx(y) = e^{y²}·erfc(y) for y > 0.46875, without any exponential (Cody intervals 2 and 3). */
export function erfcxPos(y: number): number {
  if (y <= 4) {
    const y2 = y * y;
    const y4 = y2 * y2;
    const num =
      1230.3393547979972 +
      2051.0783778260716 * y +
      y2 * (1712.0476126340707 + 881.952221241769 * y) +
      y4 *
        (298.6351381974001 +
          66.11919063714163 * y +
          y2 * (8.883149794388377 + 0.5641884969886701 * y) +
          y4 * 2.1531153547440383e-8);
    const den =
      1230.3393548037495 +
      3439.3676741437216 * y +
      y2 * (4362.619090143247 + 3290.7992357334597 * y) +
      y4 * (1621.3895745666903 + 537.1811018620099 * y + y2 * (117.6939508913125 + 15.744926110709835 * y) + y4);
    return num / den;
  }
  return (INV_SQRT_PI - erfcxTailCorrection(y)) / y;
}

/** erfc(y) for any real y. */
export function erfc(y: number): number {
  const a = Math.abs(y);
  if (a <= ERF_SMALL) return 1 - erfSmall(y);
  // Beyond ~26.6 erfc underflows; erfcx stays finite and exp(−a²) gives the 0.
  const tail = erfcxPos(a) * Math.exp(-a * a);
  return y > 0 ? tail : 2 - tail;
}

/** Standard normal cumulative distribution Φ(z). */
export function normCdf(z: number): number {
  return 0.5 * erfc(-z * INV_SQRT2);
}

/**
 * Scaled normal tail Y(z) = Φ(z)/φ(z) for z ≤ 0 (the Mills ratio of −z). Y'(z) = 1 + z·Y(z), and the Black function is
 * b = φ-weight × [Y(h+t) − Y(h−t)], so this is the natural building block.
 */
export function millsY(z: number): number {
  if (z <= -Z_SMALL) return SQRT_HALF_PI * erfcxPos(-z * INV_SQRT2);
  return SQRT_HALF_PI * Math.exp(0.5 * z * z) * (1 + erfSmall(z * INV_SQRT2));
}

/**
 * Φ⁻¹(½ + q) for −½ < q < ½ (Wichura AS 241, ~1e-16 relative). Taking the offset from ½ instead of p keeps full
 * relative precision for tiny |q|, which the at-the-money implied volatility needs.
 */
export function invNormCdfOffset(q: number): number {
  const aq = Math.abs(q);
  if (aq <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301227 * r + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) * r +
          13731.69376550946) *
          r +
          1971.5909503065513) *
          r +
          133.14166789178438) *
          r +
          3.3871328727963665)) /
      (((((((5226.495278852854 * r + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) * r +
        5394.196021424751) *
        r +
        687.1870074920579) *
        r +
        42.31333070160091) *
        r +
        1)
    );
  }
  // 0.5 − |q| is exact here (Sterbenz), so the tail probability keeps its relative precision.
  const z = tailDeviate(0.5 - aq);
  return q < 0 ? -z : z;
}

/** Φ⁻¹(p) for 0 < p < 1. */
export function invNormCdf(p: number): number {
  if (p < 0.075 || p > 0.925) {
    const z = tailDeviate(p < 0.5 ? p : 1 - p);
    return p < 0.5 ? -z : z;
  }
  return invNormCdfOffset(p - 0.5);
}

/** |Φ⁻¹(p)| for a tail probability 0 < p ≤ 0.075. */
function tailDeviate(p: number): number {
  return p > 0 ? tailDeviateFromRoot(Math.sqrt(-Math.log(p))) : Infinity;
}

/** |Φ⁻¹(p)| from r = √(−ln p) for p ≤ 0.075, for callers that know ln p without p. */
export function tailDeviateFromRoot(r: number): number {
  if (r <= 5) {
    r -= 1.6;
    return (
      (((((((0.0007745450142783414 * r + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r +
        3.6478483247632045) *
        r +
        5.769497221460691) *
        r +
        4.630337846156546) *
        r +
        1.4234371107496835) /
      (((((((1.0507500716444169e-9 * r + 0.0005475938084995345) * r + 0.015198666563616457) * r + 0.14810397642748008) *
        r +
        0.6897673349851) *
        r +
        1.6763848301838038) *
        r +
        2.053191626637759) *
        r +
        1)
    );
  }
  r -= 5;
  return (
    (((((((2.0103343992922881e-7 * r + 0.000027115555687434876) * r + 0.0012426609473880784) * r +
      0.026532189526576124) *
      r +
      0.29656057182850487) *
      r +
      1.7848265399172913) *
      r +
      5.463784911164114) *
      r +
      6.657904643501103) /
    (((((((2.0442631033899397e-15 * r + 1.421511758316446e-7) * r + 0.000018463183175100548) * r +
      0.0007868691311456133) *
      r +
      0.014875361290850615) *
      r +
      0.1369298809227358) *
      r +
      0.599832206555888) *
      r +
      1)
  );
}
