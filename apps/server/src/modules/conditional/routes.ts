import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { assertAgreement } from '../agreement/agreement';
import { assertAuthorisedPricer } from '../authorised/authorised';
import { lastPriceFrom } from '../margin/market';
import { cancelConditional, createConditional, triggerConditional } from './conditional';
import { myConditionals, tenantConditionals } from './views';
import { CONDITIONAL_SQL } from './sql';

const tags = ['conditional'];

/** The calls of conditional fixing orders (docs/conditional-orders.md). Schemas are the contract's. */
export const conditional: Capability = {
  sql: CONDITIONAL_SQL,
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(
      app,
      traderApi.conditionalOrders,
      async ({ req, body }) => tenantConditionals(db, await trader.tenantOf(req), body),
      { tags },
    );
    serve(
      app,
      traderApi.cancelConditional,
      async ({ req, body }) =>
        cancelConditional(
          db,
          { tenantId: await trader.tenantOf(req), actor: trader.sub(req) },
          body.id,
          ctx.tradingPort,
        ),
      { tags },
    );
  },

  pricer(app, ctx, pricer) {
    const { db } = ctx;
    const lastPrice = lastPriceFrom(ctx);
    serve(
      app,
      pricerApi.createConditional,
      async ({ req, body }) => {
        // 点价协议 first (issue 43); a 条件单 already working fires under the agreement it was made under.
        const person = assertAuthorisedPricer(pricer.login(req));
        await assertAgreement(db, pricer.who(req));
        return createConditional(db, { ...pricer.who(req), person }, body, ctx.tradingPort, new Date(), lastPrice);
      },
      { tags },
    );
    serve(
      app,
      pricerApi.cancelConditional,
      ({ req, body }) =>
        cancelConditional(db, { ...pricer.who(req), actor: pricer.actor(req) }, body.id, ctx.tradingPort),
      { tags },
    );
    serve(app, pricerApi.myConditional, ({ req, body }) => myConditionals(db, pricer.who(req), body), { tags });
  },
  // What a 条件单's trigger does, run by trading's condition engine (docs/conditional-orders.md).
  trading: { trigger: triggerConditional },
};
