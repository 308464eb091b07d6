import { z } from 'zod';
import { text } from './primitives';

/** SPEC §7 "Market filter calls" (GET /api/rpc/*, public): query strings and answers (lists of ids). */

/** `options=1` narrows a list to what has listed options (the volatility page's filters). */
const optionsOnly = z.enum(['1', 'true', '0', 'false'], { error: '参数 options 应为 1、true、0 或 false' }).optional();
export const onlyWithOptions = (v: z.infer<typeof optionsOnly>) => v === '1' || v === 'true';

const exchangeId = text('缺少参数 exchange_id').min(1, { error: '缺少参数 exchange_id' }).max(16);
const productId = text('缺少参数 product_id').min(1, { error: '缺少参数 product_id' }).max(16);

export const exchangeListQuery = z.object({ options: optionsOnly });
export const productListQuery = z.object({ exchange_id: exchangeId, options: optionsOnly });
export const futureListQuery = z.object({ exchange_id: exchangeId, product_id: productId, options: optionsOnly });
export type ExchangeListQuery = z.input<typeof exchangeListQuery>;
export type ProductListQuery = z.input<typeof productListQuery>;
export type FutureListQuery = z.input<typeof futureListQuery>;

/** Exchange ids (SHFE…), product ids (cu…) or exchange-qualified instrument ids (SHFE.cu2601). */
export const idList = z.array(z.string());
