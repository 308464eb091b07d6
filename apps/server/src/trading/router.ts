import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/schema';
import type { ClaimedOrder } from './orderLife';
import { applyAccepted, applyEnded, applyTrade, requestCancel, type BookEvent, type FillsBooked } from './apply';
import { ORDER_TEXTS } from './orderLife';
import { createTradingBatches, type TradingBatches } from './batches';
import type { GatewayEvent, GatewayStatus, Lane, TradingGateway } from './gateway';
import { silentLogger, type Logger } from '../platform/logger';

const RECONCILE_CONCURRENCY = 8;

/** Key of the built-in simulated broker in order_dispatch.gateway_key. */
export const SIM_KEY = 'sim';

export interface OrderRouterOptions {
  db: Kysely<DB>;
  tenantId: number;
  logger?: Logger;
  /** Opens (and connects) the tenant's sim broker on demand, for orders sent to it before a switch to a real account. */
  openSim?: () => Promise<TradingGateway>;
  /** An order sent but not acknowledged (or with a cancel not yet done) is looked up at its broker again after this long. Default 5 s. */
  resendAfterMs?: number;
  /** Every open order is reconciled with its gateway this often, to catch anything missed. Default 60 s. */
  reconcileEveryMs?: number;
  /**
   * Runs the router's transactions (claims, gateway events): shared by every tenant's router, it
   * bounds how many hold database connections at once (TradingServiceOptions.dbConcurrency).
   */
  lane?: Lane;
  /** Claims and gateway events go through these (shared by every tenant's router: one transaction for many). Default: this router's own, in `lane`. */
  batches?: TradingBatches;
  /** Told of the fills in their booking's transaction (apply.ts), also of those a reconcile finds. */
  fillsBooked?: FillsBooked;
}

interface Attached {
  gateway: TradingGateway;
  off: () => void;
  lastStatus: 'ok' | 'error';
}

/**
 * The order router of one tenant: a transactional outbox from the orders table to the tenant's
 * trading gateway, and the applier of the gateway's events.
 *
 * - A PENDING order is claimed in a transaction that locks it, records in order_dispatch which
 *   gateway it goes to and makes it ALIVE ('已发送'); only after that commit is it handed to the
 *   gateway. PENDING thus means "not handed to any broker": cancelling it locally is always safe.
 * - A cancel of an ALIVE order is recorded (order_dispatch.cancel_requested_at) and then sent; it is
 *   sent again while the broker still shows the order alive.
 * - Gateway events are applied in DB transactions (see apply.ts), each order's in the order they
 *   arrived (a promise chain per order), idempotently; the events of many orders share a transaction
 *   (batches.ts).
 * - An event that fails to apply marks the order dirty: further events of that order are skipped
 *   until the order is reconciled from the gateway's state (next sweep).
 * - An order is always finished at the gateway it was sent to: after a switch (sim ↔ real or another
 *   account) the previous gateway stays attached until none of its orders is open any more.
 */
export class OrderRouter {
  readonly tenantId: number;
  private readonly db: Kysely<DB>;
  private readonly tdb: Kysely<DB>;
  private readonly logger: Logger;
  private readonly openSim: (() => Promise<TradingGateway>) | undefined;
  private readonly resendAfterMs: number;
  private readonly reconcileEveryMs: number;
  private readonly batches: TradingBatches;
  private readonly fillsBooked: FillsBooked | undefined;

  private readonly gateways = new Map<string, Attached>();
  private openingSim: Promise<TradingGateway> | undefined;
  private activeKey: string | null = null;
  private inactiveMessage = '交易网关未连接';
  private readonly chains = new Map<number, Promise<void>>();
  private readonly lastRepair = new Map<number, number>();
  private readonly dirty = new Set<number>();
  private readonly warnedUnreachable = new Set<number>();
  private needsReconcile = true;
  private lastReconcile = 0;
  private sweeping: Promise<void> | undefined;
  private closed = false;

  constructor(opts: OrderRouterOptions) {
    this.db = opts.db;
    this.tdb = opts.db;
    this.tenantId = opts.tenantId;
    this.logger = opts.logger ?? silentLogger;
    this.openSim = opts.openSim;
    this.resendAfterMs = opts.resendAfterMs ?? 5000;
    this.reconcileEveryMs = opts.reconcileEveryMs ?? 60_000;
    this.fillsBooked = opts.fillsBooked;
    this.batches = opts.batches ?? createTradingBatches(opts.db, opts.lane, opts.fillsBooked);
  }

  // --- gateways ----------------------------------------------------------------------------------

  /** Subscribes to a gateway's events (before it connects, so nothing it says is missed). Replaces a gateway of the same key. */
  async attach(key: string, gateway: TradingGateway): Promise<void> {
    const old = this.gateways.get(key);
    if (old?.gateway === gateway) return;
    const off = gateway.onEvent((ev) => this.onGatewayEvent(key, ev));
    this.gateways.set(key, { gateway, off, lastStatus: 'ok' });
    if (old) {
      old.off();
      await old.gateway
        .close()
        .catch((err: unknown) => this.logger.warn({ err, key }, 'closing a replaced gateway failed'));
    }
  }

  /** New orders go to this gateway from now on; open orders are reconciled at the next sweep. */
  activate(key: string) {
    if (!this.gateways.has(key)) throw new Error(`gateway ${key} is not attached`);
    this.activeKey = key;
    this.needsReconcile = true;
  }

  /** No gateway for new orders (e.g. a real account without a configured gateway): PENDING orders wait. */
  deactivate(message: string) {
    this.activeKey = null;
    this.inactiveMessage = message;
  }

  gateway(key: string): TradingGateway | undefined {
    return this.gateways.get(key)?.gateway;
  }

  /** Whether the sweep has work here beyond orders the service found waiting (see TradingService.sweep). */
  get wantsSweep(): boolean {
    return (
      this.needsReconcile ||
      this.dirty.size > 0 ||
      Date.now() - this.lastReconcile >= this.reconcileEveryMs ||
      [...this.gateways.keys()].some((k) => k !== this.activeKey)
    );
  }

  /** Work is queued or running. */
  get busy(): boolean {
    return this.chains.size > 0 || this.sweeping !== undefined;
  }

  get active(): string | null {
    return this.activeKey;
  }

  status(): GatewayStatus {
    const a = this.activeKey === null ? undefined : this.gateways.get(this.activeKey);
    if (!a) return { status: 'error', message: this.inactiveMessage };
    return a.gateway.status();
  }

  // --- entry points ----------------------------------------------------------------------------

  /** A PENDING order was committed. */
  onCreated(orderId: number): Promise<void> {
    return this.enqueue(orderId, () => this.send(orderId));
  }

  /** The gateway a new order is taken for now (the submit's own claim: TradingPort.claimFor); undefined while none is attached. */
  claimKey(): string | undefined {
    const key = this.activeKey;
    return this.closed || key === null || !this.gateways.has(key) ? undefined : key;
  }

  /** An order the submit took for a gateway was committed: it is handed over as after a claim. */
  onClaimed(order: ClaimedOrder): Promise<void> {
    return this.enqueue(order.id, () => this.handOver(order));
  }

  /** A cancel of an order at the broker was requested. */
  onCancelRequested(orderId: number): Promise<void> {
    return this.enqueue(orderId, () => this.cancel(orderId));
  }

  /**
   * Periodic work: send PENDING orders not sent yet, look up those sent but unacknowledged, repair
   * dirty orders, reconcile everything now and then, and close drained old gateways.
   * Overlapping calls share one run.
   */
  sweep(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.sweeping ??= this.doSweep().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Every PENDING and ALIVE order of the tenant is brought in line with its gateway's state. */
  async reconcile(): Promise<void> {
    if (this.closed) return;
    this.needsReconcile = false;
    this.lastReconcile = Date.now();
    const open = await this.db
      .selectFrom('orders')
      .select('id')
      .where('tenant_id', '=', this.tenantId)
      .where('status', 'in', ['PENDING', 'ALIVE'])
      .orderBy('id')
      .execute();
    // A few at a time: the connection pool is shared with every other tenant and the API.
    let next = 0;
    const worker = async () => {
      while (next < open.length) {
        const { id } = open[next++]!;
        await this.enqueue(id, () => this.reconcileOrder(id));
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECONCILE_CONCURRENCY, open.length) }, worker));
  }

  /** Resolves when no work is queued for any order. */
  async idle(): Promise<void> {
    while (this.chains.size || this.sweeping) {
      await Promise.all([...this.chains.values(), this.sweeping]);
    }
  }

  /** Stops taking work, waits (up to `waitMs`) for what is running, and closes the gateways. */
  async close(waitMs = 5000): Promise<void> {
    this.closed = true;
    // The work's own failures are its callers' (the sweep's are logged by the service): a close never rejects
    // for them — the service closes routers without waiting (a lost lock), where a rejection ends the process.
    await Promise.race([this.idle().catch(() => undefined), new Promise((r) => setTimeout(r, waitMs).unref())]);
    for (const [key, a] of this.gateways) {
      a.off();
      await a.gateway.close().catch((err: unknown) => this.logger.warn({ err, key }, 'closing gateway failed'));
    }
    this.gateways.clear();
    this.activeKey = null;
  }

  // --- internals ---------------------------------------------------------------------------------

  private enqueue(orderId: number, fn: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.resolve();
    const prev = this.chains.get(orderId) ?? Promise.resolve();
    const next = prev.then(fn).catch((err: unknown) => {
      this.dirty.add(orderId);
      this.logger.error({ err, tenantId: this.tenantId, orderId }, 'order router: order needs reconciliation');
    });
    this.chains.set(orderId, next);
    void next.then(() => {
      if (this.chains.get(orderId) === next) this.chains.delete(orderId);
    });
    return next;
  }

  private async gatewayFor(key: string): Promise<TradingGateway | undefined> {
    const a = this.gateways.get(key);
    if (a) return a.gateway;
    if (key !== SIM_KEY || !this.openSim || this.closed) return undefined;
    this.openingSim ??= (async () => {
      const gw = await this.openSim!();
      await this.attach(SIM_KEY, gw);
      await gw.connect();
      return gw;
    })().finally(() => (this.openingSim = undefined));
    return this.openingSim;
  }

  /** Claims a PENDING order for the active gateway (committed), then hands it over. Runs inside the order's chain. */
  private async send(orderId: number): Promise<void> {
    if (this.closed) return;
    const key = this.activeKey;
    if (key === null) return; // no gateway: stays PENDING
    const gateway = await this.reachable(orderId, key);
    if (!gateway) return;
    const claimed = await this.batches.claim({ tenantId: this.tenantId, orderId, gatewayKey: key });
    if (claimed) await this.handOver(claimed);
  }

  /** Hands a claimed order to the gateway it is bound to (the sweep sends it again if that is not reachable now). */
  private async handOver(o: ClaimedOrder) {
    if (this.closed) return;
    const target = await this.reachable(o.id, o.gatewayKey);
    if (target) await this.transmit(target, o);
  }

  private async reachable(orderId: number, key: string): Promise<TradingGateway | undefined> {
    const gateway = await this.gatewayFor(key);
    if (!gateway && !this.warnedUnreachable.has(orderId)) {
      this.warnedUnreachable.add(orderId);
      this.logger.warn(
        { tenantId: this.tenantId, orderId, key },
        'order router: the gateway of this order is not connected',
      );
    }
    return gateway;
  }

  /** Hands an order (already claimed) to its gateway. A failure is logged; the sweep repairs it later. */
  private async transmit(gateway: TradingGateway, o: Omit<ClaimedOrder, 'gatewayKey'>) {
    this.lastRepair.set(o.id, Date.now());
    try {
      await gateway.insertOrder({
        orderId: String(o.id),
        symbol: o.instrument_id,
        direction: o.direction,
        offset: 'OPEN',
        volume: o.volume_orign,
        priceType: o.limit_price > 0 ? 'LIMIT' : 'MARKET',
        limitPrice: o.limit_price > 0 ? o.limit_price : 0,
      });
    } catch (err) {
      this.logger.warn({ err, tenantId: this.tenantId, orderId: o.id }, 'order router: sending failed, will retry');
    }
  }

  private async cancel(orderId: number): Promise<void> {
    const key = (await requestCancel(this.db, this.tenantId, orderId)) ?? this.activeKey; // (no record: sent before records existed)
    if (key === null) return;
    const gateway = await this.reachable(orderId, key);
    if (!gateway) return; // recorded: the sweep sends it once the gateway is back
    this.lastRepair.set(orderId, Date.now());
    await gateway.cancelOrder(String(orderId)).catch((err: unknown) => {
      this.logger.warn({ err, tenantId: this.tenantId, orderId }, 'order router: cancel failed, will retry');
    });
  }

  private onGatewayEvent(key: string, ev: GatewayEvent) {
    if (ev.type === 'status') {
      const a = this.gateways.get(key);
      if (!a) return;
      // Back after an outage: events may have been missed.
      if (a.lastStatus === 'error' && ev.status.status === 'ok') this.needsReconcile = true;
      a.lastStatus = ev.status.status;
      return;
    }
    const orderId = Number(ev.orderId);
    if (!Number.isSafeInteger(orderId) || orderId <= 0) {
      this.logger.warn({ tenantId: this.tenantId, event: ev }, 'order router: event for a foreign order id ignored');
      return;
    }
    if (this.closed) return;
    // Handed to the batch at once, not when the order's earlier work is done: the batches keep the
    // events in the order they came (one transaction at a time), so the events a broker reports
    // together (accepted and the fill) land in one transaction. The order's chain waits for it.
    const applied = this.apply(orderId, ev);
    applied.catch(() => {}); // (its failure is the chain's: the order is marked for reconciliation)
    void this.enqueue(orderId, () => applied);
  }

  private async apply(orderId: number, ev: Exclude<GatewayEvent, { type: 'status' }>) {
    if (this.dirty.has(orderId)) return; // reconciliation brings the whole state
    const event: BookEvent =
      ev.type === 'accepted'
        ? { type: 'accepted' }
        : ev.type === 'trade'
          ? { type: 'trade', tradeId: ev.tradeId, volume: ev.volume, price: ev.price, at: ev.at }
          : { type: 'ended', message: ev.message };
    await this.batches.apply({ tenantId: this.tenantId, orderId, event });
  }

  /** One order against its gateway's state. Runs inside the order's chain. */
  private async reconcileOrder(orderId: number): Promise<void> {
    const o = await this.db
      .selectFrom('orders')
      .select(['id', 'status', 'direction', 'instrument_id', 'volume_orign', 'volume_traded', 'limit_price'])
      .where('id', '=', orderId)
      .where('tenant_id', '=', this.tenantId)
      .executeTakeFirst();
    if (!o || o.status === 'FINISHED' || o.status === 'CANCELLED') {
      this.dirty.delete(orderId);
      return;
    }
    const d = await this.tdb
      .selectFrom('order_dispatch')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    if (o.status === 'PENDING' && !d) {
      await this.send(orderId); // never handed to any gateway
      this.dirty.delete(orderId);
      return;
    }
    // (An ALIVE order without a record was sent before records existed: ask the active gateway.)
    const key = d?.gateway_key ?? this.activeKey;
    const gateway = key === null ? undefined : await this.reachable(orderId, key);
    if (!gateway) return;
    this.lastRepair.set(orderId, Date.now());
    const state = await gateway.queryOrder(String(orderId));
    if (!state.known) {
      if (d?.cancel_requested_at) {
        await applyEnded(this.db, this.tenantId, orderId, ORDER_TEXTS.cancelled);
      } else if (d && !d.accepted_at) {
        // Taken and recorded, but it never arrived (crash or failure between commit and send): send it (again).
        if (o.status === 'PENDING') await this.send(orderId);
        else await this.transmit(gateway, o);
      } else {
        // The broker had it and no longer knows it (a past trading day): it died there. Sending it
        // again would put a stale order into today's market.
        await applyEnded(this.db, this.tenantId, orderId, ORDER_TEXTS.vanished);
      }
    } else {
      for (const t of state.trades) await applyTrade(this.db, this.tenantId, orderId, t, this.fillsBooked);
      if (state.status === 'ALIVE') {
        await applyAccepted(this.db, this.tenantId, orderId);
        if (d?.cancel_requested_at) await gateway.cancelOrder(String(orderId));
      } else {
        const traded = state.trades.reduce((s, t) => s + t.volume, 0);
        if (traded < o.volume_orign)
          await applyEnded(this.db, this.tenantId, orderId, state.message ?? ORDER_TEXTS.cancelled);
      }
    }
    this.dirty.delete(orderId);
  }

  private async doSweep(): Promise<void> {
    if (this.needsReconcile || Date.now() - this.lastReconcile >= this.reconcileEveryMs) {
      await this.reconcile();
    } else {
      const now = Date.now();
      for (const [id, at] of this.lastRepair) if (now - at > 10 * this.resendAfterMs) this.lastRepair.delete(id);
      const work: Promise<void>[] = [];
      // Not taken yet (event missed, no gateway until now, claim failed).
      const pending = await this.db
        .selectFrom('orders')
        .select('id')
        .where('tenant_id', '=', this.tenantId)
        .where('status', '=', 'PENDING')
        .orderBy('id')
        .execute();
      for (const { id } of pending) if (!this.chains.has(id)) work.push(this.enqueue(id, () => this.send(id)));
      // Sent but unconfirmed, or owing a cancel: look them up at the broker (throttled per order).
      const unsettled = await this.tdb
        .selectFrom('orders as o')
        .innerJoin('order_dispatch as d', 'd.order_id', 'o.id')
        .select('o.id')
        .where('o.tenant_id', '=', this.tenantId)
        .where('o.status', '=', 'ALIVE')
        .where((eb) => eb.or([eb('d.accepted_at', 'is', null), eb('d.cancel_requested_at', 'is not', null)]))
        .where(
          sql<boolean>`coalesce(d.cancel_requested_at, d.sent_at) < now() - make_interval(secs => ${this.resendAfterMs / 1000})`,
        )
        .execute();
      for (const { id } of unsettled) {
        if (this.chains.has(id) || now - (this.lastRepair.get(id) ?? 0) < this.resendAfterMs) continue;
        work.push(this.enqueue(id, () => this.reconcileOrder(id)));
      }
      for (const id of this.dirty) if (!this.chains.has(id)) work.push(this.enqueue(id, () => this.reconcileOrder(id)));
      await Promise.all(work);
    }
    await this.closeDrained();
  }

  /** Closes gateways other than the active one that no open order depends on any more. */
  private async closeDrained() {
    for (const [key, a] of this.gateways) {
      if (key === this.activeKey) continue;
      const open = await this.tdb
        .selectFrom('order_dispatch as d')
        .innerJoin('orders as o', 'o.id', 'd.order_id')
        .select('o.id')
        .where('d.tenant_id', '=', this.tenantId)
        .where('d.gateway_key', '=', key)
        .where('o.status', 'in', ['PENDING', 'ALIVE'])
        .limit(1)
        .executeTakeFirst();
      if (open) continue;
      this.gateways.delete(key);
      a.off();
      await a.gateway
        .close()
        .catch((err: unknown) => this.logger.warn({ err, key }, 'closing a drained gateway failed'));
      this.logger.info({ tenantId: this.tenantId, key }, 'order router: closed a drained gateway');
    }
  }
}
