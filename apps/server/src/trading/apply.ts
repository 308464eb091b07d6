import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB, OrderStatus } from '../platform/db/schema';
import { lotsUpdate, type LotMove } from './lots';
import { CLAIM, claimedOrder, nextStatus, ORDER_TEXTS, STOP_REASONS, type ClaimedOrder } from './orderLife';

/**
 * Gateway events applied to our books. Many events (of many orders and tenants) go into ONE
 * transaction of a fixed number of statements (applyEvents: a burst of fills costs what one does),
 * which first locks the order rows (`for update`, in id order), so that concurrent events for one
 * order serialise, also across server instances. Every event is idempotent: applying it twice
 * changes nothing the second time. Status changes follow the order's state machine
 * (orderLife.ts), lot changes the contract's arithmetic (lots.ts).
 * Lock order everywhere: order rows, then contract rows (as cancelOrder in modules/orders).
 */

/** A fill as booked, handed to the FillsBooked port. */
export interface FillBooked {
  tenantId: number;
  orderId: number;
  tradeId: string;
  volume: number;
  price: number;
}

/**
 * What else a booking of fills records, in the booking's transaction (after the books are written):
 * the capabilities' hook (modules/notifications declares it; TradingServiceOptions.fillsBooked hands
 * it down). Trading calls no capability itself.
 */
export type FillsBooked = (tx: Transaction<DB>, fills: FillBooked[]) => Promise<void>;

export interface ClaimRequest {
  tenantId: number;
  orderId: number;
  gatewayKey: string;
}

/**
 * The outbox step: takes PENDING orders for their gateways — records each dispatch and makes the
 * order ALIVE ('已发送') in one statement — BEFORE anything is sent. From then on a cancel of an
 * order goes to the broker (modules/orders cancels only PENDING orders locally), so a cancel can
 * never race with an order on its way. An order no longer PENDING is not taken (undefined in its
 * place); one already bound to a gateway stays bound to it.
 */
export async function claimOrders(db: Kysely<DB>, requests: ClaimRequest[]): Promise<(ClaimedOrder | undefined)[]> {
  if (!requests.length) return [];
  const wanted = sql.join(
    requests.map((r) => sql`(${r.orderId}::bigint, ${r.tenantId}::integer, ${r.gatewayKey}::text)`),
  );
  // The UPDATE waits for a concurrent writer of the row and re-checks the status after it: a
  // cancel that won the race leaves the order alone here.
  const { rows } = await sql<Omit<ClaimedOrder, 'gatewayKey'> & { gateway_key: string }>`
    with req(id, tenant_id, gateway_key) as (values ${wanted}),
    claimed as (
      update orders o
         set status = ${CLAIM.to}, last_msg = ${CLAIM.text}, updated_at = now()
        from req
       where o.id = req.id and o.tenant_id = req.tenant_id and o.status = ${CLAIM.from}
      returning o.id, o.tenant_id, o.direction, o.instrument_id, o.volume_orign, o.limit_price, req.gateway_key
    ),
    recorded as (
      insert into order_dispatch (order_id, tenant_id, gateway_key)
      select id, tenant_id, gateway_key from claimed
      on conflict (order_id) do nothing
      returning order_id, gateway_key
    )
    select c.id, c.direction, c.instrument_id, c.volume_orign, c.limit_price,
           coalesce(r.gateway_key, d.gateway_key) as gateway_key
      from claimed c
      left join recorded r on r.order_id = c.id
      left join order_dispatch d on d.order_id = c.id`.execute(db);
  const byId = new Map(rows.map((o) => [Number(o.id), claimedOrder(o, o.gateway_key)]));
  return requests.map((r) => byId.get(r.orderId));
}

/** One order: see claimOrders. */
export async function claimOrder(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
  gatewayKey: string,
): Promise<ClaimedOrder | undefined> {
  return (await claimOrders(db, [{ tenantId, orderId, gatewayKey }]))[0];
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

export interface TradeFill {
  tradeId: string;
  volume: number;
  price: number;
  at: Date;
}

/** A gateway event as the books see it. */
export type BookEvent =
  /** The broker confirmed the order. */
  | { type: 'accepted' }
  | ({ type: 'trade' } & TradeFill)
  /** The unfilled rest of the order is dead (rejected, cancelled, FAK remainder, expired). */
  | { type: 'ended'; message: string };

export interface OrderEventInput {
  tenantId: number;
  orderId: number;
  event: BookEvent;
}

export interface EventOutcome {
  /** applied: the books changed; unchanged: nothing to do (repeated or not allowed); duplicate: a fill already booked; unknown: no such order of that tenant. */
  result: 'applied' | 'unchanged' | 'duplicate' | 'unknown';
  /** The order's status after the event. */
  status?: OrderStatus;
}

interface BookedOrder {
  id: number;
  tenant_id: number;
  contract_id: number;
  status: OrderStatus;
  volume_orign: number;
  volume_traded: number;
  last_msg: string;
  /** order_dispatch: whether a row exists, whether the broker confirmed it, why we cancelled it. */
  dispatched: boolean;
  accepted: boolean;
  cancel_reason: string | null;
  /** Lots filled after a pause or 停用 asked for the cancel (booked before, and now). */
  late_fill_volume: number;
  late_now: number;
  changed: boolean;
  /** Σ price × volume of the fills booked now, in ten-thousandths. */
  amount: number;
}

function checkFill(orderId: number, fill: TradeFill) {
  if (!Number.isSafeInteger(fill.volume) || fill.volume <= 0)
    throw new Error(`order ${orderId}: invalid trade volume ${fill.volume}`);
  if (!Number.isFinite(fill.price) || fill.price <= 0)
    throw new Error(`order ${orderId}: invalid trade price ${fill.price}`);
}

/** A fill's price × volume in ten-thousandths (prices are numeric(18, 4)): an exact integer, summed without float error. */
const amountOf = (f: TradeFill) => Math.round(f.price * 1e4) * f.volume;

/**
 * Applies gateway events in the order given, in ONE transaction of at most five round trips however
 * many there are: BEGIN; lock the orders (in id order) with their dispatch rows; which of the fills are
 * booked already; one statement that writes everything (the new fills, the first confirmations, the
 * orders, their contracts); COMMIT. Per event:
 * - accepted: ALIVE, '已报单' ('部分成交' if it has fills); first confirmation recorded in order_dispatch.
 * - trade: a fill already booked (same order and trade id) is 'duplicate' and changes nothing. The
 *   order: volume_traded += v, trade_price = volume-weighted average of its fills, FINISHED ('全部成交')
 *   when volume_traded reaches volume_orign, otherwise ALIVE ('部分成交'); a fill implies the broker has
 *   the order (confirmed). The contract: v lots frozen → executed — from remaining instead for an
 *   order our books had already cancelled (its lots were released).
 * - ended: CANCELLED with the message (or the reason of a cancel we sent ourselves, docs/fixing.md),
 *   and its unfilled lots back from frozen to remaining. An order that already ended is left alone.
 * Throws (and changes nothing) when any event is impossible: fills beyond the order's volume, a
 * fill of an order in a state that cannot take one, an invalid fill. The fills booked go to
 * `fillsBooked`, in the same transaction.
 */
export async function applyEvents(
  db: Kysely<DB>,
  inputs: OrderEventInput[],
  fillsBooked?: FillsBooked,
): Promise<EventOutcome[]> {
  if (!inputs.length) return [];
  for (const { orderId, event } of inputs) if (event.type === 'trade') checkFill(orderId, event);
  const ids = [...new Set(inputs.map((i) => i.orderId))].sort((a, b) => a - b);
  const tradeIds = [...new Set(inputs.flatMap((i) => (i.event.type === 'trade' ? [i.event.tradeId] : [])))];
  return db.transaction().execute(async (tx) => {
    // The order rows stay locked to the commit: concurrent events of one order serialise here.
    const locked = await sql<Omit<BookedOrder, 'changed' | 'amount' | 'late_now'>>`
      select o.id, o.tenant_id, o.contract_id, o.status, o.volume_orign, o.volume_traded, o.last_msg,
             d.order_id is not null as dispatched, d.accepted_at is not null as accepted, d.cancel_reason,
             coalesce(d.late_fill_volume, 0) as late_fill_volume
        from orders o left join order_dispatch d on d.order_id = o.id
       where o.id in (${sql.join(ids)})
       order by o.id
         for update of o`.execute(tx);
    const orders = new Map<number, BookedOrder>();
    for (const r of locked.rows)
      orders.set(Number(r.id), {
        ...r,
        id: Number(r.id),
        late_fill_volume: Number(r.late_fill_volume),
        late_now: 0,
        changed: false,
        amount: 0,
      });
    // Which fills are booked already: read AFTER the locks are held (a statement that waited for a lock
    // still sees the rows as they were when it began: a fill booked by the transaction it waited for
    // would be missed).
    const booked = new Set<string>();
    if (tradeIds.length) {
      const known = await sql<{ order_id: number; trade_id: string }>`
        select order_id, trade_id from trades
         where order_id in (${sql.join(ids)}) and trade_id in (${sql.join(tradeIds)})`.execute(tx);
      for (const t of known.rows) booked.add(`${Number(t.order_id)}\u0000${t.trade_id}`);
    }
    const mine = (i: OrderEventInput) => {
      const o = orders.get(i.orderId);
      return o && o.tenant_id === i.tenantId ? o : undefined;
    };

    const confirmed = new Set<number>();
    const confirm = (o: BookedOrder) => {
      if (!o.dispatched || o.accepted) return false;
      o.accepted = true;
      confirmed.add(o.id);
      return true;
    };
    const set = (o: BookedOrder, status: OrderStatus, lastMsg: string) => {
      o.status = status;
      o.last_msg = lastMsg;
      o.changed = true;
    };
    const fills: OrderEventInput[] = [];
    const moves: LotMove[] = [];
    // What each booking does to the contract's lots, audited in this transaction: the audit log alone
    // replays the books (docs/ha.md, "The books equal a replay of the audit log").
    const audits: BookAudit[] = [];
    const outcomes = inputs.map((input): EventOutcome => {
      const o = mine(input);
      if (!o) return { result: 'unknown' };
      const ev = input.event;
      switch (ev.type) {
        case 'accepted': {
          const next = nextStatus(o.status, 'accept');
          if (!next) return { result: 'unchanged', status: o.status };
          const first = confirm(o);
          if (o.status === next && !first) return { result: 'unchanged', status: o.status };
          set(o, next, lateText(o) ?? (o.volume_traded > 0 ? ORDER_TEXTS.partFilled : ORDER_TEXTS.accepted));
          return { result: 'applied', status: next };
        }
        case 'trade': {
          const key = `${o.id}\u0000${ev.tradeId}`;
          if (booked.has(key)) return { result: 'duplicate', status: o.status };
          booked.add(key);
          confirm(o);
          const traded = o.volume_traded + ev.volume;
          if (traded > o.volume_orign) {
            throw new Error(`order ${o.id}: fills (${traded}) exceed the order volume (${o.volume_orign})`);
          }
          const finished = traded === o.volume_orign;
          const wasCancelled = o.status === 'CANCELLED';
          const status = nextStatus(o.status, finished ? 'fill' : 'partFill');
          if (!status) throw new Error(`order ${o.id}: a fill of a ${o.status} order`);
          if (o.cancel_reason !== null && STOP_REASONS.includes(o.cancel_reason)) {
            // The trader stopped it (pause, 停用) and the exchange filled it anyway: booked and flagged.
            o.late_fill_volume += ev.volume;
            o.late_now += ev.volume;
          }
          set(
            o,
            status,
            lateText(o) ?? (finished ? ORDER_TEXTS.filled : wasCancelled ? o.last_msg : ORDER_TEXTS.partFilled),
          );
          o.volume_traded = traded;
          o.amount += amountOf(ev);
          fills.push(input);
          moves.push({
            contractId: o.contract_id,
            fromFrozen: wasCancelled ? 0 : ev.volume,
            fromRemaining: wasCancelled ? ev.volume : 0,
            released: 0,
            amount: amountOf(ev),
          });
          audits.push({
            tenantId: o.tenant_id,
            action: 'book-fill',
            payload: {
              order_id: o.id,
              contract_id: o.contract_id,
              trade_id: ev.tradeId,
              volume: ev.volume,
              price: ev.price,
              // Lots of an order our books had already cancelled come from remaining (named only then).
              ...(wasCancelled ? { from_remaining: ev.volume } : {}),
            },
          });
          return { result: 'applied', status };
        }
        case 'ended': {
          const next = nextStatus(o.status, 'end');
          if (!next) return { result: 'unchanged', status: o.status };
          set(o, next, lateText(o) ?? o.cancel_reason ?? (ev.message || ORDER_TEXTS.cancelled));
          moves.push({
            contractId: o.contract_id,
            fromFrozen: 0,
            fromRemaining: 0,
            released: o.volume_orign - o.volume_traded,
            amount: 0,
          });
          audits.push({
            tenantId: o.tenant_id,
            action: 'order-ended',
            payload: {
              order_id: o.id,
              contract_id: o.contract_id,
              released: o.volume_orign - o.volume_traded,
              message: o.last_msg,
            },
          });
          return { result: 'applied', status: next };
        }
      }
    });
    await writeBooks(tx, {
      fills,
      confirmed: [...confirmed],
      orders: [...orders.values()].filter((o) => o.changed),
      moves,
      audits,
    });
    if (fillsBooked && fills.length)
      await fillsBooked(
        tx,
        fills.map((i) => {
          const f = i.event as TradeFill;
          return { tenantId: i.tenantId, orderId: i.orderId, tradeId: f.tradeId, volume: f.volume, price: f.price };
        }),
      );
    return outcomes;
  });
}

/** last_msg of an order filled after a pause or 停用 asked for its cancel (undefined: none was). */
function lateText(o: BookedOrder): string | undefined {
  return o.late_fill_volume > 0 && o.cancel_reason !== null
    ? ORDER_TEXTS.filledAfterStop(o.cancel_reason, o.late_fill_volume)
    : undefined;
}

/** An audit row of a booking: a fill (book-fill) or an order's unfilled rest back to its contract (order-ended). */
interface BookAudit {
  tenantId: number;
  action: 'book-fill' | 'order-ended';
  payload: Record<string, unknown>;
}

/**
 * Everything a batch of events changes, in one statement (its parts see the rows as they were before
 * it: trade_price therefore adds the batch's own fills to those booked before).
 */
async function writeBooks(
  tx: Transaction<DB>,
  w: { fills: OrderEventInput[]; confirmed: number[]; orders: BookedOrder[]; moves: LotMove[]; audits: BookAudit[] },
) {
  const parts: RawBuilder<unknown>[] = [];
  if (w.audits.length) {
    const rows = sql.join(
      w.audits.map((a) => sql`(${a.tenantId}::integer, ${a.action}::text, ${JSON.stringify(a.payload)}::text)`),
    );
    parts.push(sql`book_audit as (
      insert into audit_log (tenant_id, actor, action, payload)
      select v.tenant_id, 'system', v.action, v.payload::jsonb from (values ${rows}) as v(tenant_id, action, payload))`);
  }
  if (w.fills.length) {
    const rows = sql.join(
      w.fills.map((i) => {
        const f = i.event as TradeFill;
        return sql`(${i.tenantId}::integer, ${i.orderId}::bigint, ${f.tradeId}::text, ${f.volume}::integer, ${f.price}::numeric, ${f.at}::timestamptz)`;
      }),
    );
    parts.push(sql`fills as (
      insert into trades (tenant_id, order_id, trade_id, volume, price, created_at) values ${rows})`);
  }
  if (w.confirmed.length) {
    parts.push(sql`confirmed as (
      update order_dispatch set accepted_at = now()
       where order_id in (${sql.join(w.confirmed)}) and accepted_at is null)`);
  }
  if (w.orders.length) {
    const rows = sql.join(
      w.orders.map(
        (o) =>
          sql`(${o.id}::bigint, ${o.status}::text, ${o.last_msg}::text, ${o.volume_traded}::integer, ${o.amount}::numeric)`,
      ),
    );
    parts.push(sql`booked as (
      update orders o
         set status = v.status, last_msg = v.last_msg, volume_traded = v.traded, updated_at = now(),
             trade_price = case when v.amount > 0
                                then ((select coalesce(sum(t.price * t.volume), 0) from trades t where t.order_id = o.id)
                                      + v.amount / 10000) / v.traded
                                else o.trade_price end
        from (values ${rows}) as v(id, status, last_msg, traded, amount)
       where o.id = v.id)`);
  }
  const late = w.orders.filter((o) => o.late_now > 0);
  if (late.length) {
    // The fills the trader's pause or 停用 did not stop: counted on the dispatch row, and audited.
    const rows = sql.join(
      late.map(
        (o) =>
          sql`(${o.id}::bigint, ${o.tenant_id}::integer, ${o.late_now}::integer, ${JSON.stringify({ order_id: o.id, volume: o.late_now, reason: o.cancel_reason })}::text)`,
      ),
    );
    parts.push(sql`late as (
      update order_dispatch d set late_fill_volume = d.late_fill_volume + v.volume
        from (values ${rows}) as v(id, tenant_id, volume, payload)
       where d.order_id = v.id)`);
    parts.push(sql`late_audit as (
      insert into audit_log (tenant_id, actor, action, payload)
      select v.tenant_id, 'system', 'fill-after-stop', v.payload::jsonb
        from (values ${rows}) as v(id, tenant_id, volume, payload))`);
  }
  const lots = lotsUpdate(w.moves);
  if (lots) parts.push(sql`lots as (${lots})`);
  if (!parts.length) return;
  await sql`with ${sql.join(parts)} select 1`.execute(tx);
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
  const [r] = await applyEvents(db, [{ tenantId, orderId, event: { type: 'accepted' } }]);
  return r!.status;
}

/** One fill (see applyEvents). */
export async function applyTrade(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
  fill: TradeFill,
  fillsBooked?: FillsBooked,
): Promise<'applied' | 'duplicate' | 'unknown'> {
  const [r] = await applyEvents(db, [{ tenantId, orderId, event: { type: 'trade', ...fill } }], fillsBooked);
  return r!.result === 'unchanged' ? 'duplicate' : r!.result;
}

/**
 * The unfilled rest of an order is dead (rejected, cancelled, FAK remainder, expired): CANCELLED
 * with `message`, its unfilled lots back from frozen to remaining. False if it had already ended.
 */
export async function applyEnded(db: Kysely<DB>, tenantId: number, orderId: number, message: string): Promise<boolean> {
  const [r] = await applyEvents(db, [{ tenantId, orderId, event: { type: 'ended', message } }]);
  return r!.result === 'applied';
}
