import { traderRoutes as api, TRADER_VIEW_NAMES } from '@pfp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from './context';
import { createContract, updateContractStatus } from './contracts/contracts';
import { cancelOrder } from './orders/orders';
import { createPricer, resetPricerPassword, updatePricerStatus } from './customers/pricers';
import { rememberedTenantIds } from './tenants/tenantIds';
import { findTenantId, getProfile, saveProfile } from './tenants/tenants';
import { traderView } from './views';
import { requireTrader } from '../platform/http/guards';
import { serve } from '../platform/http/route';
import { ViewCache } from '../platform/views/cache';

/** SPEC §7 "Trader calls". Every route needs a verified identity-provider token. */
export async function traderRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  app.addHook('onRequest', requireTrader(ctx.traderVerifier));
  const sub = (req: FastifyRequest) => req.trader!.sub;
  // One PostgreSQL round trip less per polled view (domain/tenantIds.ts).
  const tenantIds = rememberedTenantIds(db);
  const tenantOf = (req: FastifyRequest) => tenantIds(sub(req));
  const tags = ['trader'];

  serve(app, api.mySelf, ({ req }) => getProfile(db, sub(req)), { tags });

  serve(
    app,
    api.tqsdkStatus,
    async ({ req }) => {
      const tenantId = await findTenantId(db, sub(req));
      if (tenantId === undefined) return { status: 'error' as const, connected: false, message: '尚未配置交易账户' };
      const status = ctx.gatewayStatus?.(tenantId) ?? { status: 'error' as const, message: '交易网关未启动' };
      return { ...status, connected: status.status === 'ok' };
    },
    { tags },
  );

  serve(
    app,
    api.saveProfile,
    async ({ req, body }) => {
      const tenantId = await saveProfile(db, ctx.secrets, sub(req), body);
      ctx.onProfileSaved?.(tenantId);
      return getProfile(db, sub(req));
    },
    { tags },
  );

  // The desk polls its views every 5 s (SPEC): big totals and stats are kept that long (views/cache.ts).
  const cache = ctx.viewCache ?? new ViewCache({ ttlMs: 5000 });
  for (const name of TRADER_VIEW_NAMES) {
    serve(app, api[name], ({ req, body }) => traderView(db, () => tenantOf(req), name, body, cache), { tags });
  }

  serve(
    app,
    api.cancelOrder,
    async ({ req, body }) =>
      cancelOrder(db, { tenantId: await tenantOf(req), actor: sub(req) }, body.order_id, ctx.tradingPort),
    { tags },
  );

  serve(
    app,
    api.updateContractStatus,
    async ({ req, body }) => updateContractStatus(db, await tenantOf(req), sub(req), body),
    { tags },
  );

  serve(app, api.createContract, async ({ req, body }) => createContract(db, await tenantOf(req), sub(req), body), {
    tags,
  });

  serve(app, api.createPricerUser, async ({ req, body }) => createPricer(db, await tenantOf(req), sub(req), body), {
    tags,
  });

  serve(
    app,
    api.resetPricerPassword,
    async ({ req, body }) => {
      await resetPricerPassword(db, await tenantOf(req), sub(req), body);
      return { user_id: body.user_id };
    },
    { tags },
  );

  serve(
    app,
    api.updatePricerStatus,
    async ({ req, body }) => updatePricerStatus(db, await tenantOf(req), sub(req), body),
    { tags },
  );
}
