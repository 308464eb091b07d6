import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OrderStatus } from '../db/schema';
import { fillLots, releaseLots } from '../domain/lots';
import { nextStatus } from '../domain/orderStatus';

/**
 * Gateway events applied to our books, each in ONE transaction that first locks the order row
 * (`for update`), so that concurrent events for one order serialise, also across server instances.
 * Every function is idempotent: applying the same event twice changes nothing the second time.
 * Status changes follow the order's state machine (domain/orderStatus.ts), lot changes the
 * contract's arithmetic (domain/lots.ts).
 * Lock order everywhere: order row, then contract row (as cancelOrder in domain/orders.ts).
 */

export const ROUTER_MESSAGES = {
  sent: '已发送',
  accepted: '已报单',
  partFilled: '部分成交',
  filled: '全部成交',
  cancelled: '已撤单',
  vanished: '报单已失效（交易柜台无此报单）',
} as const;

interface LockedOrder {
  id: number;
  tenant_id: number;
  contract_id: number;
  status: OrderStatus;
  volume_orign: number;
  volume_traded: number;
  last_msg: string;
}

async function lockOrder(tx: Transaction<DB>, tenantId: number, orderId: number): Promise<LockedOrder | undefined> {
  return tx
    .selectFrom('orders')
    .select(['id', 'tenant_id', 'contract_id', 'status', 'volume_orign', 'volume_traded', 'last_msg'])
    .where('id', '=', orderId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
}

async function setStatus(tx: Transaction<DB>, orderId: number, status: OrderStatus, lastMsg: string) {
  await tx
    .updateTable('orders')
    .set({ status, last_msg: lastMsg, updated_at: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute();
}

export interface ClaimedOrder {
  id: number;
  direction: 'BUY' | 'SELL';
  instrument_id: string;
  volume_orign: number;
  limit_price: number;
  /** The gateway the order is (now) bound to; another than asked if it was bound before. */
  gatewayKey: string;
}

/**
 * The outbox step: takes a PENDING order for gateway `gatewayKey` — records the dispatch and makes
 * it ALIVE ('已发送') in one transaction — BEFORE anything is sent. From then on a cancel of the
 * order goes to the broker (domain/orders.ts cancels only PENDING orders locally), so a cancel can
 * never race with an order on its way. Returns undefined if the order is no longer PENDING.
 */
export async function claimOrder(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
  gatewayKey: string,
): Promise<ClaimedOrder | undefined> {
  return db.transaction().execute(async (tx) => {
    const o = await lockOrder(tx, tenantId, orderId);
    const next = o && nextStatus(o.status, 'claim');
    if (!next) return undefined;
    const row = await tx
      .selectFrom('orders')
      .select(['id', 'direction', 'instrument_id', 'volume_orign', 'limit_price'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('order_dispatch')
      .values({ order_id: orderId, tenant_id: tenantId, gateway_key: gatewayKey })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute();
    const d = await tx
      .selectFrom('order_dispatch')
      .select('gateway_key')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    await setStatus(tx, orderId, next, ROUTER_MESSAGES.sent);
    return { ...row, gatewayKey: d.gateway_key };
  });
}

/** Records that a cancel is owed to the broker; returns the order's gateway (undefined: never sent). */
export async function requestCancel(db: Kysely<DB>, tenantId: number, orderId: number): Promise<string | undefined> {
  const d = await db
    .updateTable('order_dispatch')
    .set({ cancel_requested_at: sql<Date>`coalesce(cancel_requested_at, now())` })
    .where('order_id', '=', orderId)
    .where('tenant_id', '=', tenantId)
    .returning('gateway_key')
    .executeTakeFirst();
  return d?.gateway_key;
}

async function markAccepted(tx: Transaction<DB>, orderId: number): Promise<boolean> {
  const r = await tx
    .updateTable('order_dispatch')
    .set({ accepted_at: sql<Date>`now()` })
    .where('order_id', '=', orderId)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The broker confirmed the order: ALIVE, '已报单' (unless it already has fills). Returns the
 * order's status after the call (undefined: no such order).
 */
export async function applyAccepted(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
): Promise<OrderStatus | undefined> {
  return db.transaction().execute(async (tx) => {
    const o = await lockOrder(tx, tenantId, orderId);
    if (!o) return undefined;
    const next = nextStatus(o.status, 'accept');
    if (!next) return o.status;
    const first = await markAccepted(tx, orderId);
    if (o.status !== next || first) {
      await setStatus(tx, orderId, next, o.volume_traded > 0 ? ROUTER_MESSAGES.partFilled : ROUTER_MESSAGES.accepted);
    }
    return next;
  });
}

export interface TradeFill {
  tradeId: string;
  volume: number;
  price: number;
  at: Date;
}

/**
 * One fill. The trades row is inserted first; only if that insert happened (unique
 * (order_id, trade_id)) are the order and the contract changed, so a replay is harmless.
 * - order: volume_traded += v, trade_price = volume-weighted average of its fills,
 *   FINISHED ('全部成交') when volume_traded reaches volume_orign, otherwise ALIVE ('部分成交').
 * - contract: executed += v, frozen −= v, avg_price = volume-weighted average of all its fills,
 *   'completed' when executed reaches total.
 * A fill of an order that was already CANCELLED in our books (its lots were released) takes the
 * lots from remaining instead; the database's CHECK refuses it if they are gone.
 */
export async function applyTrade(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
  fill: TradeFill,
): Promise<'applied' | 'duplicate' | 'unknown'> {
  if (!Number.isSafeInteger(fill.volume) || fill.volume <= 0) throw new Error(`invalid trade volume ${fill.volume}`);
  if (!Number.isFinite(fill.price) || fill.price <= 0) throw new Error(`invalid trade price ${fill.price}`);
  return db.transaction().execute(async (tx) => {
    const o = await lockOrder(tx, tenantId, orderId);
    if (!o) return 'unknown';
    const inserted = await sql<{ id: number }>`
      insert into trades (tenant_id, order_id, trade_id, volume, price, created_at)
      values (${tenantId}, ${orderId}, ${fill.tradeId}, ${fill.volume}, ${fill.price}, ${fill.at})
      on conflict (order_id, trade_id) do nothing
      returning id`.execute(tx);
    if (!inserted.rows.length) return 'duplicate';
    await markAccepted(tx, orderId); // a fill implies the broker has the order
    const traded = o.volume_traded + fill.volume;
    if (traded > o.volume_orign) {
      throw new Error(`order ${orderId}: fills (${traded}) exceed the order volume (${o.volume_orign})`);
    }
    const finished = traded === o.volume_orign;
    const wasCancelled = o.status === 'CANCELLED';
    const status = nextStatus(o.status, finished ? 'fill' : 'partFill');
    if (!status) throw new Error(`order ${orderId}: a fill of a ${o.status} order`);
    const lastMsg = finished ? ROUTER_MESSAGES.filled : wasCancelled ? o.last_msg : ROUTER_MESSAGES.partFilled;
    await sql`
      update orders
         set volume_traded = ${traded},
             trade_price = (select sum(t.price * t.volume) / sum(t.volume) from trades t where t.order_id = ${orderId}),
             status = ${status},
             last_msg = ${lastMsg},
             updated_at = now()
       where id = ${orderId}`.execute(tx);
    await fillLots(tx, o.contract_id, fill.volume, wasCancelled ? 'remaining' : 'frozen');
    return 'applied';
  });
}

/**
 * The unfilled rest of an order is dead (rejected, cancelled, FAK remainder, expired):
 * CANCELLED with `message`, and its unfilled lots go back from frozen to remaining.
 * An order that already ended is left alone.
 */
export async function applyEnded(db: Kysely<DB>, tenantId: number, orderId: number, message: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const o = await lockOrder(tx, tenantId, orderId);
    const next = o && nextStatus(o.status, 'end');
    if (!o || !next) return false;
    // A cancel we sent for a reason of our own (the fixing deadline, docs/fixing.md) ends with that reason.
    const reason = await tx
      .selectFrom('order_dispatch')
      .select('cancel_reason')
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    await setStatus(tx, orderId, next, reason?.cancel_reason ?? (message || ROUTER_MESSAGES.cancelled));
    await releaseLots(tx, o.contract_id, o.volume_orign - o.volume_traded);
    return true;
  });
}
