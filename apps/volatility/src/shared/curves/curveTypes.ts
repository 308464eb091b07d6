import type { CurveItem } from '@pfp/contract';
import { zh } from '@pfp/i18n';

/** SPEC §3: 8 curve types, call or put × ask, bid, mid, last; fixed colours; put curves dashed. */
export type OptionType = CurveItem['option_type'];
export type PriceType = CurveItem['price_type'];

export interface CurveType {
  optionType: OptionType;
  priceType: PriceType;
  label: string;
  color: string;
  strokeDasharray?: string;
}

export const OPTION_TYPES: readonly OptionType[] = ['CALL', 'PUT'];
export const PRICE_TYPES: readonly PriceType[] = ['ask', 'bid', 'mid', 'last'];

/** Call and put of one price type share a hue family, so a smile's two wings read as a pair. */
const COLORS: Record<OptionType, Record<PriceType, string>> = {
  CALL: { ask: '#e03131', bid: '#2f9e44', mid: '#1971c2', last: '#f08c00' },
  PUT: { ask: '#c2255c', bid: '#0c8599', mid: '#6741d9', last: '#5c940d' },
};
const PUT_DASH = '5 5';

const t = zh.volatility;

export const CURVE_TYPES: readonly CurveType[] = OPTION_TYPES.flatMap((optionType) =>
  PRICE_TYPES.map((priceType) => ({
    optionType,
    priceType,
    label: `${t.optionTypes[optionType]}${t.priceTypes[priceType]}`,
    color: COLORS[optionType][priceType],
    ...(optionType === 'PUT' ? { strokeDasharray: PUT_DASH } : {}),
  })),
);

export const curveTypeId = (c: Pick<CurveType, 'optionType' | 'priceType'>) => `${c.optionType}-${c.priceType}`;

const BY_ID = new Map(CURVE_TYPES.map((c) => [curveTypeId(c), c]));

/** The curve types of the given ids, in the given order; unknown ids are skipped. */
export function curveTypesOf(ids: readonly string[]): CurveType[] {
  return ids.flatMap((id) => BY_ID.get(id) ?? []);
}

/** First load selects call-last and put-last. */
export const DEFAULT_CURVE_TYPE_IDS: readonly string[] = ['CALL-last', 'PUT-last'];

/** The server's key of a curve: `{future}-{optionType}-{priceType}`. */
export const curveKey = (future: string, c: Pick<CurveType, 'optionType' | 'priceType'>) =>
  `${future}-${curveTypeId(c)}`;

/** SVG-style dash pattern '5 5' as the number array echarts wants; solid lines have none. */
export function dashArray(strokeDasharray: string | undefined): number[] | undefined {
  if (!strokeDasharray) return undefined;
  const parts = strokeDasharray
    .trim()
    .split(/[\s,]+/)
    .map(Number)
    .filter((n) => Number.isFinite(n) && n >= 0);
  return parts.length > 0 ? parts : undefined;
}
