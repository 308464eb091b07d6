/**
 * The implied-volatility smile of one simulated option chain:
 * iv = atm·(1 + skew·x + curvature·x²) with x = ln(K/F)/(atm·√T), clamped to ±4. The at-the-money
 * vol is the product's `vol`, the very vol its future moves at (futuresProcess.ts), so options are
 * fairly priced against the futures' own behaviour.
 *
 * Noise, each an AR(1) moved by `evolve()` (every few seconds) with a correlation time of about
 * ten minutes, as vols drift rather than flicker: a level and a slope (in x) shared by the whole
 * chain, stationary sd 0.4 and 0.15 vol points, and a small per-strike part (0.08 vol points). The call
 * and the put of a strike share it, so put–call parity holds on the model values.
 */
import type { Rng } from './rng';
import type { OptionProductSpec, ProductSpec } from './types';

const NOISE_KEEP = 0.99;
const INNOVATION = Math.sqrt(1 - NOISE_KEEP * NOISE_KEEP);
const LEVEL_SD = 0.004;
const SLOPE_SD = 0.0015;
const STRIKE_SD = 0.0008;
/** Floor of the smile's shape factor, and of any vol it produces. */
const MIN_SHAPE = 0.5;
const MIN_VOL = 0.01;

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export class Smile {
  private readonly atm: number;
  private readonly noise: number[];
  private level: number;
  private slope: number;

  constructor(
    product: ProductSpec,
    private readonly opt: OptionProductSpec,
    strikes: number,
    private readonly rng: Rng,
  ) {
    this.atm = product.vol;
    // Drawn from the stationary distribution.
    this.noise = Array.from({ length: strikes }, () => STRIKE_SD * rng.normal());
    this.level = LEVEL_SD * rng.normal();
    this.slope = SLOPE_SD * rng.normal();
  }

  /** One step of the noise. */
  evolve(): void {
    const { rng } = this;
    this.level = NOISE_KEEP * this.level + LEVEL_SD * INNOVATION * rng.normal();
    this.slope = NOISE_KEEP * this.slope + SLOPE_SD * INNOVATION * rng.normal();
    for (let i = 0; i < this.noise.length; i++) {
      this.noise[i] = NOISE_KEEP * this.noise[i]! + STRIKE_SD * INNOVATION * rng.normal();
    }
  }

  /** Standardised moneyness of a strike. */
  moneyness(F: number, K: number, T: number): number {
    return clamp(Math.log(K / F) / (this.atm * Math.sqrt(T)), -4, 4);
  }

  /** The smile without noise (settlements are struck on it). */
  base(F: number, K: number, T: number): number {
    const x = this.moneyness(F, K, T);
    return this.atm * Math.max(MIN_SHAPE, 1 + this.opt.skew * x + this.opt.curvature * x * x);
  }

  /** The live vol of the strike with index `strikeIndex`, noise included. */
  vol(F: number, K: number, T: number, strikeIndex: number): number {
    const x = this.moneyness(F, K, T);
    return Math.max(MIN_VOL, this.base(F, K, T) + this.level + this.slope * x + this.noise[strikeIndex]!);
  }
}
