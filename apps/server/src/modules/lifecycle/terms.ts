import { zh } from '@pfp/i18n';
import {
  addCalendarDays,
  exchangeOfSymbol,
  tradingDayOnOrBefore,
  tradingDaysIn as calendarTradingDaysIn,
  type CalendarExchange,
} from '@pfp/contract';
import type { CivilDate } from '../../market/calendar';
import { findInstrument } from '../../market/catalogue';
import { invalid } from '../../platform/errors';
import { shanghaiToday } from '../contracts/fixingTerms';

/**
 * The rules of a contract's life that need no database (docs/fixing.md): the latest deadline a
 * future allows, the trading days of an average window and each day's share of the lots.
 */

const E = zh.lifecycle.errors;

/** 'YYYY-MM-DD' → CivilDate. */
export function civil(day: string): CivilDate {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

/** The last trading day of a future ('YYYY-MM-DD'), when the catalogue knows it. */
export function lastTradingDay(symbol: string, now: Date): string | undefined {
  const spec = findInstrument(symbol, now);
  return spec?.kind === 'future' ? spec.expiry : undefined;
}

/**
 * The latest fixing deadline on a future: the last trading day of its exchange a week or more before
 * the future's last trading day (undefined: not known).
 */
export function latestDeadline(symbol: string, now: Date): { latest: string; expiry: string } | undefined {
  const expiry = lastTradingDay(symbol, now);
  if (!expiry) return undefined;
  const exchange = exchangeOfSymbol(symbol) ?? 'SHFE';
  return { latest: tradingDayOnOrBefore(exchange, addCalendarDays(expiry, -7)), expiry };
}

/** Throws a 400 naming `fixing_deadline` when it is later than the future allows. */
export function assertBeforeExpiry(deadline: string, symbol: string, now: Date) {
  const limit = latestDeadline(symbol, now);
  if (limit && deadline > limit.latest)
    throw invalid(E.deadlinePastExpiry(limit.latest, limit.expiry), 'fixing_deadline');
}

/**
 * The trading days from `start` to `end`, both included: the exchange calendar's (docs/calendar.md),
 * the one the sessions and expiries use; holidays take no share of an average window.
 */
export function tradingDaysIn(start: string, end: string, exchange: CalendarExchange = 'SHFE'): string[] {
  return calendarTradingDaysIn(exchange, start, end);
}

/**
 * A day's share: the lots left over the trading days left (this one included), rounded; the last day
 * (or any day after the window, a catch-up) takes all that is left, so the total comes out exact.
 */
export function dayShare(lotsLeft: number, daysLeft: number): number {
  if (lotsLeft <= 0) return 0;
  if (daysLeft <= 1) return lotsLeft;
  return Math.min(lotsLeft, Math.max(1, Math.round(lotsLeft / daysLeft)));
}

/** The projected shares of `lotsLeft` over `days` (what the schedule shows for the days to come). */
export function projectShares(lotsLeft: number, days: number): number[] {
  const out: number[] = [];
  let left = lotsLeft;
  for (let i = 0; i < days; i++) {
    const share = dayShare(left, days - i);
    out.push(share);
    left -= share;
  }
  return out;
}

export interface AverageWindowInput {
  pricing_mode: 'point' | 'average';
  instrument_id?: string;
  average_start?: string | undefined;
  average_end?: string | undefined;
}

/** The window of a new contract, checked: 400 naming the field; null for a point contract. */
export function checkAverageWindow(
  input: AverageWindowInput,
  fixingDeadline: string,
  now: Date,
): { start: string; end: string } | null {
  const W = E.averageWindow;
  if (input.pricing_mode === 'point') {
    if (input.average_start || input.average_end) throw invalid(W.pointHasWindow, 'pricing_mode');
    return null;
  }
  if (!input.average_start) throw invalid(W.missing, 'average_start');
  if (!input.average_end) throw invalid(W.missing, 'average_end');
  const start = input.average_start;
  const end = input.average_end;
  if (end < start) throw invalid(W.order, 'average_end');
  if (start < shanghaiToday(now)) throw invalid(W.past, 'average_start');
  if (!tradingDaysIn(start, end, exchangeOfSymbol(input.instrument_id ?? '')).length)
    throw invalid(W.noTradingDay, 'average_start');
  if (end > fixingDeadline) throw invalid(W.afterDeadline(fixingDeadline), 'average_end');
  return { start, end };
}
