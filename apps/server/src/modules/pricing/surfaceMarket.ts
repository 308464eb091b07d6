/**
 * 含权报价 on the product's smile surface (docs/smile.md): the vol at the structure's strike and date, read from the
 * cached fit (modules/volatility/smileBook.ts), and a sentence naming where it came from.
 */
import type { priceStructureInput, PriceStructureResult } from '@pfp/contract';
import { productName, zh } from '@pfp/i18n';
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

const NOTE = zh.smile.surfaceNote;
const RULES: Record<SurfaceVol['rule'], (v: SurfaceVol) => string> = {
  slice: (v) => NOTE.slice(v.futures[0] ?? '', v.expiries[0] ?? ''),
  interpolated: (v) => NOTE.interpolated(v.futures[0] ?? '', v.futures[1] ?? ''),
  before_first: (v) => NOTE.beforeFirst(v.futures[0] ?? '', v.expiries[0] ?? ''),
  after_last: (v) => NOTE.afterLast(v.futures[0] ?? '', v.expiries[0] ?? ''),
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
    note: NOTE.read(pct(read.vol), productOf(smile.product), read.strike, date, RULES[read.rule](read)),
  };
}
