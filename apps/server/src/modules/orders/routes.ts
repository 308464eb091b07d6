import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { assertAgreement } from '../agreement/agreement';
import { assertAuthorisedPricer } from '../authorised/authorised';
import { lastPriceFrom } from '../margin/market';
import { cancelOrder, submitOrder } from './orders';
import { ordersView } from './views';
import { ORDERS_SQL } from './sql';

/** The fixing itself: a customer's order (submit, cancel) and the trader's order stream. */
export const orders: Capability = {
  sql: ORDERS_SQL,
  trader(app, ctx, trader) {
    const tags = ['trader'];
    serve(app, traderApi.orders, ({ req, body }) => trader.view(req, ordersView, body), { tags });
    serve(
      app,
      traderApi.cancelOrder,
      async ({ req, body }) =>
        cancelOrder(
          ctx.db,
          { tenantId: await trader.tenantOf(req), actor: trader.sub(req) },
          body.order_id,
          ctx.tradingPort,
        ),
      { tags },
    );
  },

  pricer(app, ctx, pricer) {
    const tags = ['pricer'];
    const lastPrice = lastPriceFrom(ctx);
    serve(
      app,
      pricerApi.submitOrder,
      async ({ req, body }) => {
        // 点价协议 first (issue 43): a customer who has not accepted the current version fixes nothing.
        // Then the login must be an active 授权点价人 of the customer (docs/authorised-pricers.md).
        const person = assertAuthorisedPricer(pricer.login(req));
        await assertAgreement(ctx.db, pricer.who(req));
        return submitOrder(
          ctx.db,
          { ...pricer.who(req), person },
          body,
          ctx.tradingPort,
          ctx.priceBand,
          new Date(),
          lastPrice,
          ctx.outOfSession,
        );
      },
      { tags },
    );
    serve(
      app,
      pricerApi.cancelOrder,
      ({ req, body }) =>
        cancelOrder(ctx.db, { ...pricer.who(req), actor: pricer.actor(req) }, body.order_id, ctx.tradingPort),
      { tags },
    );
  },
};
