export { black76Price, black76ImpliedVol } from './black76.js';
export { americanPrice, americanImpliedVol } from './american.js';
export {
  vanilla,
  asianOption,
  asianPrice,
  barrierOption,
  barrierPrice,
  accumulator,
  accumulatorPrice,
  zeroCostStrike,
  tradingDays,
  yearFraction,
  daysBetween,
  isDate,
  isTradingDay,
} from './structures/index.js';
export type { Valuation, AsianTerms, BarrierTerms, AccumulatorTerms } from './structures/index.js';
export { fitSvi, sviW, sviDerivatives, gFunction, butterflyCheck, checkGrid } from './smile/svi.js';
export type { SviParams, SviFit, SmilePoint } from './smile/svi.js';
export { SmileSurface } from './smile/surface.js';
export type { SurfaceSlice, SurfacePoint, VolRule } from './smile/surface.js';
