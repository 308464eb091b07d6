import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, SimOrderStatus, SimOrderTable } from '../platform/db/schema';
import { Batcher } from './batches';
import type { Resting } from './simRules';

/**
 * The simulated exchange's persisted book (sim_orders, sim_trades): the broker (simBroker.ts) writes
 * here BEFORE it reports, so that a restart finds everything again. Every read and write is one
 * account's (tenant_id), but the inserts of all accounts can go in one statement (createSimWriter).
 */

/** A fill of a resting order, about to be booked. */
export interface Fill {
  order: Resting;
  tradeId: string;
  volume: number;
  price: number;
}

function restingOf(r: Selectable<SimOrderTable>, trades: number): Resting {
  return {
    ref: r.order_ref,
    symbol: r.symbol,
    direction: r.direction,
    limitPrice: r.limit_price,
    volume: r.volume_orign,
    traded: r.volume_traded,
    seq: Number(r.seq),
    expiresAt: new Date(r.expires_at).getTime(),
    trades,
  };
}

/** The resting orders of an account, oldest first, with how many fills each has had. */
export async function readResting(db: Kysely<DB>, tenantId: number): Promise<Resting[]> {
  const rows = await db
    .selectFrom('sim_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'ALIVE')
    .orderBy('seq')
    .execute();
  const counts = rows.length
    ? await db
        .selectFrom('sim_trades')
        .select(['order_ref', (eb) => eb.fn.countAll<number>().as('n')])
        .where('tenant_id', '=', tenantId)
        .where(
          'order_ref',
          'in',
          rows.map((r) => r.order_ref),
        )
        .groupBy('order_ref')
        .execute()
    : [];
  const tradesOf = new Map(counts.map((c) => [c.order_ref, Number(c.n)]));
  return rows.map((r) => restingOf(r, tradesOf.get(r.order_ref) ?? 0));
}

export function findSimOrder(db: Kysely<DB>, tenantId: number, ref: string) {
  return db
    .selectFrom('sim_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('order_ref', '=', ref)
    .executeTakeFirst();
}

export function findSimOrders(db: Kysely<DB>, tenantId: number, refs: string[]) {
  return db
    .selectFrom('sim_orders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('order_ref', 'in', refs)
    .execute();
}

/** An order's fills, in the order they happened. */
export function simTradesOf(db: Kysely<DB>, tenantId: number, ref: string) {
  return db
    .selectFrom('sim_trades')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('order_ref', '=', ref)
    .orderBy('traded_at')
    .orderBy('trade_id')
    .execute();
}

/** The order as a resting one, if it is still alive at the exchange. */
export async function readAlive(db: Kysely<DB>, tenantId: number, ref: string): Promise<Resting | undefined> {
  const row = await findSimOrder(db, tenantId, ref);
  if (!row || row.status !== 'ALIVE') return undefined;
  const trades = await simTradesOf(db, tenantId, ref);
  return restingOf(row, trades.length);
}

/** Ends the rest of the orders still alive among `refs`; returns those it ended. */
export async function cancelSimOrders(
  db: Kysely<DB>,
  tenantId: number,
  refs: string[],
  message: string,
  at: Date,
): Promise<string[]> {
  const done = await db
    .updateTable('sim_orders')
    .set({ status: 'CANCELLED', last_msg: message, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('order_ref', 'in', refs)
    .where('status', '=', 'ALIVE')
    .returning(['order_ref'])
    .execute();
  return done.map((d) => d.order_ref);
}

/**
 * Books a matching pass's fills: two statements for the whole pass, however many fills (a market move
 * can fill hundreds of resting orders at once; docs/performance.md). Throws, writing nothing, when
 * another owner of this account changed one of the orders meanwhile.
 */
export async function writeFills(db: Kysely<DB>, tenantId: number, fills: Fill[], at: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('sim_trades')
      .values(
        fills.map((f) => ({
          trade_id: f.tradeId,
          tenant_id: tenantId,
          order_ref: f.order.ref,
          volume: f.volume,
          price: f.price,
          traded_at: at,
        })),
      )
      .execute();
    const rows = sql.join(
      fills.map((f) => {
        const traded = f.order.traded + f.volume;
        return sql`(${f.order.ref}::text, ${traded}::integer, ${traded === f.order.volume ? 'FILLED' : 'ALIVE'}::text, ${f.order.traded}::integer)`;
      }),
    );
    const updated = await sql`
      update sim_orders o
         set volume_traded = v.traded, status = v.status, updated_at = ${at}
        from (values ${rows}) as v(order_ref, traded, status, before)
       where o.tenant_id = ${tenantId}
         and o.order_ref = v.order_ref
         and o.status = 'ALIVE'
         and o.volume_traded = v.before`.execute(tx);
    if (Number(updated.numAffectedRows) !== fills.length) throw new Error('sim orders changed underneath');
  });
}

/** One order for the simulated exchange's book, with its first fill. */
export interface SimInsert {
  tenantId: number;
  ref: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  offset: 'OPEN' | 'CLOSE';
  priceType: 'LIMIT' | 'MARKET';
  limitPrice: number;
  volume: number;
  status: SimOrderStatus;
  message: string;
  expiresAt: Date;
  at: Date;
  fill?: { tradeId: string; volume: number; price: number };
}

export const simKey = (tenantId: number, ref: string) => `${tenantId}\u0000${ref}`;

/**
 * Orders (of any accounts) and their first fills in ONE statement; returns the seq of each order
 * inserted, by simKey (absent: the exchange had it already, nothing of it was written).
 */
export async function insertSimOrders(db: Kysely<DB>, rows: SimInsert[]): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  const orders = sql.join(
    rows.map(
      (r) => sql`(${r.tenantId}::integer, ${r.ref}::text, ${r.symbol}::text, ${r.direction}::text, ${r.offset}::text,
        ${r.priceType}::text, ${r.limitPrice}::numeric, ${r.volume}::integer, ${r.fill?.volume ?? 0}::integer,
        ${r.status}::text, ${r.message}::text, ${r.expiresAt}::timestamptz, ${r.at}::timestamptz, ${r.at}::timestamptz)`,
    ),
  );
  const filled = rows.filter((r) => r.fill);
  const trades = filled.length
    ? sql`, fills as (
        insert into sim_trades (trade_id, tenant_id, order_ref, volume, price, traded_at)
        select v.trade_id, v.tenant_id, v.order_ref, v.volume, v.price, v.at
          from (values ${sql.join(
            filled.map(
              (r) =>
                sql`(${r.fill!.tradeId}::text, ${r.tenantId}::integer, ${r.ref}::text, ${r.fill!.volume}::integer, ${r.fill!.price}::numeric, ${r.at}::timestamptz)`,
            ),
          )}) as v(trade_id, tenant_id, order_ref, volume, price, at)
          join inserted using (tenant_id, order_ref))`
    : sql``;
  const { rows: inserted } = await sql<{ tenant_id: number; order_ref: string; seq: string | number }>`
    with inserted as (
      insert into sim_orders (tenant_id, order_ref, symbol, direction, offset_flag, price_type, limit_price,
                              volume_orign, volume_traded, status, last_msg, expires_at, inserted_at, updated_at)
      select * from (values ${orders}) as v
      on conflict (tenant_id, order_ref) do nothing
      returning tenant_id, order_ref, seq)${trades}
    select tenant_id, order_ref, seq from inserted`.execute(db);
  return new Map(inserted.map((r) => [simKey(Number(r.tenant_id), r.order_ref), Number(r.seq)]));
}

/**
 * The simulated exchange's inserts of every account of the process, group-committed (batches.ts):
 * with many accounts each sending a few orders a second, one statement takes them all.
 */
export interface SimWriter {
  add(rows: SimInsert[]): Promise<Map<string, number>>;
}

export function createSimWriter(db: Kysely<DB>): SimWriter {
  type Written = { seqs: Map<string, number> } | { error: unknown };
  const batcher = new Batcher<SimInsert[], Written>(async (batches) => {
    try {
      const seqs = await insertSimOrders(db, batches.flat());
      return batches.map(() => ({ seqs }));
    } catch (err) {
      if (batches.length === 1) throw err;
      // One account's bad order must not fail the others': each account's rows alone.
      const alone: Written[] = [];
      for (const rows of batches)
        alone.push(
          await insertSimOrders(db, rows).then(
            (seqs) => ({ seqs }),
            (error: unknown) => ({ error }),
          ),
        );
      return alone;
    }
  });
  return {
    async add(rows) {
      const written = await batcher.add(rows);
      if ('error' in written) throw written.error;
      return written.seqs;
    },
  };
}
