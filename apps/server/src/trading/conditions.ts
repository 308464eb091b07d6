import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema';
import { silentLogger, type Logger } from '../platform/logger';
import { price, quoteSymbol, type Quote, type QuoteSource } from './quotes';

export type TriggerOutcome =
  /** TRIGGERED now, with the PENDING order inserted in the same transaction. */
  | { outcome: 'triggered'; orderId: number; tenantId: number }
  /** No longer WAITING (triggered, cancelled or expired before), or past its validity: never again. */
  | { outcome: 'gone' }
  /** Its contract cannot be fixed right now (paused, or expired by hand) or its customer is deactivated: it keeps waiting. */
  | { outcome: 'blocked' }
  /** The customer's money did not back its fixing at the crossing price: cancelled with the reason, never again. */
  | { outcome: 'refused' };

/**
 * The trigger of one conditional order at a last price, whose transaction is the guard of exactly once
 * (modules/conditional: triggerConditional). Trading watches the market; the conditional capability
 * says what a trigger does.
 */
export type ConditionTrigger = (
  db: Kysely<DB>,
  id: number,
  lastPrice: number,
  now: Date,
  /** The live last price of any instrument (the trigger's margin check marks the customer's holdings). */
  priceOf: (symbol: string) => number | undefined,
) => Promise<TriggerOutcome>;

/** One waiting condition as the engine indexes it. */
export interface Watched {
  id: number;
  tenantId: number;
  instrument: string;
  op: '>=' | '<=';
  price: number;
}

/**
 * The waiting conditions of one instrument, by threshold: `up` ('>=') ascending and `down` ('<=')
 * descending, so the conditions a last price crosses are always a prefix — a tick that crosses
 * nothing costs two comparisons, however many conditions wait.
 */
class InstrumentBook {
  readonly up: Watched[] = [];
  readonly down: Watched[] = [];

  add(w: Watched) {
    const list = w.op === '>=' ? this.up : this.down;
    const before = w.op === '>=' ? (a: number, b: number) => a < b : (a: number, b: number) => a > b;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(list[mid]!.price, w.price) || list[mid]!.price === w.price) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, w);
  }

  remove(w: Watched) {
    const list = w.op === '>=' ? this.up : this.down;
    const i = list.indexOf(w);
    if (i >= 0) list.splice(i, 1);
  }

  /** Takes out every condition `last` crosses. */
  take(last: number): Watched[] {
    let n = 0;
    while (n < this.up.length && this.up[n]!.price <= last) n++;
    let m = 0;
    while (m < this.down.length && this.down[m]!.price >= last) m++;
    if (!n && !m) return [];
    return [...this.up.splice(0, n), ...this.down.splice(0, m)];
  }

  get size() {
    return this.up.length + this.down.length;
  }
}

export interface ConditionEngineOptions {
  db: Kysely<DB>;
  quotes: QuoteSource;
  trigger: ConditionTrigger;
  logger?: Logger;
  now?: () => Date;
  /** A trigger committed its PENDING order: hand it to the router. */
  onTriggered: (orderId: number, tenantId: number) => void;
  /** Test hook: called with every trigger attempt's outcome. */
  onOutcome?: (id: number, outcome: TriggerOutcome | { outcome: 'error' }) => void;
}

/**
 * Watches the market for the waiting conditional orders of the tenants this instance runs (the
 * trading service tells it which: only the tenant's gateway owner evaluates) and triggers them.
 *
 * Memory is only an index: a crossing takes the condition out of it and runs the trigger,
 * whose transaction is the guard of exactly once. What is waiting is always read from the
 * database — at watchTenant (start-up, takeover), on refresh(id) after a call changed a condition,
 * and on reload() (the service's sweep) — so a crash, a restart or a lost message loses nothing:
 * the next load evaluates every waiting condition again from the next tick.
 */
export class ConditionEngine {
  private readonly db: Kysely<DB>;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly books = new Map<string, InstrumentBook>();
  private readonly byId = new Map<number, Watched>();
  private readonly tenants = new Set<number>();
  /** Conditions whose trigger transaction is running: not re-added by a load meanwhile. */
  private readonly inflight = new Map<number, Promise<void>>();
  /** refresh() reads in flight (idle() waits for them). */
  private readonly reading = new Set<Promise<void>>();
  private readonly off: () => void;
  private readonly opts: ConditionEngineOptions;
  private stopped = false;
  /** Trigger attempts made by this engine (tests: a non-owner makes none). */
  attempts = 0;

  constructor(opts: ConditionEngineOptions) {
    this.opts = opts;
    this.db = opts.db;
    this.logger = opts.logger ?? silentLogger;
    this.now = opts.now ?? (() => new Date());
    this.off = opts.quotes.onTick((changed) => this.onTick(changed));
  }

  /** This instance runs the tenant now: load its waiting conditions. */
  async watchTenant(tenantId: number): Promise<void> {
    if (this.stopped) return;
    this.tenants.add(tenantId);
    await this.load([tenantId]);
  }

  /** The tenant is no longer run here (or every tenant, without argument): forget its conditions. */
  unwatch(tenantId?: number) {
    for (const w of [...this.byId.values()]) if (tenantId === undefined || w.tenantId === tenantId) this.drop(w);
    if (tenantId === undefined) this.tenants.clear();
    else this.tenants.delete(tenantId);
  }

  watches(tenantId: number): boolean {
    return this.tenants.has(tenantId);
  }

  /** A call created or ended this condition: read it again. */
  refresh(id: number): Promise<void> {
    const run = this.read(id).finally(() => this.reading.delete(run));
    this.reading.add(run);
    return run;
  }

  private async read(id: number): Promise<void> {
    const row = await this.armed().where('k.id', '=', id).executeTakeFirst();
    const old = this.byId.get(id);
    if (old) this.drop(old);
    if (row && row.status === 'WAITING' && this.tenants.has(row.tenant_id) && !this.stopped) this.put(row);
  }

  /** Every watched tenant's waiting conditions, read again (catches anything missed). */
  async reload(): Promise<void> {
    if (this.tenants.size) await this.load([...this.tenants]);
  }

  /** How many conditions are watched (of one tenant, or all). */
  size(tenantId?: number): number {
    if (tenantId === undefined) return this.byId.size;
    let n = 0;
    for (const w of this.byId.values()) if (w.tenantId === tenantId) n++;
    return n;
  }

  /** Resolves when no trigger transaction is running. */
  async idle(): Promise<void> {
    while (this.inflight.size || this.reading.size)
      await Promise.allSettled([...this.inflight.values(), ...this.reading]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.off();
    this.unwatch();
    await this.idle();
  }

  /** The market moved: trigger every watched condition the new last prices cross. */
  onTick(changed: readonly Quote[]) {
    if (this.stopped || !this.byId.size) return;
    for (const q of changed) {
      const symbol = quoteSymbol(q);
      const last = price(q.last_price);
      if (!symbol || last === undefined) continue;
      const book = this.books.get(symbol);
      if (!book) continue;
      for (const w of book.take(last)) {
        this.byId.delete(w.id);
        this.fire(w, last);
      }
    }
  }

  private fire(w: Watched, last: number) {
    this.attempts++;
    const run = this.opts
      .trigger(this.db, w.id, last, this.now(), (symbol) => price(this.opts.quotes.getQuote(symbol)?.last_price))
      .then((result) => {
        this.opts.onOutcome?.(w.id, result);
        if (result.outcome === 'triggered') this.opts.onTriggered(result.orderId, result.tenantId);
        // 'blocked' (contract paused, customer deactivated): out of the index; a read arms it again once active.
      })
      .catch((err: unknown) => {
        this.opts.onOutcome?.(w.id, { outcome: 'error' });
        this.logger.error({ err, conditionId: w.id }, 'conditions: trigger failed, will retry at the next tick');
        // Nothing was committed: watch it again (unless it was dropped meanwhile).
        if (!this.stopped && this.tenants.has(w.tenantId) && !this.byId.has(w.id)) this.index(w);
      })
      .finally(() => this.inflight.delete(w.id));
    this.inflight.set(w.id, run);
  }

  private async load(tenantIds: number[]) {
    const rows = await this.armed()
      .where('k.tenant_id', 'in', tenantIds)
      .where('k.expires_at', '>', this.now()) // past its validity: only the expiry job ends it
      .execute();
    if (this.stopped) return;
    const seen = new Set<number>();
    for (const r of rows) {
      if (!this.tenants.has(r.tenant_id)) continue; // unwatched while loading
      seen.add(r.id);
      const old = this.byId.get(r.id);
      if (old && old.price === r.trigger_price && old.op === r.trigger_op) continue;
      if (old) this.drop(old);
      this.put(r);
    }
    const loaded = new Set(tenantIds);
    for (const w of [...this.byId.values()]) if (loaded.has(w.tenantId) && !seen.has(w.id)) this.drop(w);
  }

  /**
   * The conditions the engine watches: WAITING, of an active contract and a customer not deactivated.
   * A paused contract's 条件单 are suspended (issue 30): not watched, so never fired, until 恢复 makes
   * the contract active and the next read (refresh or reload) arms them again. The trigger's
   * transaction checks both again, under lock.
   */
  private armed() {
    return this.db
      .selectFrom('conditional_orders as k')
      .innerJoin('contracts as c', 'c.id', 'k.contract_id')
      .innerJoin('pricer_users as p', 'p.id', 'k.pricer_id')
      .select(['k.id', 'k.tenant_id', 'k.instrument_id', 'k.trigger_op', 'k.trigger_price', 'k.status'])
      .where('k.status', '=', 'WAITING')
      .where('c.status', '=', 'active')
      .where('p.status', '<>', 'inactive');
  }

  private put(r: {
    id: number;
    tenant_id: number;
    instrument_id: string;
    trigger_op: '>=' | '<=';
    trigger_price: number;
  }) {
    if (this.inflight.has(r.id)) return; // its trigger is running: the transaction decides
    this.index({
      id: r.id,
      tenantId: r.tenant_id,
      instrument: r.instrument_id,
      op: r.trigger_op,
      price: r.trigger_price,
    });
  }

  private index(w: Watched) {
    let book = this.books.get(w.instrument);
    if (!book) {
      book = new InstrumentBook();
      this.books.set(w.instrument, book);
    }
    book.add(w);
    this.byId.set(w.id, w);
  }

  private drop(w: Watched) {
    this.byId.delete(w.id);
    const book = this.books.get(w.instrument);
    if (!book) return;
    book.remove(w);
    if (!book.size) this.books.delete(w.instrument);
  }
}
