import { z } from 'zod';
import { invalid, notFound } from '../../platform/errors';
import type { Capability } from '../context';

/** The end-to-end suites' market shock: a listed future moved by a percentage (−20 … +20). */
const shiftBody = z.object({
  symbol: z.string().min(1).max(40),
  percent: z.number().finite().min(-20).max(20),
});

/**
 * POST /api/test/market-shift {symbol, percent}: moves the simulated market at once, so a browser test
 * can make "the market moves against the customer" happen (docs/margin.md). Registered only when the
 * server runs with SIM_MARKET_HOOKS=1 and the simulated exchange (ctx.shiftMarket); never in production.
 */
export const simHooks: Capability = {
  open(app, ctx) {
    const shift = ctx.shiftMarket;
    if (!shift) return;
    app.post('/api/test/market-shift', { schema: { hide: true } }, async (req) => {
      const body = shiftBody.safeParse(req.body);
      if (!body.success) throw invalid('请求参数无效：需要合约代码和 −20 至 20 之间的涨跌百分比', 'percent');
      const quote = shift(body.data.symbol, 1 + body.data.percent / 100);
      if (!quote) throw notFound('合约不存在');
      return { symbol: body.data.symbol, last_price: quote.last_price };
    });
  },
};
