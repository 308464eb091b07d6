import { zh } from '@pfp/i18n';
import { deadlineDayProblem, exchangeOfSymbol } from '@pfp/contract';
import { invalid } from '../../platform/errors';
import { addDays, dateKey, shanghaiCivilDate } from '../../market/calendar';
import { shanghaiInstant } from '../../platform/time';

/**
 * The business terms of a contract (docs/fixing.md): basis (基差) and fixing deadline (点价截止日).
 * Pure rules; the domain modules apply them.
 */

/** The wire rules of the terms live in @pfp/contract; the rules that need the clock or the instrument here. */
import { basis as basisSchema } from '@pfp/contract';
export { basisSchema };
export { fixingDeadline as fixingDeadlineSchema, isCalendarDay } from '@pfp/contract';

/** Today's calendar day in Beijing time, 'YYYY-MM-DD' (deadlines are Beijing calendar days). */
export function shanghaiToday(now: Date = new Date()): string {
  return dateKey(shanghaiCivilDate(now));
}

/**
 * A deadline day ends with that trading day, at the close of the product's last session of the day:
 * 15:00 Beijing time for every commodity product (the night session opens a trading day, the day
 * session closes it; market/catalogue.test.ts checks it), the close the simulated broker also uses.
 */
export const FIXING_CLOSE_HOUR = 15;

/**
 * The earliest deadline still open at `now`: today before the close, tomorrow from the close on.
 * A contract can be fixed while its deadline is this day or later (or it has none).
 */
export function firstOpenDeadline(now: Date = new Date()): string {
  const today = shanghaiCivilDate(now);
  if (now.getTime() < shanghaiInstant(today.y, today.m, today.d, FIXING_CLOSE_HOUR)) return dateKey(today);
  return dateKey(addDays(today, 1));
}

/** Whether the deadline's trading day has closed (null: no deadline, never). */
export function isPastDeadline(deadline: string | null, now: Date = new Date()): boolean {
  return deadline !== null && deadline < firstOpenDeadline(now);
}

/**
 * Throws a 400 naming `basis` unless it is a commercial number (元, up to 2 decimals, sign allowed):
 * the wire schema's rule, kept by the domain too so no caller can store a rounded basis.
 */
export function assertBasis(basis: number) {
  const checked = basisSchema.safeParse(basis);
  if (!checked.success) throw invalid(checked.error.issues[0]?.message ?? '基差无效', 'basis');
}

/** Throws a 400 naming `fixing_deadline` when the day is over (or today's close has passed). */
export function assertDeadlineOpen(deadline: string, now: Date = new Date()) {
  if (!isPastDeadline(deadline, now)) return;
  if (deadline < shanghaiToday(now)) throw invalid('点价截止日不能早于今天', 'fixing_deadline');
  throw invalid(`今天已收盘（${FIXING_CLOSE_HOUR}:00），点价截止日请选择明天或之后的日期`, 'fixing_deadline');
}

/**
 * Throws a 400 naming `fixing_deadline` unless the day is a trading day of the exchange of
 * `instrumentId` (the exchange calendar, docs/calendar.md).
 */
export function assertDeadlineTradingDay(deadline: string, instrumentId: string) {
  const problem = deadlineDayProblem(exchangeOfSymbol(instrumentId) ?? 'SHFE', deadline);
  if (problem) throw invalid(problem, 'fixing_deadline');
}

/** Why a contract cannot be fixed (a submit answers `${reason}，不能下单`); null when it can. */
export function notFixableReason(
  c: { status: string; fixing_deadline: string | null; pricing_mode?: string },
  now: Date = new Date(),
): string | null {
  if (c.status === 'completed') return '合同已完成';
  if (c.pricing_mode === 'average') return zh.lifecycle.errors.averageByHand;
  if (isPastDeadline(c.fixing_deadline, now)) return `合同已过点价截止日（${c.fixing_deadline}）`;
  if (c.status === 'expired') return '合同已过期';
  if (c.status === 'paused') return '合同已暂停';
  return null;
}
