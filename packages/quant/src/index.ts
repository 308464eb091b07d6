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
