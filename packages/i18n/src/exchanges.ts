/** Chinese futures exchanges, identified as in TqSdk symbols (e.g. `SHFE.cu2601`). */
export const EXCHANGES = ['SHFE', 'DCE', 'CZCE', 'CFFEX', 'INE', 'GFEX'] as const;

export type ExchangeId = (typeof EXCHANGES)[number];

export const EXCHANGE_NAMES: Readonly<Record<ExchangeId, string>> = {
  SHFE: '上海期货交易所',
  DCE: '大连商品交易所',
  CZCE: '郑州商品交易所',
  CFFEX: '中国金融期货交易所',
  INE: '上海国际能源交易中心',
  GFEX: '广州期货交易所',
};

/** True when `id` is one of {@link EXCHANGES} (case-sensitive). */
export function isExchangeId(id: string): id is ExchangeId {
  return Object.hasOwn(EXCHANGE_NAMES, id);
}

/** Chinese name of an exchange; unknown ids are returned unchanged. */
export function exchangeName(id: string): string {
  return isExchangeId(id) ? EXCHANGE_NAMES[id] : id;
}
