import { formatNumber, zh } from '@pfp/i18n';
import { TONE } from './tones';

const v = zh.marginDefaults.values;

/** 元 with the fen and a sign for a P/L: +1,234.50 元, −30,000.00 元. */
export const signedYuan = (n: number) => `${n > 0 ? '+' : ''}${formatNumber(n, 2)} 元`;
export const yuanText = (n: number) => `${formatNumber(n, 2)} 元`;
/** A price per unit of the goods: 80,150.00 元/吨. */
export const perUnitText = (n: number | null, unit: string | null) =>
  n === null ? v.noQuote : `${formatNumber(n, 2)} ${v.perUnit(unit)}`;
export const signedPerUnit = (n: number | null, unit: string | null) =>
  n === null ? v.noQuote : `${n > 0 ? '+' : ''}${formatNumber(n, 2)} ${v.perUnit(unit)}`;
/** What a P/L is coloured: red a loss, green a gain (the console's AA tones). */
export const pnlColor = (n: number | null) => (n === null || n === 0 ? undefined : n < 0 ? TONE.danger : TONE.success);
