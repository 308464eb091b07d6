import rateLimit from '@fastify/rate-limit';
import { pricerRoutes as api } from '@pfp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { cancelOrder, submitOrder } from '../domain/orders';
import { isPricerActive, loginPricer } from '../domain/pricers';
import { unauthorized } from '../domain/errors';
import { pricerSnapshot } from '../domain/snapshot';
import { tenantInfo } from '../domain/tenants';
import { myOrders } from '../domain/views';
import { requirePricer } from '../http/guards';
import { serve } from '../http/route';

/** SPEC §7 "Customer calls". */
export async function pricerRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const tags = ['pricer'];

  // Public: login (rate limited per address and per account) and the company name.
  await app.register(async (pub) => {
    await pub.register(rateLimit, {
      max: ctx.config.loginRateLimit,
      timeWindow: '1 minute',
      keyGenerator: (req) => {
        const b = (req.body ?? {}) as { tenant_id?: unknown; username?: unknown };
        return `${req.ip}|${String(b.tenant_id)}|${String(b.username)}`;
      },
    });
    serve(
      pub,
      api.login,
      async ({ body }) => {
        const u = await loginPricer(db, body);
        const jwt = await ctx.pricerTokens.sign({ tenantId: u.tenantId, userId: u.userId, username: u.username });
        return {
          jwt_token: jwt,
          user_id: u.userId,
          username: u.username,
          tenant_id: u.tenantId,
          company_name: u.companyName,
        };
      },
      { tags },
    );
  });

  serve(app, api.tenantInfo, ({ body }) => tenantInfo(db, body.tenant_id), { tags });

  await app.register(async (priv) => {
    priv.addHook('onRequest', requirePricer(ctx.pricerTokens));
    // A customer the trader has switched off (停用) is signed out at the next call.
    priv.addHook('onRequest', async (req) => {
      if (!(await isPricerActive(db, req.pricer!.tenantId, req.pricer!.userId)))
        throw unauthorized('账户已停用，请联系贸易商');
    });
    const who = (req: FastifyRequest) => ({ tenantId: req.pricer!.tenantId, pricerId: req.pricer!.userId });

    serve(priv, api.snapshot, ({ req }) => pricerSnapshot(db, who(req), (s) => ctx.quote?.(s)), { tags });

    serve(priv, api.myOrders, ({ req, body }) => myOrders(db, who(req), body), { tags });

    serve(priv, api.submitOrder, ({ req, body }) => submitOrder(db, who(req), body, ctx.orderEvents), { tags });

    serve(
      priv,
      api.cancelOrder,
      ({ req, body }) => {
        const w = who(req);
        return cancelOrder(db, { ...w, actor: `pricer:${w.pricerId}` }, body.order_id, ctx.orderEvents);
      },
      { tags },
    );
  });
}
