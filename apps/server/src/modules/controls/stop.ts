import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';
import { releaseLots } from '../../trading/lots';
import type { TradingPort } from '../../trading/orderLife';

/**
 * Orders stopped by a control of the trader's (暂停 a contract, 停用 a customer) or by the fixing
 * deadline: each open order is cancelled with the control's reason. The caller has already committed
 * the state change that keeps new orders out (the contract paused, the customer inactive), so what
 * is open now is all there is to stop.
 */
export interface StopRun {
  /** PENDING orders cancelled here: they never reached a broker, their lots are back in remaining. */
  cancelled: number[];
  /** ALIVE orders whose cancel is recorded (order_dispatch) and handed to the router for the broker. */
  cancelRequested: number[];
}

/**
 * One order, in its own transaction that locks the order row first (the router's lock order: order,
 * then contract). PENDING: cancelled here with `reason`. ALIVE: the cancel is recorded with its reason
 * (the router sends it and ends the order with the reason instead of the broker's wording); an ALIVE
 * order whose cancel already carries a reason is left as it is. Anything else: nothing.
 */
export async function stopOrder(
  db: Kysely<DB>,
  tenantId: number,
  orderId: number,
  reason: string,
  actor: string,
): Promise<'cancelled' | 'requested' | 'none'> {
  return db.transaction().execute(async (tx) => {
    const o = await tx
      .selectFrom('orders')
      .select(['id', 'status', 'contract_id', 'volume_orign', 'volume_traded'])
      .where('id', '=', orderId)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!o || (o.status !== 'PENDING' && o.status !== 'ALIVE')) return 'none';
    if (o.status === 'ALIVE') {
      const owed = await sql<{ order_id: number }>`
        update order_dispatch
           set cancel_requested_at = coalesce(cancel_requested_at, now()), cancel_reason = ${reason}
         where order_id = ${orderId} and cancel_reason is null
        returning order_id`.execute(tx);
      if (!owed.rows.length) return 'none';
    } else {
      await tx
        .updateTable('orders')
        .set({ status: 'CANCELLED', last_msg: reason, updated_at: new Date() })
        .where('id', '=', o.id)
        .execute();
      await releaseLots(tx, o.contract_id, o.volume_orign - o.volume_traded);
    }
    await audit(tx, { tenantId, actor, action: 'cancel-order', payload: { order_id: orderId, reason } });
    return o.status === 'PENDING' ? 'cancelled' : 'requested';
  });
}

/** {@link stopOrder} for each order, in id order; the requested cancels go to the router. */
export async function stopOrders(
  db: Kysely<DB>,
  orders: readonly { id: number; tenant_id: number }[],
  reason: string,
  actor: string,
  events?: TradingPort,
): Promise<StopRun> {
  const run: StopRun = { cancelled: [], cancelRequested: [] };
  for (const o of [...orders].sort((a, b) => a.id - b.id)) {
    const outcome = await stopOrder(db, o.tenant_id, o.id, reason, actor);
    if (outcome === 'cancelled') run.cancelled.push(o.id);
    if (outcome === 'requested') {
      run.cancelRequested.push(o.id);
      events?.cancelRequested(o.id, o.tenant_id);
    }
  }
  return run;
}

/**
 * The open orders still owing a stop: PENDING, or ALIVE without a recorded reason for their cancel
 * (`where` narrows it to a contract or a customer).
 */
export function openOrdersToStop(db: Kysely<DB>) {
  return db
    .selectFrom('orders as o')
    .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
    .select(['o.id', 'o.tenant_id'])
    .where((eb) =>
      eb.or([
        eb('o.status', '=', 'PENDING'),
        eb.and([eb('o.status', '=', 'ALIVE'), eb('d.cancel_reason', 'is', null)]),
      ]),
    )
    .orderBy('o.id');
}
