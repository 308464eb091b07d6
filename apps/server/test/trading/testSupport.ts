/**
 * Test support for the trading tests (imported by *.test.ts only): the test database with the
 * trading tables, a quote source the test drives by hand, seeds, a "kill -9" for a database
 * handle, and consistency checks of the books.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/platform/db/database';
import { up as up003 } from '../../src/platform/db/migrations/003_trading';
import type { DB } from '../../src/platform/db/schema';
import type { Quote, QuoteSource } from '../../src/trading/quotes';
import { openMigratedDatabase } from '../db';

/** The run's test database (PGlite in memory, or the postgres project's own database), migrated incl. 003. */
export async function openTradingTestDb(): Promise<{ db: Database; close: () => Promise<void> }> {
  const db = await openMigratedDatabase();
  const exists = await sql<{ t: string | null }>`select to_regclass('sim_orders')::text as t`.execute(db);
  if (!exists.rows[0]?.t) await up003(db as unknown as Kysely<unknown>);
  return { db, close: () => db.destroy() };
}

/**
 * Opens the trading test database before the file's tests and closes it after them; `use` receives it
 * (`let db: Database; withTradingTestDb((opened) => (db = opened));`).
 */
export function withTradingTestDb(use: (db: Database) => void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTradingTestDb();
    close = opened.close;
    use(opened.db);
  });
  afterAll(async () => {
    await close?.();
  });
}

/** A market the test controls: set a quote, and the listeners hear about it at once. */
export class FakeQuotes implements QuoteSource {
  private readonly quotes = new Map<string, Quote>();
  private readonly ticks = new Map<string, number>();
  private readonly listeners = new Set<(changed: Quote[]) => void>();

  constructor(instruments: Record<string, number> = {}) {
    for (const [symbol, tick] of Object.entries(instruments)) this.ticks.set(symbol, tick);
  }

  addInstrument(symbol: string, tick: number) {
    this.ticks.set(symbol, tick);
  }

  /** Merges `q` into the symbol's quote and ticks (unless `silent`). */
  set(symbol: string, q: Partial<Quote>, opts: { silent?: boolean } = {}): Quote {
    const next: Quote = { ...(this.quotes.get(symbol) ?? {}), ...q, symbol };
    this.quotes.set(symbol, next);
    if (!opts.silent) this.tick([symbol]);
    return next;
  }

  /** Announces the current quotes of `symbols` again (fresh liquidity at the same prices). */
  tick(symbols: string[]) {
    const changed = symbols.map((s) => this.quotes.get(s)).filter((q): q is Quote => q !== undefined);
    for (const l of [...this.listeners]) l(changed);
  }

  getQuote(symbol: string): Quote | undefined {
    const q = this.quotes.get(symbol);
    return q ? { ...q } : undefined;
  }

  /** The app's quote reader (AppContext.quote) over this market: last price and the day's limit band. */
  readonly quoteOf = (symbol: string) => {
    const q = this.getQuote(symbol);
    return (
      q && {
        last_price: q.last_price ?? null,
        upper_limit: q.upper_limit ?? null,
        lower_limit: q.lower_limit ?? null,
      }
    );
  };

  onTick(cb: (changed: Quote[]) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  priceTick(symbol: string): number | undefined {
    return this.ticks.get(symbol);
  }

  get listenerCount() {
    return this.listeners.size;
  }
}

/** Instruments the trading tests use, as the catalogue has them (tick and multiplier matter to the tests). */
export const TEST_INSTRUMENTS = {
  'SHFE.cu2601': {
    name: '沪铜2601',
    exchange_id: 'SHFE',
    product_id: 'cu',
    product_name: '铜',
    price_tick: 10,
    volume_multiple: 5,
  },
  'SHFE.au2602': {
    name: '沪金2602',
    exchange_id: 'SHFE',
    product_id: 'au',
    product_name: '黄金',
    price_tick: 0.02,
    volume_multiple: 1000,
  },
  'DCE.i2601': {
    name: '铁矿石2601',
    exchange_id: 'DCE',
    product_id: 'i',
    product_name: '铁矿石',
    price_tick: 0.5,
    volume_multiple: 100,
  },
} as const;

/** Puts these test instruments and their products into the catalogue (those already there stay as they are). */
export async function seedInstruments(db: Kysely<DB>, symbols: (keyof typeof TEST_INSTRUMENTS)[]) {
  const rows = symbols.map((symbol) => ({ symbol, ...TEST_INSTRUMENTS[symbol] }));
  await db
    .insertInto('products')
    .values(rows.map((r) => ({ exchange_id: r.exchange_id, product_id: r.product_id, name: r.product_name })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('instruments')
    .values(rows)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
}

export async function seedTenant(
  db: Kysely<DB>,
  opts: { isSim?: boolean; brokerName?: string; account?: string } = {},
) {
  const tenant = await db
    .insertInto('tenants')
    .values({
      owner_sub: `sub-${randomUUID()}`,
      company_name: '测试公司',
      is_sim: opts.isSim ?? true,
      broker_name: opts.brokerName ?? null,
      futures_account: opts.account ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pricer = await db
    .insertInto('pricer_users')
    .values({ tenant_id: tenant.id, username: 'pricer', password_hash: 'x', status: 'active' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { tenantId: tenant.id, pricerId: pricer.id };
}

export async function seedContract(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  c: { symbol: string; direction: 'BUY' | 'SELL'; total: number },
) {
  const row = await db
    .insertInto('contracts')
    .values({
      tenant_id: who.tenantId,
      name: `合同-${c.symbol}-${c.direction}`,
      pricer_id: who.pricerId,
      product_name: '铜',
      instrument_id: c.symbol,
      direction: c.direction,
      total_quantity: c.total,
      remaining_quantity: c.total,
      status: 'active',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A database handle that can be "killed": from then on (or after n more queries) every query
 * through it fails, as if the process had died. A transaction in progress is rolled back; what
 * was committed stays. Other handles on the same database are unaffected.
 */
export function killSwitch(db: Kysely<DB>) {
  let dead = false;
  let left = Infinity;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (!dead && --left < 0) dead = true;
      if (dead) throw new Error('killed (simulated crash)');
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return {
    db: db.withPlugin(plugin),
    kill() {
      dead = true;
    },
    killAfter(queries: number) {
      left = queries;
    },
    get dead() {
      return dead;
    },
  };
}

export async function waitFor(cond: () => Promise<boolean> | boolean, timeoutMs = 10_000, stepMs = 10) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-3;

/**
 * Everything that must hold for a tenant's books; returns the violations (empty = consistent).
 * - contract: executed + frozen + remaining = total; executed = Σ its trades; frozen = Σ unfilled
 *   lots of its PENDING/ALIVE orders; avg_price = VWAP of its trades; completed iff executed = total.
 * - order: volume_traded = Σ its trades; trade_price = VWAP; FINISHED iff volume_traded = volume_orign.
 */
export async function bookProblems(db: Kysely<DB>, tenantId: number): Promise<string[]> {
  const problems: string[] = [];
  const contracts = await db.selectFrom('contracts').selectAll().where('tenant_id', '=', tenantId).execute();
  const orders = await db.selectFrom('orders').selectAll().where('tenant_id', '=', tenantId).execute();
  const trades = await db.selectFrom('trades').selectAll().where('tenant_id', '=', tenantId).execute();
  // Waiting conditional orders hold lots of their contract too (docs/conditional-orders.md).
  const held = await db
    .selectFrom('conditional_orders')
    .select(['contract_id', 'quantity'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'WAITING')
    .execute();
  const tradesOf = new Map<number, typeof trades>();
  for (const t of trades) tradesOf.set(t.order_id, [...(tradesOf.get(t.order_id) ?? []), t]);
  const vwap = (ts: { price: number; volume: number }[]) => {
    const v = ts.reduce((s, t) => s + t.volume, 0);
    return v ? ts.reduce((s, t) => s + t.price * t.volume, 0) / v : 0;
  };
  for (const o of orders) {
    const ts = tradesOf.get(o.id) ?? [];
    const v = ts.reduce((s, t) => s + t.volume, 0);
    if (v !== o.volume_traded) problems.push(`order ${o.id}: volume_traded ${o.volume_traded} ≠ Σ trades ${v}`);
    if (v && !close(o.trade_price, vwap(ts)))
      problems.push(`order ${o.id}: trade_price ${o.trade_price} ≠ VWAP ${vwap(ts)}`);
    if ((o.status === 'FINISHED') !== (o.volume_traded === o.volume_orign)) {
      problems.push(`order ${o.id}: status ${o.status} with ${o.volume_traded}/${o.volume_orign}`);
    }
  }
  for (const c of contracts) {
    if (c.executed_quantity + c.frozen_quantity + c.remaining_quantity !== c.total_quantity) {
      problems.push(`contract ${c.id}: invariant broken`);
    }
    const own = orders.filter((o) => o.contract_id === c.id);
    const ts = own.flatMap((o) => tradesOf.get(o.id) ?? []);
    const executed = ts.reduce((s, t) => s + t.volume, 0);
    if (executed !== c.executed_quantity)
      problems.push(`contract ${c.id}: executed ${c.executed_quantity} ≠ Σ trades ${executed}`);
    const frozen =
      own
        .filter((o) => o.status === 'PENDING' || o.status === 'ALIVE')
        .reduce((s, o) => s + o.volume_orign - o.volume_traded, 0) +
      held.filter((k) => k.contract_id === c.id).reduce((s, k) => s + k.quantity, 0);
    if (frozen !== c.frozen_quantity)
      problems.push(`contract ${c.id}: frozen ${c.frozen_quantity} ≠ open and held lots ${frozen}`);
    if (executed && !close(c.avg_price, vwap(ts)))
      problems.push(`contract ${c.id}: avg_price ${c.avg_price} ≠ VWAP ${vwap(ts)}`);
    if ((c.status === 'completed') !== (c.executed_quantity === c.total_quantity)) {
      problems.push(`contract ${c.id}: status ${c.status} with ${c.executed_quantity}/${c.total_quantity}`);
    }
  }
  return problems;
}

/**
 * Our books against the simulated exchange's: every trade at the exchange is recorded exactly
 * once, and each order's state matches the exchange's (given no order is PENDING any more).
 */
export async function exchangeProblems(db: Kysely<DB>, tenantId: number): Promise<string[]> {
  const problems: string[] = [];
  const tdb = db;
  const orders = await db.selectFrom('orders').selectAll().where('tenant_id', '=', tenantId).execute();
  const simOrders = new Map(
    (await tdb.selectFrom('sim_orders').selectAll().where('tenant_id', '=', tenantId).execute()).map((o) => [
      o.order_ref,
      o,
    ]),
  );
  const simTrades = await tdb.selectFrom('sim_trades').selectAll().where('tenant_id', '=', tenantId).execute();
  const trades = await db.selectFrom('trades').selectAll().where('tenant_id', '=', tenantId).execute();
  const ours = new Map(trades.map((t) => [t.trade_id, t]));
  if (ours.size !== trades.length) problems.push('duplicate trade ids in trades');
  for (const st of simTrades) {
    const t = ours.get(st.trade_id);
    if (!t) problems.push(`exchange trade ${st.trade_id} missing in trades`);
    else if (t.volume !== st.volume || !close(t.price, st.price) || String(t.order_id) !== st.order_ref) {
      problems.push(`trade ${st.trade_id} differs from the exchange's`);
    }
  }
  if (trades.length !== simTrades.length)
    problems.push(`${trades.length} trades vs ${simTrades.length} at the exchange`);
  for (const o of orders) {
    const s = simOrders.get(String(o.id));
    if (!s) {
      if (o.status !== 'CANCELLED' || o.volume_traded !== 0)
        problems.push(`order ${o.id} (${o.status}) unknown at the exchange`);
      continue;
    }
    if (s.volume_traded !== o.volume_traded)
      problems.push(`order ${o.id}: traded ${o.volume_traded} vs exchange ${s.volume_traded}`);
    const expected = { ALIVE: 'ALIVE', FILLED: 'FINISHED', CANCELLED: 'CANCELLED', REJECTED: 'CANCELLED' }[s.status];
    if (o.status !== expected) problems.push(`order ${o.id}: ${o.status} vs exchange ${s.status}`);
  }
  return problems;
}

/** The market of `symbol` in `quotes` offers `lots` at `price` on both sides, inside a ±10 % limit band. */
export function setMarket(quotes: FakeQuotes, symbol: string, price: number, lots = 100) {
  quotes.set(symbol, {
    last_price: price,
    bid_price1: price,
    ask_price1: price,
    bid_volume1: lots,
    ask_volume1: lots,
    upper_limit: price * 1.1,
    lower_limit: price * 0.9,
  });
}
