import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DATA_VERSIONS_SQL } from '../platform/db/dataVersions';
import type { SqlObject } from '../platform/db/sqlObjects';
import { requirePricer, requireTrader } from '../platform/http/guards';
import { ViewCache } from '../platform/views/cache';
import { runView } from '../platform/views/engine';
import { audit } from './audit/routes';
import { conditional } from './conditional/routes';
import type { AppContext, Capability, PricerCaller, TraderCaller } from './context';
import { contracts } from './contracts/routes';
import { customers } from './customers/routes';
import { fixing } from './fixing/routes';
import { margin } from './margin/routes';
import { lifecycle } from './lifecycle/routes';
import { notifications } from './notifications/routes';
import { market } from './market/routes';
import { orders } from './orders/routes';
import { simHooks } from './simhooks/routes';
import { system } from './system/routes';
import { tenants } from './tenants/routes';
import { rememberedTenantIds } from './tenants/tenantIds';

/** Every capability of the server. A new one is a folder here and a line in this list (docs/architecture.md). */
export const CAPABILITIES: readonly Capability[] = [
  system,
  market,
  tenants,
  customers,
  contracts,
  orders,
  conditional,
  fixing,
  audit,
  margin,
  simHooks,
  lifecycle,
  notifications,
];

/**
 * Every view, function and trigger, applied after the versioned migrations in this order (platform/db/sqlObjects.ts):
 * the platform's (the customer's data version) first, then each capability's `sql` in list order.
 */
export const SQL_OBJECTS: readonly SqlObject[] = [...DATA_VERSIONS_SQL, ...CAPABILITIES.flatMap((c) => c.sql ?? [])];

/**
 * Registers the capabilities' calls by audience: the open calls as they are, every trader call behind
 * the identity provider's token (SPEC §7), every customer call but login behind the customer's session.
 */
export async function registerCapabilities(app: FastifyInstance, ctx: AppContext) {
  for (const c of CAPABILITIES) if (c.open) await app.register(async (open) => c.open!(open, ctx));

  const trader = traderCaller(ctx);
  await app.register(async (scope) => {
    scope.addHook('onRequest', requireTrader(ctx.traderVerifier));
    for (const c of CAPABILITIES) c.trader?.(scope, ctx, trader);
  });

  const pricer: PricerCaller = {
    who: (req) => ({ tenantId: req.pricer!.tenantId, pricerId: req.pricer!.userId }),
    actor: (req) => `pricer:${req.pricer!.userId}`,
  };
  await app.register(async (scope) => {
    scope.addHook('onRequest', requirePricer(ctx.pricerTokens, ctx.db));
    for (const c of CAPABILITIES) c.pricer?.(scope, ctx, pricer);
  });
}

function traderCaller(ctx: AppContext): TraderCaller {
  const sub = (req: FastifyRequest) => req.trader!.sub;
  // One PostgreSQL round trip less per polled view (tenants/tenantIds.ts).
  const tenantIds = rememberedTenantIds(ctx.db);
  const tenantOf = (req: FastifyRequest) => tenantIds(sub(req));
  // The console polls its views every 5 s (SPEC): big totals and stats are kept that long (platform/views/cache.ts).
  const cache = ctx.viewCache ?? new ViewCache({ ttlMs: 5000 });
  return {
    sub,
    tenantOf,
    view: async (req, def, body, scope = (tenant_id) => ({ tenant_id })) =>
      runView(ctx.db, def, body, scope(await tenantOf(req)), { cache }),
  };
}
