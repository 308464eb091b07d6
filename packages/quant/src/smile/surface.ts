/**
 * The served volatility surface of one product: its expiries' SVI slices joined in total variance
 * (docs/smile.md).
 *
 * - At an expiry: slice i serves w̃ᵢ(k) = max over j ≤ i of wⱼ(k). A Black call price grows with total variance at a
 *   fixed strike, so w̃ᵢ's call prices are the upper envelope of arbitrage-free (convex, decreasing) call curves —
 *   convex and decreasing — and w̃ is non-decreasing from expiry to expiry at every k: no calendar arbitrage.
 * - Between two expiries: linear in time at fixed k, w = (1 − θ)w̃ᵢ(k) + θw̃ᵢ₊₁(k).
 * - Before the first expiry and beyond the last: flat vol at fixed k, w = w̃(k)·T/Tᵢ of the nearest slice. Scaling a
 *   slice by λ ≤ 1 keeps g ≥ 0 (g is concave in λ and ≥ 0 at 0 and 1); beyond the last expiry λ > 1 keeps it while
 *   λ times the wings' slope stays within Lee's bound of 2, which the tests check out to two years.
 * - Beyond the listed strikes: SVI's own wings, linear in k.
 */
import { sviW, type SviParams } from './svi.js';

export interface SurfaceSlice {
  /** The chain's expiry date (YYYY-MM-DD) and years to it. */
  expiry: string;
  T: number;
  params: SviParams;
}

/** Where a total variance came from: an expiry's slice, between two, or extrapolated in time. */
export type VolRule = 'slice' | 'interpolated' | 'before_first' | 'after_last';

export interface SurfacePoint {
  totalVariance: number;
  vol: number;
  rule: VolRule;
  /** The expiries used (one, or the two around the date). */
  expiries: string[];
}

export class SmileSurface {
  readonly slices: readonly SurfaceSlice[];

  constructor(slices: readonly SurfaceSlice[]) {
    if (slices.length === 0) throw new Error('a surface needs at least one slice');
    this.slices = [...slices].sort((a, b) => a.T - b.T);
  }

  /** The served total variance of slice i at k (the running maximum over the earlier slices). */
  sliceVariance(i: number, k: number): number {
    let w = -Infinity;
    for (let j = 0; j <= i; j++) w = Math.max(w, sviW(this.slices[j]!.params, k));
    return w;
  }

  /** Total variance and vol at log-moneyness k and T years. */
  at(k: number, T: number): SurfacePoint {
    const s = this.slices;
    const n = s.length;
    const point = (w: number, rule: VolRule, expiries: string[]): SurfacePoint => ({
      totalVariance: w,
      vol: Math.sqrt(w / T),
      rule,
      expiries,
    });
    if (!(T > 0)) throw new Error('T must be positive');
    if (T <= s[0]!.T) {
      const w = (this.sliceVariance(0, k) * T) / s[0]!.T;
      return point(w, T === s[0]!.T ? 'slice' : 'before_first', [s[0]!.expiry]);
    }
    if (T >= s[n - 1]!.T) {
      const last = s[n - 1]!;
      const w = this.sliceVariance(n - 1, k) + (this.sliceVariance(n - 1, 0) * (T - last.T)) / last.T;
      return point(w, T === s[n - 1]!.T ? 'slice' : 'after_last', [s[n - 1]!.expiry]);
    }
    let i = 0;
    while (s[i + 1]!.T < T) i++;
    const lo = s[i]!;
    const hi = s[i + 1]!;
    if (hi.T === T) return point(this.sliceVariance(i + 1, k), 'slice', [hi.expiry]);
    const theta = (T - lo.T) / (hi.T - lo.T);
    const w = (1 - theta) * this.sliceVariance(i, k) + theta * this.sliceVariance(i + 1, k);
    return point(w, 'interpolated', [lo.expiry, hi.expiry]);
  }
}
