import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { parseBody } from '../http/validate';
import { futuresWithOptions, listExchanges, listFutures, listProducts } from './catalogue';

const ok = <T>(data: T) => ({ result: 'ok' as const, data });

/** `options=1` narrows every list to what has listed options (the volatility page's filters). */
const optionsOnly = z
  .union([z.literal('1'), z.literal('true'), z.literal('0'), z.literal('false')])
  .optional()
  .transform((v) => v === '1' || v === 'true');
const exchange = z.string({ message: '缺少参数 exchange_id' }).min(1, { message: '缺少参数 exchange_id' }).max(16);
const product = z.string({ message: '缺少参数 product_id' }).min(1, { message: '缺少参数 product_id' }).max(16);

/** SPEC §7 "Market filter calls": public, read-only, from the instrument catalogue. */
export async function marketRoutes(app: FastifyInstance, _ctx: AppContext) {
  app.get('/api/rpc/exchange_list', async (req) => {
    const q = parseBody(z.object({ options: optionsOnly }), req.query);
    const all = listExchanges();
    return ok(q.options ? all.filter((ex) => listProducts(ex).some((p) => p.option)) : all);
  });

  app.get('/api/rpc/product_list', async (req) => {
    const q = parseBody(z.object({ exchange_id: exchange, options: optionsOnly }), req.query);
    return ok(
      listProducts(q.exchange_id)
        .filter((p) => !q.options || p.option)
        .map((p) => p.id),
    );
  });

  app.get('/api/rpc/future_list', async (req) => {
    const q = parseBody(z.object({ exchange_id: exchange, product_id: product, options: optionsOnly }), req.query);
    const futures = q.options
      ? futuresWithOptions(q.exchange_id, q.product_id)
      : listFutures(q.exchange_id, q.product_id);
    return ok(futures.map((f) => f.symbol));
  });
}
