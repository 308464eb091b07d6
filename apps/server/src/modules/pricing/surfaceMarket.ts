/**
 * 含权报价 on the product's smile surface (docs/smile.md): the vol at the structure's strike and date, read from the
 * cached fit (modules/volatility/smileBook.ts), and a sentence naming where it came from.
 */
import type { priceStructureInput, PriceStructureResult } from '@pfp/contract';
import { productName } from '@pfp/i18n';
import { isDate } from '@pfp/quant';
import type { z } from 'zod';
import { surfaceVol, type ProductSmile, type SurfaceVol } from '../volatility/smileBook';
import { priceStructure, type Market } from './price';

type Terms = z.output<typeof priceStructureInput>['structure'];

/** The date a structure's vol is read at: its expiry, the average's last day, the accumulator's last day. */
function dateOf(t: Terms): string | undefined {
  const d = t.kind === 'asian' ? t.average_end : t.kind === 'accumulator' ? t.end : t.expiry;
  return d !== undefined && isDate(d) ? d : undefined;
}

const RULES: Record<SurfaceVol['rule'], (v: SurfaceVol) => string> = {
  slice: (v) => `${v.futures[0]} 期权链（${v.expiries[0]} 到期）的拟合微笑`,
  interpolated: (v) => `${v.futures[0]} 与 ${v.futures[1]} 两期权链之间按总方差线性插值`,
  before_first: (v) => `早于最近的 ${v.futures[0]} 期权链（${v.expiries[0]} 到期），按其同一价值度的波动率外推`,
  after_last: (v) => `晚于最远的 ${v.futures[0]} 期权链（${v.expiries[0]} 到期），总方差按其平值方差率外推`,
};

const pct = (v: number) => `${(v * 100).toFixed(2)}%`;

/** 'SHFE.cu' → '铜' (the code itself when the product is not known). */
const productOf = (product: string) => {
  const dot = product.indexOf('.');
  return dot < 0 ? product : productName(product.slice(0, dot), product.slice(dot + 1));
};

/**
 * Prices the structure with the surface's vol; undefined when its date is not given (the price's own checks then
 * name the missing field). The zero-cost strike reads the vol at today's price, then once more at the strike found.
 */
export function priceOnSurface(
  terms: Terms,
  smile: ProductSmile,
  base: Omit<Market, 'vol'>,
): PriceStructureResult | undefined {
  const date = dateOf(terms);
  if (date === undefined) return undefined;
  const at = (strike: number) => surfaceVol(smile, base.forward, strike, date);
  let read = at(terms.strike ?? base.forward);
  let result = priceStructure(terms, { ...base, vol: read.vol });
  if (terms.kind === 'accumulator' && terms.solve === 'strike' && result.strike !== undefined) {
    read = at(result.strike);
    result = priceStructure(terms, { ...base, vol: read.vol });
  }
  return {
    ...result,
    vol_source: 'surface',
    vol_point: {
      strike: read.strike,
      date,
      log_moneyness: read.k,
      years: read.years,
      total_variance: read.totalVariance,
      rule: read.rule,
      chains: read.futures,
    },
    // The product by its Chinese name: the calculator showed the code 'SHFE.cu' to the trader.
    note: `波动率 ${pct(read.vol)} 取自${productOf(smile.product)}期权微笑曲面：行权价 ${read.strike}、${date}，${RULES[read.rule](read)}`,
  };
}
