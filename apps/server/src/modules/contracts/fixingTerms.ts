import { zh } from '@pfp/i18n';
import { DEFAULT_AVERAGE_BASIS, deadlineDayProblem, exchangeOfSymbol, type AverageBasis } from '@pfp/contract';
import { invalid } from '../../platform/errors';
import { addDays, dateKey, shanghaiCivilDate, tradingDaysIn } from '../../market/calendar';
import { shanghaiInstant } from '../../platform/time';

/**
 * The business terms of a contract (docs/fixing.md): basis (基差), fixing deadline (点价截止日) and,
 * for 均价点价, the average window.
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

const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 4 });

export const GOODS_PRICE_MESSAGES = {
  basis: (futures: number, basis: number) =>
    `基差过低：期货最新价 ${num(futures)} 加基差 ${num(basis)} 后货物价格不大于 0`,
  spread: (futures: number, basis: number) =>
    `月差过低：转月后基差 ${num(basis)}，加新合约最新价 ${num(futures)} 后货物价格不大于 0`,
} as const;

/**
 * Throws a 400 naming `field` when the basis makes the goods price (futures + basis) 0 or less at the
 * market (issue 40: a basis of −3,500 typed for −350 held negative margin and freed money). Without a
 * live price nothing is checked: the margin of every holding is floored at 0 all the same.
 */
export function assertGoodsPrice(basis: number, futures: number | undefined, field: 'basis' | 'spread') {
  if (futures === undefined || futures + basis > 0) return;
  throw invalid(GOODS_PRICE_MESSAGES[field](futures, basis), field);
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

export interface AverageWindowInput {
  pricing_mode: 'point' | 'average';
  instrument_id?: string;
  average_start?: string | undefined;
  average_end?: string | undefined;
  average_basis?: AverageBasis | undefined;
}

/**
 * The window and 均价依据 of a new contract, checked: 400 naming the field; null for a point contract.
 * An average contract without a basis takes DEFAULT_AVERAGE_BASIS (结算价, docs/fixing.md).
 */
export function checkAverageWindow(
  input: AverageWindowInput,
  fixingDeadline: string,
  now: Date,
): { start: string; end: string; basis: AverageBasis } | null {
  const W = zh.lifecycle.errors.averageWindow;
  if (input.pricing_mode === 'point') {
    if (input.average_start || input.average_end) throw invalid(W.pointHasWindow, 'pricing_mode');
    if (input.average_basis) throw invalid(zh.averageBasis.errors.pointHasBasis, 'average_basis');
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
  return { start, end, basis: input.average_basis ?? DEFAULT_AVERAGE_BASIS };
}
