export type { Valuation } from './greeks.js';
export { vanilla } from './vanilla.js';
export { asianOption, asianPrice, type AsianTerms } from './asian.js';
export { barrierOption, barrierPrice, type BarrierTerms } from './barrier.js';
export { accumulator, accumulatorPrice, zeroCostStrike, type AccumulatorTerms } from './accumulator.js';
export { tradingDays, yearFraction, daysBetween, isDate, isTradingDay } from './calendar.js';
