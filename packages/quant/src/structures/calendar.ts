/**
 * The product's calendar for option-embedded structures: trading days are weekdays, and a time in years is calendar
 * days ÷ 365 from the valuation date. Dates are ISO 'YYYY-MM-DD' strings read as calendar days (no time zone).
 */
const DAY_MS = 86_400_000;

function dayNumber(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return NaN;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(t);
  // Reject dates that do not exist (2027-02-30 would roll into March).
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return NaN;
  return t / DAY_MS;
}

export function isDate(date: string): boolean {
  return Number.isFinite(dayNumber(date));
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Time in years from the valuation date: calendar days ÷ 365. */
export function yearFraction(valuation: string, date: string): number {
  return daysBetween(valuation, date) / 365;
}

export function isTradingDay(date: string): boolean {
  const dow = new Date(dayNumber(date) * DAY_MS).getUTCDay();
  return dow !== 0 && dow !== 6;
}

/** The trading days (weekdays) from `start` to `end`, both included. */
export function tradingDays(start: string, end: string): string[] {
  const a = dayNumber(start);
  const b = dayNumber(end);
  const out: string[] = [];
  for (let d = a; d <= b; d++) {
    const date = new Date(d * DAY_MS);
    const dow = date.getUTCDay();
    if (dow !== 0 && dow !== 6) out.push(date.toISOString().slice(0, 10));
  }
  return out;
}
