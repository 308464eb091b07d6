import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DATA_VERSIONS_SQL } from '../platform/db/dataVersions';
import type { SqlObject } from '../platform/db/sqlObjects';
import { declareRoles, requirePricer, requireRoles, requireTrader } from '../platform/http/guards';
import { zh } from '@pfp/i18n';
import { traderRoles } from './roles';
import { ViewCache } from '../platform/views/cache';
import { runView } from '../platform/views/engine';
import { WsRegistry } from '../platform/ws/registry';
import { attachViewServer } from '../platform/ws/server';
import type { FillsBooked } from '../trading/apply';
import type { ConditionTrigger } from '../trading/conditions';
import { agreement } from './agreement/routes';
import { authorised } from './authorised/routes';
import { approvals } from './approvals/routes';
import { audit } from './audit/routes';
import { conditional } from './conditional/routes';
import type { AppContext, Capability, Job, PricerCaller, RunContext, TraderCaller } from './context';
import { contracts } from './contracts/routes';
import { controls } from './controls/routes';
import { customers } from './customers/routes';
import { fixing } from './fixing/routes';
import { margin } from './margin/routes';
import { lifecycle } from './lifecycle/routes';
import { live } from './live/routes';
import { liveAccount, liveCaller, type LiveCaller } from './live/hub';
import { notifications } from './notifications/routes';
import { market } from './market/routes';
import { orders } from './orders/routes';
import { pricing } from './pricing/routes';
import { simHooks } from './simhooks/routes';
import { statements } from './statements/routes';
import { staff } from './staff/routes';
import { staffAccess } from './staff/staff';
import { system } from './system/routes';
import { tenants } from './tenants/routes';
import { volatility } from './volatility/routes';
import { rememberedTenantIds } from './tenants/tenantIds';

/** Every capability of the server. A new one is a folder here and a line in this list (docs/architecture.md). */
export const CAPABILITIES: readonly Capability[] = [
  system,
  market,
  tenants,
  customers,
  contracts,
  orders,
  controls,
  conditional,
  fixing,
  audit,
  margin,
  simHooks,
  lifecycle,
  notifications,
  volatility,
  live,
  pricing,
  agreement,
  authorised,
  statements,
  staff,
  approvals,
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
    // Every trader route's staff roles, from the route table; a route without roles stops the server (docs/roles.md).
    scope.addHook('onRoute', declareRoles(traderRoles));
    scope.addHook(
      'onRequest',
      requireRoles((sub) => staffAccess(ctx.db, sub), zh.roles),
    );
    for (const c of CAPABILITIES) c.trader?.(scope, ctx, trader);
  });

  const pricer: PricerCaller = {
    who: (req) => ({ tenantId: req.pricer!.tenantId, pricerId: req.pricer!.userId }),
    actor: (req) => `pricer:${req.pricer!.userId}`,
    login: (req) => ({ username: req.pricer!.username, person: req.pricer!.person }),
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

/**
 * What the capabilities add to trading, for the trading service (main.ts): the one 条件单 trigger,
 * and every capability's fillsBooked, in list order, in the booking's transaction.
 */
export function tradingHooks(capabilities: readonly Capability[] = CAPABILITIES): {
  trigger: ConditionTrigger;
  fillsBooked?: FillsBooked;
} {
  const triggers = capabilities.flatMap((c) => (c.trading?.trigger ? [c.trading.trigger] : []));
  if (triggers.length !== 1) throw new Error(`exactly one capability gives the 条件单 trigger (${triggers.length} do)`);
  const booked = capabilities.flatMap((c) => (c.trading?.fillsBooked ? [c.trading.fillsBooked] : []));
  if (!booked.length) return { trigger: triggers[0]! };
  return {
    trigger: triggers[0]!,
    fillsBooked: async (tx, fills) => {
      for (const hook of booked) await hook(tx, fills);
    },
  };
}

/** The capabilities' sources and jobs, running (runCapabilities). */
export interface RunningCapabilities {
  /** Each job's first run (Job.start), in list order, awaited one after the other. */
  start(): Promise<void>;
  /** Every job and source stopped, in the reverse of the order they were built. */
  stop(): Promise<void>;
}

/**
 * Builds every capability's WebSocket sources and then its jobs, in list order, and puts the sources
 * on the app's WebSocket server (the view protocol: a trader's or a customer's token; the volatility
 * view is public in the embedded default; the WS_MAX_* limits, behind the same proxies as HTTP).
 */
export function runCapabilities(
  app: FastifyInstance,
  ctx: RunContext,
  capabilities: readonly Capability[] = CAPABILITIES,
): RunningCapabilities {
  const running: Job[] = [];
  const registry = new WsRegistry();
  for (const c of capabilities) {
    const sources = c.sources?.(ctx);
    if (sources) {
      running.push(sources);
      for (const [name, source] of sources.sources) registry.source(name, source);
    }
    running.push(...(c.jobs?.(ctx) ?? []));
  }
  const tenantOf = rememberedTenantIds(ctx.db);
  attachViewServer(app, registry, (token) => liveCaller(ctx, token), {
    limits: ctx.config.ws,
    trustProxy: ctx.config.trustProxy,
    accountOf: (caller) => liveAccount(tenantOf, caller as LiveCaller),
  });
  return {
    async start() {
      for (const job of running) await job.start?.();
    },
    async stop() {
      for (const job of [...running].reverse()) await job.stop();
    },
  };
}
