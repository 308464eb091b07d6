import { z } from 'zod';
import { invalid, notFound } from '../../platform/errors';
import type { Capability } from '../context';
import { configuredFixingTime, fixingDay, fixingTimeText, runAverageFixings } from '../lifecycle/average';
import { FIXING_CLOSE_HOUR } from '../contracts/fixingTerms';
import { closedDay, publishSettlementPrices, runSettlementBookings } from '../lifecycle/settlement';

/** The end-to-end suites' market shock: a listed future moved by a percentage (−20 … +20). */
const shiftBody = z.object({
  symbol: z.string().min(1).max(40),
  percent: z.number().finite().min(-20).max(20),
});

/** An instant with its zone (e.g. 2026-11-30T14:50:00+08:00): a time without one would be the server's. */
const fixingsBody = z.object({ at: z.iso.datetime({ offset: true }) });
/** The close as if the clock said `at`; `book: false` publishes the settlement prices only (a kill before the booking). */
const closeBody = z.object({ at: z.iso.datetime({ offset: true }), book: z.boolean().optional().default(true) });

/**
 * Hooks for the end-to-end suites, registered only when the server runs with SIM_MARKET_HOOKS=1 and the
 * simulated exchange (ctx.shiftMarket, ctx.simAverageFixings); never in production (docs/security.md).
 *
 * POST /api/test/market-shift {symbol, percent}: moves the simulated market at once, so a browser test
 * can make "the market moves against the customer" happen (docs/margin.md).
 *
 * POST /api/test/average-fixings {at}: one run of the average-fixing job as if its clock said `at`
 * (docs/fixing.md), so a browser test can walk an average contract's day without waiting for 14:50.
 * It is the job's own run: the same exactly-once guard (a second call for the same day fixes nothing).
 *
 * POST /api/test/settlement-close {at, book?}: the close of the last trading day closed at `at` — the
 * simulated exchange publishes its settlement prices for that day and, unless `book` is false, the
 * 结算价 average job runs once as if its clock said `at` (docs/fixing.md 均价依据).
 */
export const simHooks: Capability = {
  open(app, ctx) {
    const shift = ctx.shiftMarket;
    if (shift) {
      app.post('/api/test/market-shift', { schema: { hide: true } }, async (req) => {
        const body = shiftBody.safeParse(req.body);
        if (!body.success) throw invalid('请求参数无效：需要合约代码和 −20 至 20 之间的涨跌百分比', 'percent');
        const quote = shift(body.data.symbol, 1 + body.data.percent / 100);
        if (!quote) throw notFound('合约不存在');
        return { symbol: body.data.symbol, last_price: quote.last_price };
      });
    }
    if (ctx.simAverageFixings) {
      // The job's own fixing time (lifecycle/routes.ts).
      const fixingTime = configuredFixingTime();
      const window = `北京时间 ${fixingTimeText(fixingTime)} 至 ${FIXING_CLOSE_HOUR}:00`;
      app.post('/api/test/average-fixings', { schema: { hide: true } }, async (req) => {
        const body = fixingsBody.safeParse(req.body);
        const at = body.success ? new Date(body.data.at) : undefined;
        if (!at || Number.isNaN(at.getTime()))
          throw invalid('请求参数无效：时间 at 须为带时区的 ISO 时间，例如 2026-11-30T14:50:00+08:00', 'at');
        const day = fixingDay(at, fixingTime);
        if (!day) throw invalid(`时间 at 不在交易日的均价点价时段内（${window}）`, 'at');
        const run = await runAverageFixings(ctx.db, {
          now: at,
          events: ctx.tradingPort,
          fixingTime,
        });
        return {
          day,
          fixings: run.map((r) => ({
            contract_id: r.contractId,
            outcome: r.outcome,
            order_id: r.outcome === 'fixed' ? r.orderId : null,
            lots: r.outcome === 'fixed' ? r.lots : 0,
          })),
        };
      });
      const prices = ctx.settlementPrices;
      if (prices) {
        app.post('/api/test/settlement-close', { schema: { hide: true } }, async (req) => {
          const body = closeBody.safeParse(req.body);
          const at = body.success ? new Date(body.data.at) : undefined;
          if (!body.success || !at || Number.isNaN(at.getTime()))
            throw invalid('请求参数无效：时间 at 须为带时区的 ISO 时间，例如 2026-11-30T15:05:00+08:00', 'at');
          const day = closedDay(at);
          const published = await publishSettlementPrices(ctx.db, day, prices(day, [])); // the simulated exchange answers every future
          if (!body.data.book) return { day, published, bookings: [] };
          const run = await runSettlementBookings(ctx.db, {
            now: at,
            settlementPrices: prices,
            fillsBooked: ctx.fillsBooked,
          });
          return {
            day,
            published,
            bookings: run.bookings.map((r) => ({
              contract_id: r.contractId,
              outcome: r.outcome,
              order_id: r.outcome === 'fixed' ? r.orderId : null,
              lots: r.outcome === 'fixed' ? r.lots : 0,
            })),
          };
        });
      }
    }
  },
};
