import { addCalendarDays, tradingDayOnOrAfter } from '@pfp/contract';
import { shanghaiToday } from '../src/modules/contracts/fixingTerms';

/**
 * A fixing deadline for tests: the first trading day (the exchange calendar, docs/calendar.md) on or
 * after the Beijing day `days` calendar days from `now` — a deadline must be a trading day, and the
 * suites run on any day of the year.
 */
export function tradingDayIn(days: number, now: Date | number = Date.now()): string {
  return tradingDayOnOrAfter('SHFE', addCalendarDays(shanghaiToday(new Date(now)), days));
}
