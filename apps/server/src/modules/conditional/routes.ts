import { pricerRoutes as pricerApi, traderRoutes as traderApi } from '@pfp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { cancelConditional, createConditional, myConditionals, tenantConditionals } from './conditional';
import { requireTenantId } from '../tenants/tenants';
import { requirePricer, requireTrader } from '../../platform/http/guards';
import { serve } from '../../platform/http/route';

/** The calls of conditional fixing orders (docs/conditional-orders.md). Schemas are the contract's. */
export async function conditionalRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const tags = ['conditional'];

  await app.register(async (trader) => {
    trader.addHook('onRequest', requireTrader(ctx.traderVerifier));
    const tenantOf = (req: FastifyRequest) => requireTenantId(db, req.trader!.sub);

    serve(
      trader,
      traderApi.conditionalOrders,
      async ({ req, body }) => tenantConditionals(db, await tenantOf(req), body),
      { tags },
    );
    serve(
      trader,
      traderApi.cancelConditional,
      async ({ req, body }) =>
        cancelConditional(db, { tenantId: await tenantOf(req), actor: req.trader!.sub }, body.id, ctx.tradingPort),
      { tags },
    );
  });

  await app.register(async (pricer) => {
    pricer.addHook('onRequest', requirePricer(ctx.pricerTokens, db));
    const who = (req: FastifyRequest) => ({ tenantId: req.pricer!.tenantId, pricerId: req.pricer!.userId });

    serve(
      pricer,
      pricerApi.createConditional,
      ({ req, body }) => createConditional(db, who(req), body, ctx.tradingPort),
      { tags },
    );
    serve(
      pricer,
      pricerApi.cancelConditional,
      ({ req, body }) => {
        const w = who(req);
        return cancelConditional(db, { ...w, actor: `pricer:${w.pricerId}` }, body.id, ctx.tradingPort);
      },
      { tags },
    );
    serve(pricer, pricerApi.myConditional, ({ req, body }) => myConditionals(db, who(req), body), { tags });
  });
}
