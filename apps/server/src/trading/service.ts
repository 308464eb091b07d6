import pLimit from 'p-limit';
import type { Kysely, Selectable } from 'kysely';
import { asBackground } from '../platform/db/priority';
import type { DB, TenantTable } from '../platform/db/schema';
import type { FillsBooked } from './apply';
import type { TradingPort } from './orderLife';
import { createTradingBatches } from './batches';
import { ConditionEngine, type ConditionTrigger } from './conditions';
import { soleCoordinator, type Coordinator, type CoordinatorMessage } from './coordinator';
import type { GatewayStatus, Lane, TradingGateway } from './gateway';
import type { QuoteSource } from './quotes';
import { OrderRouter, SIM_KEY } from './router';
import { createSimWriter } from './simBook';
import { SimBroker } from './simBroker';
import { silentLogger, type Logger } from '../platform/logger';

export type TenantRow = Selectable<TenantTable>;

export interface TradingServiceOptions {
  db: Kysely<DB>;
  /** Market data the simulated broker matches against. */
  quotes: QuoteSource;
  logger?: Logger;
  /** Opens the DIFF trade gateway of an is_sim = false tenant (not connected yet: the service calls connect()). */
  createRealGateway?: (tenant: TenantRow) => TradingGateway | Promise<TradingGateway>;
  /** Period of the outbox sweep. Default 1000 ms. */
  sweepMs?: number;
  /** The simulated broker's clock (expiry, sessions, trade times). Default: the system clock. */
  now?: () => Date;
  /** Daily close of the simulated exchange, Asia/Shanghai 'HH:MM'. Default '15:00'. */
  closeTime?: string;
  /** Enforces trading sessions at the simulated broker when given. */
  isTrading?: (symbol: string, at: Date) => boolean;
  /** How often the sim broker checks for orders past the close; 0 = only via expireSimOrders(). Default 1000 ms. */
  simExpiryCheckMs?: number;
  /** See OrderRouterOptions. */
  resendAfterMs?: number;
  reconcileEveryMs?: number;
  /** Delay between attempts to connect a real gateway whose connect() failed. Default 10 s. */
  connectRetryMs?: number;
  /**
   * Which instance runs which tenant's gateway when several share the database (pgCoordinator);
   * default: this process runs every tenant. The service closes it on stop().
   */
  coordinator?: Coordinator;
  /** How often the conditional-order engine reads the waiting conditions again (docs/conditional-orders.md). Default 5 s. */
  conditionReloadMs?: number;
  /** What a conditional order's trigger does (modules/conditional: triggerConditional). */
  trigger: ConditionTrigger;
  /** What else a booking of fills records, in its transaction (apply.ts; modules/notifications: notifyFills). */
  fillsBooked?: FillsBooked;
  /**
   * At most this many order-router and simulated-broker transactions (claims, fills, acceptances)
   * at once, over all tenants. A burst of fills then cannot queue the customers' requests behind it for the
   * database (docs/performance.md): on PGlite's one connection, 1; on PostgreSQL, part of the pool.
   * Default: unbounded.
   */
  dbConcurrency?: number;
}

export interface TradingService {
  /** Pass to submitOrder / cancelOrder. */
  events: TradingPort;
  /** For tqsdk-status: the tenant's active gateway. */
  status(tenantId: number): GatewayStatus;
  /** (Re)reads the tenant's settings and connects the matching gateway (sim ↔ real switch, new account). */
  reconnect(tenantId: number): Promise<void>;
  /** Connects every tenant's gateway, reconciles every open order, starts the sweep. */
  start(): Promise<void>;
  /** Stops the sweep and the gateways, after letting running work finish (up to waitMs, default 5 s). */
  stop(waitMs?: number): Promise<void>;
  /** Every open order of every tenant against its gateway's state. */
  reconcile(): Promise<void>;
  /** One outbox sweep now (the timer runs it every sweepMs). */
  sweep(): Promise<void>;
  /** The simulated close: resting sim orders whose trading day ended by `at` (default: now) are cancelled. */
  expireSimOrders(at?: Date): Promise<void>;
  /** Resolves when no order work and no sim-broker work is queued (tests). */
  idle(): Promise<void>;
  /** The conditional-order engine: which conditions this instance watches (it runs their tenants). */
  conditions: Pick<ConditionEngine, 'size' | 'watches' | 'attempts'>;
  /** The active gateway's account positions, when this instance runs the tenant and the gateway can tell. */
  positions(tenantId: number): { instrument_id: string; long: number; short: number }[] | undefined;
}

/** How often an owner republishes its tenants' gateway statuses to the other instances. */
const STATUS_EVERY_MS = 10_000;

export const GATEWAY_MESSAGES = {
  realNotConfigured: '实盘交易网关未配置',
  notStarted: '交易服务未启动',
  connecting: '交易网关连接中',
  noTenant: '租户不存在',
} as const;

/** order_dispatch.gateway_key of a real account. */
export function realGatewayKey(tenant: Pick<TenantRow, 'broker_name' | 'futures_account'>): string {
  return `real:${tenant.broker_name ?? ''}:${tenant.futures_account ?? ''}`;
}

/**
 * Trading for all tenants: one OrderRouter per tenant (independent queues), each with its
 * gateway — a SimBroker for is_sim tenants, `createRealGateway(tenant)` otherwise. All state
 * lives in the database; a process killed at any point is repaired by `start()` (reconcile).
 */
export function createTradingService(opts: TradingServiceOptions): TradingService {
  const { db, quotes } = opts;
  const logger = opts.logger ?? silentLogger;
  const sweepMs = opts.sweepMs ?? 1000;
  const connectRetryMs = opts.connectRetryMs ?? 10_000;
  const routers = new Map<number, OrderRouter>();
  const limit = opts.dbConcurrency ? pLimit(opts.dbConcurrency) : undefined;
  const lane: Lane | undefined = limit && ((fn) => limit(() => asBackground(fn)));
  // Every tenant's claims and gateway events share transactions (docs/performance.md).
  const batches = createTradingBatches(db, lane, opts.fillsBooked);
  const simWriter = createSimWriter(db);
  const tenantOps = new Map<number, Promise<void>>();
  const connectRetry = new Map<number, { key: string; at: number }>();
  const failedReconnects = new Map<number, number>();
  const coordinator = opts.coordinator ?? soleCoordinator;
  /** Gateway statuses published by the instances that own the tenants this one does not. */
  const remoteStatus = new Map<number, { status: GatewayStatus; at: number }>();
  const published = new Map<number, { json: string; at: number }>();
  let lastTakeover = 0;
  let lastConditionReload = Date.now();
  const conditionReloadMs = opts.conditionReloadMs ?? 5000;
  let losses = 0;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  // Only the tenant's gateway owner evaluates its conditions (watchTenant below, after acquire).
  const conditions = new ConditionEngine({
    db,
    quotes,
    trigger: opts.trigger,
    logger,
    ...(opts.now ? { now: opts.now } : {}),
    onTriggered: (orderId, tenantId) => events.created(orderId, tenantId),
  });

  const newSim = (tenantId: number) =>
    new SimBroker({
      db,
      tenantId,
      quotes,
      logger,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.closeTime ? { closeTime: opts.closeTime } : {}),
      ...(opts.isTrading ? { isTrading: opts.isTrading } : {}),
      ...(opts.simExpiryCheckMs !== undefined ? { expiryCheckMs: opts.simExpiryCheckMs } : {}),
      ...(lane ? { lane } : {}),
      writer: simWriter,
    });

  function routerOf(tenantId: number): OrderRouter {
    let r = routers.get(tenantId);
    if (!r) {
      r = new OrderRouter({
        db,
        tenantId,
        logger,
        openSim: async () => newSim(tenantId),
        batches,
        ...(opts.fillsBooked ? { fillsBooked: opts.fillsBooked } : {}),
        ...(opts.resendAfterMs !== undefined ? { resendAfterMs: opts.resendAfterMs } : {}),
        ...(opts.reconcileEveryMs !== undefined ? { reconcileEveryMs: opts.reconcileEveryMs } : {}),
      });
      routers.set(tenantId, r);
    }
    return r;
  }

  async function doReconnect(tenantId: number) {
    if (stopped) return;
    const tenant = await db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
    if (!tenant) {
      routers.get(tenantId)?.deactivate(GATEWAY_MESSAGES.noTenant);
      return;
    }
    const generation = losses;
    if (!(await coordinator.acquire(tenantId))) return; // another instance runs this tenant's gateway
    remoteStatus.delete(tenantId);
    if (!conditions.watches(tenantId)) await conditions.watchTenant(tenantId);
    const router = routerOf(tenantId);
    connectRetry.delete(tenantId);
    if (tenant.is_sim) {
      let sim = router.gateway(SIM_KEY);
      if (!sim) {
        sim = newSim(tenantId);
        await router.attach(SIM_KEY, sim);
      }
      await sim.connect(); // idempotent
      router.activate(SIM_KEY);
    } else if (!opts.createRealGateway) {
      router.deactivate(GATEWAY_MESSAGES.realNotConfigured);
    } else {
      const key = realGatewayKey(tenant);
      let gateway: TradingGateway;
      try {
        gateway = await opts.createRealGateway(tenant);
      } catch (err) {
        logger.error({ err, tenantId }, 'trading: creating the real gateway failed');
        router.deactivate(`实盘交易网关创建失败：${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      await router.attach(key, gateway); // replaces the gateway of the same account
      router.activate(key);
      try {
        await gateway.connect();
      } catch (err) {
        logger.warn({ err, tenantId }, 'trading: connecting the real gateway failed, will retry');
        connectRetry.set(tenantId, { key, at: Date.now() + connectRetryMs });
        return;
      }
    }
    // The lock went while connecting: this gateway must not run.
    if (generation !== losses) {
      conditions.unwatch(tenantId);
      if (routers.get(tenantId) === router) routers.delete(tenantId);
      await router.close(0);
      return;
    }
    await router.reconcile();
  }

  function reconnect(tenantId: number): Promise<void> {
    const prev = tenantOps.get(tenantId) ?? Promise.resolve();
    const next = prev
      .then(() => doReconnect(tenantId))
      .then(() => void failedReconnects.delete(tenantId))
      .catch((err: unknown) => {
        logger.error({ err, tenantId }, 'trading: reconnect failed, will retry');
        failedReconnects.set(tenantId, Date.now() + connectRetryMs);
      });
    tenantOps.set(tenantId, next);
    void next.then(() => {
      if (tenantOps.get(tenantId) === next) tenantOps.delete(tenantId);
    });
    return next;
  }

  /** Runs `fn` on the tenant's router here, or tells the instance that owns the tenant. */
  async function withRouter(tenantId: number, fn: (r: OrderRouter) => Promise<void>, forward?: CoordinatorMessage) {
    if (!started || stopped) return; // the start-up reconcile / the sweep picks the order up
    if (!routers.has(tenantId)) await reconnect(tenantId);
    const r = routers.get(tenantId);
    if (r) await fn(r);
    else if (forward) coordinator.publish(forward);
  }

  const events: TradingPort = {
    claimFor: (tenantId) => (started && !stopped ? routers.get(tenantId)?.claimKey() : undefined),
    created(orderId, tenantId, claimed) {
      if (claimed) {
        // Taken for this process's router (claimFor): it sends it. Gone since (stopped, tenant lost):
        // the order waits, sent and unconfirmed, for its owner's sweep to send it again.
        void routers
          .get(tenantId)
          ?.onClaimed(claimed)
          .catch((err: unknown) => logger.error({ err, orderId }, 'trading: claimed'));
        return;
      }
      void withRouter(tenantId, (r) => r.onCreated(orderId), { kind: 'created', tenantId, orderId }).catch(
        (err: unknown) => logger.error({ err, orderId }, 'trading: created'),
      );
    },
    cancelRequested(orderId, tenantId) {
      void withRouter(tenantId, (r) => r.onCancelRequested(orderId), { kind: 'cancel', tenantId, orderId }).catch(
        (err: unknown) => logger.error({ err, orderId }, 'trading: cancelRequested'),
      );
    },
    conditionChanged(conditionId, tenantId) {
      void withRouter(tenantId, () => conditions.refresh(conditionId), {
        kind: 'condition',
        tenantId,
        conditionId,
      }).catch((err: unknown) => logger.error({ err, conditionId }, 'trading: conditionChanged'));
    },
  };

  coordinator.onMessage((m) => {
    if (m.kind === 'hello') return void published.clear(); // republished at the next sweep
    if (m.kind === 'status') {
      if (!routers.has(m.tenantId)) remoteStatus.set(m.tenantId, { status: m.status, at: Date.now() });
      return;
    }
    if (m.kind === 'condition') {
      if (started && !stopped && conditions.watches(m.tenantId))
        void conditions
          .refresh(m.conditionId)
          .catch((err: unknown) => logger.error({ err, message: m }, 'trading: forwarded condition'));
      return;
    }
    // Forwarded by an instance that does not own the tenant: only the owner acts on it.
    const r = started && !stopped ? routers.get(m.tenantId) : undefined;
    if (!r) return;
    const work = m.kind === 'created' ? r.onCreated(m.orderId) : r.onCancelRequested(m.orderId);
    void work.catch((err: unknown) => logger.error({ err, message: m }, 'trading: forwarded event'));
  });

  // The lock connection broke: another instance may take these tenants at any moment, so their
  // gateways stop here now (all state is in the database; the next owner reconciles).
  coordinator.onLost(() => {
    losses++;
    conditions.unwatch();
    const lost = [...routers.values()];
    routers.clear();
    published.clear();
    for (const r of lost) void r.close(0);
  });

  /**
   * With several instances: takes over tenants nobody runs (their owner died) and publishes the
   * statuses of the tenants run here, when they change and every 10 s.
   */
  async function coordinate() {
    const now = Date.now();
    if (now - lastTakeover >= STATUS_EVERY_MS / 2) {
      lastTakeover = now;
      const tenants = await db.selectFrom('tenants').select('id').execute();
      // Awaited: when the sweep returns, the tenants it took over are running here.
      await Promise.all(
        tenants.filter(({ id }) => !routers.has(id) && !tenantOps.has(id)).map(({ id }) => reconnect(id)),
      );
    }
    for (const [tenantId, r] of routers) {
      const status = r.status();
      const json = JSON.stringify(status);
      const last = published.get(tenantId);
      if (last?.json === json && now - last.at < STATUS_EVERY_MS) continue;
      published.set(tenantId, { json, at: now });
      coordinator.publish({ kind: 'status', tenantId, status });
    }
  }

  async function retryConnects() {
    const now = Date.now();
    for (const [tenantId, at] of failedReconnects) if (at <= now) void reconnect(tenantId);
    for (const [tenantId, retry] of connectRetry) {
      if (retry.at > now) continue;
      const router = routers.get(tenantId);
      const gateway = router?.active === retry.key ? router.gateway(retry.key) : undefined;
      if (!router || !gateway) {
        connectRetry.delete(tenantId);
        continue;
      }
      try {
        await gateway.connect();
        connectRetry.delete(tenantId);
        await router.reconcile();
      } catch (err) {
        logger.warn({ err, tenantId }, 'trading: connecting the real gateway failed again');
        retry.at = Date.now() + connectRetryMs;
      }
    }
  }

  /**
   * One query for all tenants finds those with orders to send or to look after (PENDING; sent but
   * unconfirmed; owing a cancel); only their routers, and routers with work of their own, sweep.
   */
  async function sweep() {
    if (!started || stopped) return;
    const busy = new Set<number>();
    try {
      const waiting = await db
        .selectFrom('orders as o')
        .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
        .select('o.tenant_id')
        .distinct()
        .where((eb) =>
          eb.or([
            eb('o.status', '=', 'PENDING'),
            eb.and([
              eb('o.status', '=', 'ALIVE'),
              eb.or([eb('d.accepted_at', 'is', null), eb('d.cancel_requested_at', 'is not', null)]),
            ]),
          ]),
        )
        .execute();
      for (const { tenant_id } of waiting) {
        busy.add(tenant_id);
        if (!routers.has(tenant_id)) void reconnect(tenant_id);
      }
      await retryConnects();
      if (coordinator.shared) await coordinate();
      if (Date.now() - lastConditionReload >= conditionReloadMs) {
        lastConditionReload = Date.now();
        await conditions.reload();
      }
    } catch (err) {
      logger.error({ err }, 'trading: sweep failed');
      for (const id of routers.keys()) busy.add(id);
    }
    await Promise.allSettled(
      [...routers.values()].filter((r) => busy.has(r.tenantId) || r.wantsSweep).map((r) => r.sweep()),
    );
  }

  function sims(): SimBroker[] {
    return [...routers.values()].map((r) => r.gateway(SIM_KEY)).filter((g): g is SimBroker => g instanceof SimBroker);
  }

  return {
    events,
    conditions,
    status(tenantId) {
      if (!started || stopped) return { status: 'error', message: GATEWAY_MESSAGES.notStarted };
      const r = routers.get(tenantId);
      if (r) return r.status();
      // Another instance runs it and said how it is: no need to try taking it on every poll.
      const remote = remoteStatus.get(tenantId);
      if (remote && Date.now() - remote.at < 3 * STATUS_EVERY_MS) return remote.status;
      void reconnect(tenantId);
      return { status: 'error', message: GATEWAY_MESSAGES.connecting };
    },
    reconnect,
    async start() {
      if (started) return;
      started = true;
      const tenants = await db.selectFrom('tenants').select('id').orderBy('id').execute();
      await Promise.all(tenants.map((t) => reconnect(t.id)));
      timer = setInterval(() => void sweep(), sweepMs);
      timer.unref();
    },
    async stop(waitMs = 5000) {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await conditions.stop();
      await Promise.allSettled([...tenantOps.values()]);
      await Promise.allSettled([...routers.values()].map((r) => r.close(waitMs)));
      routers.clear();
      await coordinator.close();
    },
    async reconcile() {
      await Promise.allSettled([...routers.values()].map((r) => r.reconcile()));
    },
    sweep,
    async expireSimOrders(at) {
      await Promise.all(sims().map((s) => s.expire(at)));
    },
    positions(tenantId) {
      const r = routers.get(tenantId);
      return r?.active ? r.gateway(r.active)?.positions?.() : undefined;
    },
    async idle() {
      for (let round = 0; round < 100; round++) {
        await Promise.allSettled([...tenantOps.values()]);
        await Promise.all([...routers.values()].map((r) => r.idle()));
        await Promise.all(sims().map((s) => s.idle()));
        await conditions.idle();
        if (!tenantOps.size && [...routers.values()].every((r) => !r.busy) && sims().every((s) => !s.busy)) return;
      }
    },
  };
}
