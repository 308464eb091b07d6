import type { Kysely, Selectable } from 'kysely';
import type { DB, SimOrderTable } from '../platform/db/schema';
import type { GatewayEvent, GatewayOrder, GatewayOrderState, GatewayStatus, Lane, TradingGateway } from './gateway';
import { quoteSymbol, type Quote, type QuoteSource } from './quotes';
import { silentLogger, type Logger } from '../platform/logger';
import {
  cancelSimOrders,
  findSimOrder,
  findSimOrders,
  insertSimOrders,
  readAlive,
  readResting,
  simKey,
  simTradesOf,
  writeFills,
  type Fill,
  type SimInsert,
  type SimWriter,
} from './simBook';
import {
  fillable,
  nextClose,
  placeOrder,
  SIM_MESSAGES,
  taking,
  tradeIdOf,
  type Placed,
  type Resting,
  type Used,
} from './simRules';

export interface SimBrokerOptions {
  db: Kysely<DB>;
  /** The account: one SimBroker per tenant. */
  tenantId: number;
  quotes: QuoteSource;
  logger?: Logger;
  /** The simulated clock (expiry, sessions, trade times). */
  now?: () => Date;
  /** Daily close in Asia/Shanghai wall-clock time, 'HH:MM'. Resting (GFD) orders die then. Default '15:00'. */
  closeTime?: string;
  /** When given, sessions are enforced: orders outside a session are rejected and nothing matches. */
  isTrading?: (symbol: string, at: Date) => boolean;
  /** How often to look for orders past their close; 0 = never (call `expire()`). Default 1000 ms. */
  expiryCheckMs?: number;
  /** Runs the broker's database work (the routers' lane: TradingServiceOptions.dbConcurrency). */
  lane?: Lane;
  /**
   * Writes the inserted orders together with other accounts' (createSimWriter; shared by the service's
   * brokers). Its flushes must not need the lane: a broker holds a lane slot while it waits.
   */
  writer?: SimWriter;
}

/**
 * The built-in simulated broker of one tenant, and at the same time "the exchange" it trades on:
 * it matches orders against the QuoteSource's best bid/ask, and persists its book (sim_orders) and
 * its fills (sim_trades) BEFORE it reports them, so that a restart finds everything again.
 *
 * - LIMIT (GFD): fills at the opposite best price when marketable (BUY: ask ≤ limit, at the ask;
 *   SELL: bid ≥ limit, at the bid), at most the volume shown at that level; the rest rests and is
 *   matched again on every tick of its symbol; it expires at the trading day's close.
 * - MARKET (FAK): fills what the opposite best level shows, the rest is cancelled at once.
 * - The volume of a level is consumed by this account's fills until the symbol ticks again; resting
 *   orders compete by price, then time. Each tenant's broker is its own little market.
 *
 * All operations of one broker run one at a time (a promise queue).
 */
export class SimBroker implements TradingGateway {
  private readonly db: Kysely<DB>;
  private readonly tenantId: number;
  private readonly quotes: QuoteSource;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly closeTime: string;
  private readonly isTrading: ((symbol: string, at: Date) => boolean) | undefined;
  private readonly expiryCheckMs: number;
  private readonly lane: Lane;
  private readonly writer: SimWriter | undefined;

  private readonly listeners = new Set<(event: GatewayEvent) => void>();
  private readonly book = new Map<string, Resting>();
  private readonly used = new Map<string, Used>();
  private queue: Promise<unknown> = Promise.resolve();
  private unsubscribeTicks: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pendingSymbols = new Set<string>();
  private pendingAll = false;
  private matchScheduled = false;
  private connected = false;
  private pending = 0;
  /** The insert pass queued and not started yet: orders sent now join it. */
  private nextInserts: { orders: GatewayOrder[]; done: Promise<void> } | undefined;

  constructor(opts: SimBrokerOptions) {
    this.db = opts.db;
    this.tenantId = opts.tenantId;
    this.quotes = opts.quotes;
    this.logger = opts.logger ?? silentLogger;
    this.now = opts.now ?? (() => new Date());
    this.closeTime = opts.closeTime ?? '15:00';
    nextClose(new Date(), this.closeTime); // validates closeTime
    this.isTrading = opts.isTrading;
    this.expiryCheckMs = opts.expiryCheckMs ?? 1000;
    this.lane = opts.lane ?? ((fn) => fn());
    this.writer = opts.writer;
  }

  /** Loads the resting orders, expires those past their close, and starts matching on ticks. */
  async connect(): Promise<void> {
    if (this.connected) return;
    await this.run(() => this.reloadBook());
    this.connected = true;
    this.unsubscribeTicks = this.quotes.onTick((changed) => this.onTick(changed));
    if (this.expiryCheckMs > 0) {
      this.timer = setInterval(() => {
        const at = this.now().getTime();
        if ([...this.book.values()].some((o) => o.expiresAt <= at)) void this.expire().catch(() => {});
      }, this.expiryCheckMs);
      this.timer.unref();
    }
    await this.expire();
    this.scheduleMatch(undefined);
  }

  async close(): Promise<void> {
    this.connected = false;
    this.unsubscribeTicks?.();
    this.unsubscribeTicks = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.queue.catch(() => {});
  }

  status(): GatewayStatus {
    return { status: 'ok' };
  }

  onEvent(listener: (event: GatewayEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Idempotent by orderId: a known order is not inserted again, its events are replayed instead. */
  insertOrder(order: GatewayOrder): Promise<void> {
    // Orders sent while the broker is busy go together in its next insert pass (insertMany).
    let pass = this.nextInserts;
    if (!pass) {
      const orders: GatewayOrder[] = [];
      pass = this.nextInserts = {
        orders,
        done: this.run(() => {
          this.nextInserts = undefined;
          return this.insertMany(orders);
        }),
      };
    }
    pass.orders.push(order);
    return pass.done;
  }

  /** Cancels the resting rest of an order; an order that is no longer alive has its events replayed. */
  cancelOrder(orderId: string): Promise<void> {
    return this.run(async () => {
      const resting = this.book.get(orderId) ?? (await this.loadAlive(orderId));
      if (resting) {
        await this.kill([resting], SIM_MESSAGES.cancelled);
        return;
      }
      const row = await this.findOrder(orderId);
      if (!row) throw new Error(`报单不存在: ${orderId}`);
      await this.replay(row);
    });
  }

  /** Reads the persisted book: the authoritative state, whatever this process remembers. */
  async queryOrder(orderId: string): Promise<GatewayOrderState> {
    const row = await this.findOrder(orderId);
    if (!row) return { known: false, volumeTraded: 0, trades: [] };
    const trades = await this.tradesOf(orderId);
    return {
      known: true,
      status: row.status === 'ALIVE' ? 'ALIVE' : 'FINISHED',
      volumeTraded: row.volume_traded,
      trades: trades.map((t) => ({ tradeId: t.trade_id, volume: t.volume, price: t.price, at: t.traded_at })),
      ...(row.last_msg ? { message: row.last_msg } : {}),
    };
  }

  /** The close: every resting order whose trading day ended at or before `at` is cancelled. */
  expire(at: Date = this.now()): Promise<void> {
    return this.run(async () => {
      const due = [...this.book.values()].filter((o) => o.expiresAt <= at.getTime());
      if (due.length) await this.kill(due, SIM_MESSAGES.expired);
    });
  }

  /** For tests and the close: the resting orders this broker holds. */
  restingOrders(): { orderId: string; symbol: string; direction: 'BUY' | 'SELL'; limitPrice: number; left: number }[] {
    return [...this.book.values()].map((o) => ({
      orderId: o.ref,
      symbol: o.symbol,
      direction: o.direction,
      limitPrice: o.limitPrice,
      left: o.volume - o.traded,
    }));
  }

  /** Work is queued or running. */
  get busy(): boolean {
    return this.pending > 0 || this.matchScheduled;
  }

  /** Resolves once everything queued so far (inserts, cancels, tick matching) is done. */
  async idle(): Promise<void> {
    while (this.busy) await this.queue.catch(() => {});
  }

  // ---------------------------------------------------------------------------------------------

  /** (Re)reads the resting orders of this account from the persisted book. */
  private async reloadBook() {
    const resting = await readResting(this.db, this.tenantId);
    this.book.clear();
    for (const o of resting) this.book.set(o.ref, o);
  }

  private run<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const inLane = () => this.lane(fn);
    const result = this.queue.then(inLane, inLane).finally(() => this.pending--);
    this.queue = result.catch(() => {});
    return result;
  }

  private emit(event: GatewayEvent) {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        this.logger.error({ err, event }, 'sim broker listener failed');
      }
    }
  }

  private findOrder(ref: string) {
    return findSimOrder(this.db, this.tenantId, ref);
  }

  private tradesOf(ref: string) {
    return simTradesOf(this.db, this.tenantId, ref);
  }

  private async loadAlive(ref: string): Promise<Resting | undefined> {
    const resting = await readAlive(this.db, this.tenantId, ref);
    if (resting) this.book.set(ref, resting);
    return resting;
  }

  /** Re-emits everything the exchange knows about an order, in order. */
  private async replay(row: Selectable<SimOrderTable>) {
    if (row.status === 'REJECTED') {
      this.emit({ type: 'rejected', orderId: row.order_ref, message: row.last_msg });
      return;
    }
    this.emit({ type: 'accepted', orderId: row.order_ref });
    for (const t of await this.tradesOf(row.order_ref)) {
      this.emit({
        type: 'trade',
        orderId: row.order_ref,
        tradeId: t.trade_id,
        volume: t.volume,
        price: t.price,
        at: t.traded_at,
      });
    }
    if (row.status === 'CANCELLED') this.emit({ type: 'cancelled', orderId: row.order_ref, message: row.last_msg });
  }

  private consume(symbol: string, direction: 'BUY' | 'SELL', v: number) {
    this.used.set(symbol, taking(this.usedOf(symbol), direction, v));
  }

  private usedOf(symbol: string): Used {
    return this.used.get(symbol) ?? { bid: 0, ask: 0 };
  }

  /**
   * The orders sent since the last insert pass, all in ONE statement (the orders and their first
   * fills): under load an account's orders arrive faster than one statement each could take them.
   * Each is priced against the liquidity left by those before it; what an order already at the
   * exchange would have taken is not taken (its events are replayed instead).
   */
  private async insertMany(orders: GatewayOrder[]) {
    const at = this.now();
    const used = new Map<string, Used>();
    const seen = new Set<string>();
    const fresh: Placed[] = [];
    const again: string[] = [];
    for (const order of orders) {
      if (seen.has(order.orderId)) {
        again.push(order.orderId);
        continue;
      }
      seen.add(order.orderId);
      fresh.push(this.place(order, at, used));
    }
    const inserted = fresh.length ? await this.persist(fresh, at) : new Map<string, number>();
    for (const p of fresh) {
      const seq = inserted.get(p.o.ref);
      if (seq === undefined) again.push(p.o.ref);
      else this.report(p, seq, at);
    }
    // Already at the exchange (sent again after a crash, or inserted meanwhile by another instance):
    // report what the exchange has.
    if (again.length) {
      const rows = await findSimOrders(this.db, this.tenantId, [...new Set(again)]);
      const byRef = new Map(rows.map((r) => [r.order_ref, r]));
      for (const ref of again) {
        const row = byRef.get(ref);
        if (row) await this.replay(row);
      }
    }
  }

  /** Validates and prices one order; `used` carries the liquidity taken by the orders before it in this pass. */
  private place(order: GatewayOrder, at: Date, used: Map<string, Used>): Placed {
    const taken = used.get(order.symbol) ?? this.usedOf(order.symbol);
    const placed = placeOrder(order, at, this.closeTime, this.quotes, this.isTrading, taken);
    if (placed.fill) used.set(order.symbol, taking(taken, order.direction, placed.fill.volume));
    return placed;
  }

  /** Inserts the orders and their first fills; returns the seq of each order inserted (absent: it existed). */
  private async persist(placed: Placed[], at: Date): Promise<Map<string, number>> {
    const rows = placed.map(({ order, o, fill, status, message }): SimInsert => ({
      tenantId: this.tenantId,
      ref: o.ref,
      symbol: order.symbol,
      direction: order.direction,
      offset: order.offset,
      priceType: order.priceType,
      limitPrice: Number.isFinite(o.limitPrice) ? o.limitPrice : 0,
      volume: status === 'REJECTED' ? Math.max(0, Math.trunc(order.volume) || 0) : order.volume,
      status,
      message,
      expiresAt: new Date(o.expiresAt),
      at,
      ...(fill ? { fill: { tradeId: tradeIdOf(this.tenantId, o.ref, 1), ...fill } } : {}),
    }));
    const seqs = await (this.writer ? this.writer.add(rows) : insertSimOrders(this.db, rows));
    const mine = new Map<string, number>();
    for (const r of rows) {
      const seq = seqs.get(simKey(r.tenantId, r.ref));
      if (seq !== undefined) mine.set(r.ref, seq);
    }
    return mine;
  }

  /** Tells the router what became of an order just inserted, and books its fill and its rest. */
  private report({ order, o, fill, status, message }: Placed, seq: number, at: Date) {
    const ref = o.ref;
    if (status === 'REJECTED') {
      this.emit({ type: 'rejected', orderId: ref, message });
      return;
    }
    this.emit({ type: 'accepted', orderId: ref });
    if (fill) {
      o.traded = fill.volume;
      o.trades = 1;
      this.consume(order.symbol, order.direction, fill.volume);
      this.emit({
        type: 'trade',
        orderId: ref,
        tradeId: tradeIdOf(this.tenantId, ref, 1),
        volume: fill.volume,
        price: fill.price,
        at,
      });
    }
    if (status === 'CANCELLED') this.emit({ type: 'cancelled', orderId: ref, message });
    if (status === 'ALIVE') {
      o.seq = seq;
      this.book.set(ref, o);
    }
  }

  /** Ends the rest of resting orders (cancel, expiry), persisted first. */
  private async kill(orders: Resting[], message: string) {
    const at = this.now();
    const refs = orders.map((o) => o.ref);
    const done = await cancelSimOrders(this.db, this.tenantId, refs, message, at);
    for (const ref of refs) this.book.delete(ref);
    for (const ref of done) this.emit({ type: 'cancelled', orderId: ref, message });
  }

  private onTick(changed: Quote[]) {
    let all = false;
    const symbols = new Set<string>();
    for (const q of changed) {
      const s = quoteSymbol(q);
      if (s === undefined) all = true;
      else symbols.add(s);
    }
    // A new quote brings new liquidity.
    if (all) this.used.clear();
    else for (const s of symbols) this.used.delete(s);
    if (this.book.size) this.scheduleMatch(all ? undefined : symbols);
  }

  /** Coalesces ticks: at most one matching pass is queued at a time. `undefined` = every symbol. */
  private scheduleMatch(symbols: Set<string> | undefined) {
    if (symbols === undefined) this.pendingAll = true;
    else for (const s of symbols) this.pendingSymbols.add(s);
    if (this.matchScheduled) return;
    this.matchScheduled = true;
    void this.run(async () => {
      this.matchScheduled = false;
      const all = this.pendingAll;
      const only = this.pendingSymbols;
      this.pendingAll = false;
      this.pendingSymbols = new Set();
      if (!this.connected) return;
      await this.match(all ? undefined : only);
    }).catch((err: unknown) => {
      this.logger.error({ err, tenantId: this.tenantId }, 'sim broker: matching failed, reloading the book');
      void this.run(() => this.reloadBook()).catch(() => {});
    });
  }

  private async match(symbols: Set<string> | undefined) {
    const at = this.now();
    const bySymbol = new Map<string, Resting[]>();
    for (const o of this.book.values()) {
      if (symbols && !symbols.has(o.symbol)) continue;
      const list = bySymbol.get(o.symbol) ?? [];
      list.push(o);
      bySymbol.set(o.symbol, list);
    }
    const fills: Fill[] = [];
    for (const [symbol, orders] of bySymbol) {
      if (this.isTrading && !this.isTrading(symbol, at)) continue;
      const q = this.quotes.getQuote(symbol);
      if (!q) continue;
      let used = this.usedOf(symbol);
      // Price, then time priority on each side.
      const buys = orders
        .filter((o) => o.direction === 'BUY')
        .sort((a, b) => b.limitPrice - a.limitPrice || a.seq - b.seq);
      const sells = orders
        .filter((o) => o.direction === 'SELL')
        .sort((a, b) => a.limitPrice - b.limitPrice || a.seq - b.seq);
      for (const o of [...buys, ...sells]) {
        const f = fillable(o, q, used, false);
        if (!f) continue;
        used = taking(used, o.direction, f.volume);
        fills.push({ order: o, tradeId: tradeIdOf(this.tenantId, o.ref, o.trades + 1), ...f });
      }
    }
    if (!fills.length) return;
    // Another owner of this account changed one of the orders: writeFills throws (nothing is written).
    await writeFills(this.db, this.tenantId, fills, at);
    for (const f of fills) {
      this.consume(f.order.symbol, f.order.direction, f.volume);
      f.order.traded += f.volume;
      f.order.trades += 1;
      if (f.order.traded >= f.order.volume) this.book.delete(f.order.ref);
      this.emit({ type: 'trade', orderId: f.order.ref, tradeId: f.tradeId, volume: f.volume, price: f.price, at });
    }
  }
}

export function createSimBroker(opts: SimBrokerOptions): SimBroker {
  return new SimBroker(opts);
}
