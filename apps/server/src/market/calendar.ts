/**
 * Asia/Shanghai calendar arithmetic for the catalogue and the simulated exchange.
 *
 * Beijing time itself (UTC+8, no daylight saving time) is platform/time.ts. Trading days are the
 * exchange calendar's (@pfp/contract `calendar`, docs/calendar.md): weekdays without the State
 * Council's holidays, and no night session on the evening before a holiday.
 */
import {
  hasNightSessionAfter,
  isTradingDay,
  tradingDaysIn as calendarTradingDaysIn,
  type CalendarExchange,
} from '@pfp/contract';
import { shanghaiInstant, shanghaiTime } from '../platform/time';
import type { ExpiryRule, ProductSpec, Session } from './types';

const DAY_MS = 86_400_000;

export interface CivilDate {
  y: number;
  /** 1–12 */
  m: number;
  d: number;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function dateKey(date: CivilDate): string {
  return `${date.y}-${pad(date.m)}-${pad(date.d)}`;
}

export function weekdayOf(date: CivilDate): number {
  return new Date(Date.UTC(date.y, date.m - 1, date.d)).getUTCDay();
}

/** Whether `exchange` trades on the day (the exchange calendar; all mainland exchanges share it). */
export function isTradingDate(date: CivilDate, exchange: CalendarExchange = 'SHFE'): boolean {
  return isTradingDay(exchange, dateKey(date));
}

export function addDays(date: CivilDate, days: number): CivilDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d) + days * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** 'YYYY-MM-DD' → CivilDate. */
export function civil(day: string): CivilDate {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

/**
 * The trading days from `start` to `end`, both included: the exchange calendar's (docs/calendar.md);
 * holidays take no share of an average window.
 */
export function tradingDaysIn(start: string, end: string, exchange: CalendarExchange = 'SHFE'): string[] {
  return calendarTradingDaysIn(exchange, start, end);
}

/** Year and month `offset` months after (y, m). */
export function addMonths(y: number, m: number, offset: number): { y: number; m: number } {
  const index = y * 12 + (m - 1) + offset;
  return { y: Math.floor(index / 12), m: (index % 12) + 1 };
}

/** Months from (y1, m1) to (y2, m2). */
export function monthDiff(y1: number, m1: number, y2: number, m2: number): number {
  return (y2 - y1) * 12 + (m2 - m1);
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The n-th trading day of a month (n ≥ 1), or the |n|-th from its end (n ≤ -1). */
export function nthTradingDay(y: number, m: number, n: number, exchange: CalendarExchange = 'SHFE'): CivilDate {
  const days: CivilDate[] = [];
  for (let d = 1; d <= daysInMonth(y, m); d++) if (isTradingDate({ y, m, d }, exchange)) days.push({ y, m, d });
  const day = n > 0 ? days[n - 1] : days[days.length + n];
  if (!day) throw new Error(`no trading day ${n} in ${y}-${m}`);
  return day;
}

/** The n-th `weekday` of a month (n ≥ 1), or the |n|-th from its end. */
export function nthWeekday(y: number, m: number, n: number, weekday: number): CivilDate {
  const days: CivilDate[] = [];
  for (let d = 1; d <= daysInMonth(y, m); d++) if (weekdayOf({ y, m, d }) === weekday) days.push({ y, m, d });
  const day = n > 0 ? days[n - 1] : days[days.length + n];
  if (!day) throw new Error(`no weekday ${weekday} #${n} in ${y}-${m}`);
  return day;
}

/** Last trading day under `rule` for the contract of year y, month m. */
export function expiryDate(rule: ExpiryRule, y: number, m: number, exchange: CalendarExchange = 'SHFE'): CivilDate {
  const target = addMonths(y, m, rule.monthOffset);
  switch (rule.kind) {
    case 'dayOfMonth': {
      let date: CivilDate = { y: target.y, m: target.m, d: rule.day };
      while (!isTradingDate(date, exchange)) date = addDays(date, 1);
      return date;
    }
    case 'nthTradingDay':
      return nthTradingDay(target.y, target.m, rule.n, exchange);
    case 'nthWeekday': {
      // A named weekday that falls on a holiday moves to the next trading day (the exchanges' rule).
      let date = nthWeekday(target.y, target.m, rule.n, rule.weekday);
      while (!isTradingDate(date, exchange)) date = addDays(date, 1);
      return date;
    }
  }
}

/** Instruments expire at the day session's close, taken as 15:00 Shanghai. */
export function expiryInstant(date: CivilDate): number {
  return shanghaiInstant(date.y, date.m, date.d, 15, 0, 0);
}

function civilOf(at: Date | number): CivilDate {
  const t = shanghaiTime(at);
  return { y: t.y, m: t.m, d: t.d };
}

export function shanghaiCivilDate(at: Date | number): CivilDate {
  return civilOf(at);
}

/**
 * The trading day `at` belongs to: the night session (from 21:00) opens the next trading day, so
 * from 17:00 on it is the next trading day; Friday night and the small hours of Saturday belong to
 * Monday, a holiday to the first trading day after it.
 */
export function tradingDayOf(at: Date | number, exchange: CalendarExchange = 'SHFE'): CivilDate {
  const t = shanghaiTime(at);
  let date: CivilDate = { y: t.y, m: t.m, d: t.d };
  if (t.hh >= 17) date = addDays(date, 1);
  while (!isTradingDate(date, exchange)) date = addDays(date, 1);
  return date;
}

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** Length of a session in minutes (sessions that cross midnight included). */
export function sessionMinutes(session: Session): number {
  const start = minutes(session.start);
  let end = minutes(session.end);
  if (end <= start) end += 24 * 60;
  return end - start;
}

/** Trading minutes of a product per trading day (day sessions plus the night session). */
export function tradingMinutesPerDay(product: Pick<ProductSpec, 'daySessions' | 'nightSession'>): number {
  let total = 0;
  for (const s of product.daySessions) total += sessionMinutes(s);
  if (product.nightSession) total += sessionMinutes(product.nightSession);
  return total;
}

/**
 * Whether the product trades at `at`: day sessions on the exchange's trading days; the night session
 * opens on the evening of a trading day unless a holiday comes before the next one (the exchange
 * calendar), and its part after midnight runs on into the next calendar morning.
 */
export function inSession(
  product: Pick<ProductSpec, 'daySessions' | 'nightSession'> & { exchange?: CalendarExchange },
  at: Date | number,
): boolean {
  const exchange = product.exchange ?? 'SHFE';
  const t = shanghaiTime(at);
  const now = t.hh * 60 + t.mm + t.ss / 60;
  const today = dateKey(t);
  if (isTradingDay(exchange, today)) {
    for (const s of product.daySessions) if (now >= minutes(s.start) && now < minutes(s.end)) return true;
  }
  const night = product.nightSession;
  if (!night) return false;
  const start = minutes(night.start);
  const end = minutes(night.end);
  if (now >= start && (end > start ? now < end : true)) return hasNightSessionAfter(exchange, today);
  // The small hours belong to the night session opened the evening before.
  return end < start && now < end && hasNightSessionAfter(exchange, dateKey(addDays(t, -1)));
}

/** TqSdk's quote datetime: 'YYYY-MM-DD HH:MM:SS.ffffff' in Shanghai time. */
export function formatQuoteTime(at: Date | number): string {
  const t = shanghaiTime(at);
  return `${t.y}-${pad(t.m)}-${pad(t.d)} ${pad(t.hh)}:${pad(t.mm)}:${pad(t.ss)}.${pad(t.ms, 3)}000`;
}

/**
 * Why an order on `product` cannot reach the exchange at `at` — its sessions named, in Chinese — or
 * undefined while it trades. A fix outside the sessions would wait at the broker with the customer's
 * price unknown (docs/calendar.md "Sessions"): it is refused instead.
 */
export function outOfSessionText(
  product: Pick<ProductSpec, 'name' | 'daySessions' | 'nightSession'> & { exchange?: CalendarExchange },
  at: Date | number,
): string | undefined {
  if (inSession(product, at)) return undefined;
  const span = (s: { start: string; end: string }) => `${s.start}–${s.end}`;
  const night = product.nightSession ? `；夜盘 ${span(product.nightSession)}` : '（无夜盘）';
  return `${product.name}当前不在交易时段，不能点价。交易时段（北京时间）：日盘 ${product.daySessions.map(span).join('、')}${night}`;
}
