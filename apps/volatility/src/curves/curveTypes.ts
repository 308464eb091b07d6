/** SPEC §3: 8 curve types, call or put × ask, bid, mid, last; fixed colours; put curves dashed. */
export type OptionType = 'CALL' | 'PUT';
export type PriceType = 'ask' | 'bid' | 'mid' | 'last';

export interface CurveType {
  optionType: OptionType;
  priceType: PriceType;
  label: string;
  color: string;
  strokeDasharray?: string;
}

const PRICE_LABELS: Record<PriceType, string> = { ask: '卖价', bid: '买价', mid: '中间价', last: '最新价' };
const COLORS: Record<OptionType, Record<PriceType, string>> = {
  CALL: { ask: '#e03131', bid: '#2f9e44', mid: '#1971c2', last: '#f08c00' },
  PUT: { ask: '#c2255c', bid: '#0c8599', mid: '#6741d9', last: '#5c940d' },
};

export const CURVE_TYPES: CurveType[] = (['CALL', 'PUT'] as const).flatMap((optionType) =>
  (['ask', 'bid', 'mid', 'last'] as const).map((priceType) => ({
    optionType,
    priceType,
    label: `${optionType === 'CALL' ? '看涨' : '看跌'}${PRICE_LABELS[priceType]}`,
    color: COLORS[optionType][priceType],
    ...(optionType === 'PUT' ? { strokeDasharray: '5 5' } : {}),
  })),
);

export const curveTypeId = (c: Pick<CurveType, 'optionType' | 'priceType'>) => `${c.optionType}-${c.priceType}`;

/** First load selects call-last and put-last. */
export const DEFAULT_CURVE_TYPE_IDS = ['CALL-last', 'PUT-last'];

/** The server's key of a curve: `{future}-{optionType}-{priceType}`. */
export const curveKey = (future: string, c: Pick<CurveType, 'optionType' | 'priceType'>) =>
  `${future}-${curveTypeId(c)}`;
