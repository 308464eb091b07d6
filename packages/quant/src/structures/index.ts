export type { Valuation } from './greeks.js';
export { vanilla } from './vanilla.js';
export { asianOption, type AsianTerms } from './asian.js';
export { barrierOption, type BarrierTerms } from './barrier.js';
export { accumulator, zeroCostStrike, type AccumulatorTerms } from './accumulator.js';
export { tradingDays, yearFraction, daysBetween, isDate, isTradingDay } from './calendar.js';
