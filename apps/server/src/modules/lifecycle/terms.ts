import { zh } from '@pfp/i18n';
import { addCalendarDays, exchangeOfSymbol, tradingDayOnOrBefore } from '@pfp/contract';
import { findInstrument } from '../../market/catalogue';
import { invalid } from '../../platform/errors';

/**
 * The rules of a contract's life that need no database (docs/fixing.md): the latest deadline a
 * future allows and each day's share of an average window's lots (its trading days: market/calendar.ts).
 */

const E = zh.lifecycle.errors;

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
