import { formatLots, formatNumber } from './format';

/**
 * Formatting of the fixing terms (docs/fixing.md), shared by the trader console and the customer desk.
 */

/** A basis with its sign: 150 → '+150.00', -20 → '-20.00', 0 → '0.00'; invalid → '-'. */
export function formatBasis(n: number | null | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '-';
  const text = formatNumber(n, 2);
  return n > 0 ? `+${text}` : text;
}

/** Beijing calendar day of an instant (by default now), 'YYYY-MM-DD'. */
export function beijingDay(at: Date | string | number = Date.now()): string {
  const t = new Date(new Date(at).getTime() + 8 * 3_600_000);
  return t.toISOString().slice(0, 10);
}

/** A deadline this close (days) is highlighted. */
export const DEADLINE_WARNING_DAYS = 3;

/** Decimal places of a tick: 0.02 → 2, 10 → 0 (the basis input's precision). */
export function tickDecimals(tick: number): number {
  const text = String(tick);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Whether `value` is a whole number of ticks (the server checks the same). */
export function isOnTickGrid(value: number, tick: number): boolean {
  if (!(tick > 0) || !Number.isFinite(value)) return false;
  const r = value / tick;
  return Math.abs(r - Math.round(r)) < 1e-6;
}

/** Lots with what they weigh: (2, 5, '吨') → '2 手（10 吨）'; without a unit or multiplier just the lots. */
export function formatLotsWithUnits(
  lots: number | null | undefined,
  multiplier: number | null | undefined,
  unit: string | null | undefined,
): string {
  const text = formatLots(lots);
  if (typeof lots !== 'number' || !Number.isFinite(lots) || !multiplier || !unit) return text;
  return `${text}（${formatNumber(lots * multiplier)} ${unit}）`;
}

/** The contract multiplier per lot: (5, '吨') → '5 吨/手'; without a unit the number alone. */
export function formatMultiplier(multiplier: number | null | undefined, unit: string | null | undefined): string {
  if (typeof multiplier !== 'number' || !Number.isFinite(multiplier)) return '-';
  return unit ? `${formatNumber(multiplier)} ${unit}/手` : formatNumber(multiplier);
}
