/**
 * The exchange calendar (docs/calendar.md): the one module every date rule asks — which days an
 * exchange trades, the n-th trading day after another, whether a night session opens on an evening,
 * and what is known. Pure functions over 'YYYY-MM-DD' days (Beijing calendar days); the server and
 * the apps import it alike.
 *
 * Past the data's last day (CALENDAR_TO) the year's notice is not known: a day there counts as a
 * trading day when it is a weekday and none of the fixed-date holidays of 《全国年节及纪念日放假办法》
 * (元旦 1 January, 劳动节 1–2 May, 国庆节 1–3 October); the lunar holidays (春节, 清明, 端午, 中秋)
 * cannot be known, so `isKnownDay` is false there and callers show the warning (the year-end rule of
 * docs/calendar.md).
 */
import { CALENDAR_FROM, CALENDAR_SOURCE, CALENDAR_TO, EXCHANGE_NAMES, HOLIDAYS, type HolidaySpan } from './data';

export { CALENDAR_FROM, CALENDAR_SOURCE, CALENDAR_TO, EXCHANGE_NAMES, HOLIDAYS, type HolidaySpan };

/** The exchanges whose calendar this is (all mainland exchanges keep the State Council's holidays). */
export type CalendarExchange = 'SHFE' | 'INE' | 'DCE' | 'CZCE' | 'GFEX' | 'CFFEX';

const DAY_MS = 86_400_000;

const CLOSED = new Map<string, HolidaySpan>();
for (const h of HOLIDAYS) for (const day of h.closed) CLOSED.set(day, h);

const toNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / DAY_MS;
const fromNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Whether `day` is a real calendar day written 'YYYY-MM-DD'. */
export function isDayText(day: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && fromNumber(toNumber(day)) === day;
}

/** `day` moved by `n` calendar days. */
export function addCalendarDays(day: string, n: number): string {
  return fromNumber(toNumber(day) + n);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDay(day: string): number {
  return new Date(toNumber(day) * DAY_MS).getUTCDay();
}

const isWeekend = (day: string) => {
  const wd = weekdayOfDay(day);
  return wd === 0 || wd === 6;
};

/** The exchange of a TqSdk symbol ('SHFE.cu2601' → 'SHFE'), undefined when it names none. */
export function exchangeOfSymbol(symbol: string): CalendarExchange | undefined {
  const prefix = symbol.split('.')[0];
  return prefix === 'SHFE' ||
    prefix === 'INE' ||
    prefix === 'DCE' ||
    prefix === 'CZCE' ||
    prefix === 'GFEX' ||
    prefix === 'CFFEX'
    ? prefix
    : undefined;
}

/** Whether the calendar's data covers `day` (false: its holidays are not published yet). */
export function isKnownDay(day: string): boolean {
  return day >= CALENDAR_FROM && day <= CALENDAR_TO;
}

/** The holiday `day` lies in (weekends of the holiday included), if any. */
export function holidayOf(day: string): HolidaySpan | undefined {
  return HOLIDAYS.find((h) => day >= h.from && day <= h.to);
}

/**
 * Whether `exchange` trades on `day`: a weekday that is no holiday. Past the known calendar, every
 * weekday (see `isKnownDay`). The exchanges share one calendar today; the parameter keeps each rule
 * naming whose days it counts.
 */
export function isTradingDay(_exchange: CalendarExchange, day: string): boolean {
  if (isWeekend(day) || CLOSED.has(day)) return false;
  return isKnownDay(day) || !FIXED_HOLIDAYS.has(day.slice(5));
}

/** The holidays the law fixes by date (month-day), kept past the data's end. */
const FIXED_HOLIDAYS = new Map<string, string>([
  ['01-01', '元旦'],
  ['05-01', '劳动节'],
  ['05-02', '劳动节'],
  ['10-01', '国庆节'],
  ['10-02', '国庆节'],
  ['10-03', '国庆节'],
]);

/** Why `exchange` does not trade on `day` ('周六', '周日', '春节休市'), or undefined on a trading day. */
export function closedReason(exchange: CalendarExchange, day: string): string | undefined {
  if (isTradingDay(exchange, day)) return undefined;
  const holiday = CLOSED.get(day)?.name ?? holidayOf(day)?.name ?? FIXED_HOLIDAYS.get(day.slice(5));
  if (holiday) return `${holiday}休市`;
  return weekdayOfDay(day) === 0 ? '周日' : '周六';
}

/**
 * Why `day` cannot be a fixing deadline on `exchange` — '点价截止日 2026-10-05 不是上海期货交易所的交易日
 * （国庆节休市），请选择交易日' — or undefined when it can (the server's 400 and the forms say the same).
 */
export function deadlineDayProblem(exchange: CalendarExchange, day: string): string | undefined {
  const why = closedReason(exchange, day);
  return why && `点价截止日 ${day} 不是${EXCHANGE_NAMES[exchange]}的交易日（${why}），请选择交易日`;
}

/** The first trading day on or after `day`. */
export function tradingDayOnOrAfter(exchange: CalendarExchange, day: string): string {
  let d = day;
  while (!isTradingDay(exchange, d)) d = addCalendarDays(d, 1);
  return d;
}

/** The last trading day on or before `day`. */
export function tradingDayOnOrBefore(exchange: CalendarExchange, day: string): string {
  let d = day;
  while (!isTradingDay(exchange, d)) d = addCalendarDays(d, -1);
  return d;
}

/** The n-th trading day after `day` (n > 0), or before it (n < 0); n = 0: `day` itself. */
export function addTradingDays(exchange: CalendarExchange, day: string, n: number): string {
  let d = day;
  const step = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0;) {
    d = addCalendarDays(d, step);
    if (isTradingDay(exchange, d)) left--;
  }
  return d;
}

/** The trading days from `start` to `end`, both included. */
export function tradingDaysIn(exchange: CalendarExchange, start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = addCalendarDays(d, 1)) if (isTradingDay(exchange, d)) out.push(d);
  return out;
}

/**
 * How many trading days lie after `from` up to `to` (included): 0 when `to` is `from`, 3 when `to`
 * is the third trading day after it (T-3). Negative when `to` is earlier.
 */
export function tradingDaysBetween(exchange: CalendarExchange, from: string, to: string): number {
  if (to < from) return -tradingDaysBetween(exchange, to, from);
  return tradingDaysIn(exchange, addCalendarDays(from, 1), to).length;
}

/**
 * The trading days left to fix before a deadline, counted as reminders count them (T-3): 0 on the
 * deadline's own day, 1 when the deadline is the next trading day — a weekend or a holiday in
 * between adds nothing. `instrumentId` names the exchange (an unknown prefix counts SHFE's days,
 * the commodity exchanges sharing one holiday calendar); `today` is the Beijing day.
 */
export function tradingDaysUntil(instrumentId: string, deadline: string, today: string): number {
  return tradingDaysBetween(exchangeOfSymbol(instrumentId) ?? 'SHFE', today, deadline);
}

/**
 * Whether a night session opens on the evening of trading day `day` (for the next trading day):
 * the exchanges hold none when a holiday lies before the next trading day — only a plain weekend may
 * (Friday night belongs to Monday).
 */
export function hasNightSessionAfter(exchange: CalendarExchange, day: string): boolean {
  if (!isTradingDay(exchange, day)) return false;
  for (let d = addCalendarDays(day, 1); !isTradingDay(exchange, d); d = addCalendarDays(d, 1)) {
    if (!isWeekend(d) || holidayOf(d) || (!isKnownDay(d) && FIXED_HOLIDAYS.has(d.slice(5)))) return false;
  }
  return true;
}

/** The n-th trading day of a month (n ≥ 1), or the |n|-th from its end (n ≤ -1). */
export function nthTradingDayOfMonth(exchange: CalendarExchange, y: number, m: number, n: number): string {
  const first = `${y}-${String(m).padStart(2, '0')}-01`;
  const last = addCalendarDays(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`, -1);
  const days = tradingDaysIn(exchange, first, last);
  const day = n > 0 ? days[n - 1] : days[days.length + n];
  if (!day) throw new Error(`no trading day ${n} in ${y}-${m}`);
  return day;
}

/**
 * The warning staff see while next year's calendar is missing: from 1 December (Beijing day `today`)
 * until the data covers the next year. Undefined when nothing is missing.
 */
export function missingCalendarYear(today: string): number | undefined {
  const year = Number(today.slice(0, 4));
  const missing = today.slice(5) >= '12-01' ? year + 1 : year;
  return CALENDAR_TO < `${missing}-12-31` ? missing : undefined;
}
