import { zh } from '@pfp/i18n';
import type { createConditionalInput } from '@pfp/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { ConditionalOrderTable, DB } from '../../platform/db/schema';
import { isOnTick, tickDecimals } from '../../market/catalogue';
import { shanghaiInstant } from '../../platform/time';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { conflict, invalid, notFound } from '../../platform/errors';
import { firstOpenDeadline, FIXING_CLOSE_HOUR, isPastDeadline } from '../contracts/fixingTerms';
import { releaseLots } from '../../trading/lots';
import { fixedBy, fixingParty, freezeForFixing, type FixingWho } from '../orders/orders';
import { assertMargin, MarginRefusal, withMarginPrices } from '../margin/check';
import { noMarket, type LastPriceOf } from '../margin/market';
import type { TriggerOutcome } from '../../trading/conditions';
import { ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { notifyConditional } from '../notifications/notify';
import { inTransaction } from '../../platform/db/transaction';

/**
 * Conditional fixing orders (条件单, docs/conditional-orders.md). A WAITING row holds its lots in the
 * contract's frozen quantity. Every way out of WAITING — trigger, cancel, expiry — takes the row in a
 * transaction whose first statement only matches it while it is still WAITING: that single guard is
 * what makes each happen at most once and excludes the others.
 */

export type ConditionalRow = Selectable<ConditionalOrderTable>;
const E = zh.conditional.errors;
const MSG = zh.conditional.messages;

/** A contract without a fixing deadline (from before migration 006): the default validity. */
export const NO_DEADLINE_VALIDITY_MS = 30 * 86_400_000;

/** The close (15:00 Beijing) of a deadline day: the latest a condition on the contract may wait. */
export function deadlineClose(deadline: string): Date {
  const [y, m, d] = deadline.split('-').map(Number) as [number, number, number];
  return new Date(shanghaiInstant(y, m, d, FIXING_CLOSE_HOUR));
}

const priceText = (n: number) => String(Number(n.toFixed(4)));

export async function createConditional(
  db: Kysely<DB>,
  who: FixingWho,
  input: z.output<typeof createConditionalInput>,
  events?: TradingPort,
  now: Date = new Date(),
  /** The live prices the margin check marks floating P/L at (the context's quotes). */
  lastPrice: LastPriceOf = noMarket,
): Promise<ConditionalRow> {
  const row = await withMarginPrices(db, who, lastPrice, (prices) =>
    inTransaction(db, async (tx) => {
      // The lots are held from now on: the same conditional update as a submit's.
      const frozen = await freezeForFixing(tx, who, input, now);
      const instrument = await tx
        .selectFrom('instruments')
        .select('price_tick')
        .where('symbol', '=', frozen.instrument_id)
        .executeTakeFirst();
      const tick = instrument?.price_tick;
      if (tick && !isOnTick(input.trigger_price, tick))
        throw invalid(E.triggerPriceTick(tick.toFixed(tickDecimals(tick))), 'trigger_price');
      if (tick && input.order_price > 0 && !isOnTick(input.order_price, tick))
        throw invalid(E.orderPriceTick(tick.toFixed(tickDecimals(tick))), 'order_price');
      const latest = frozen.fixing_deadline
        ? deadlineClose(frozen.fixing_deadline)
        : new Date(now.getTime() + NO_DEADLINE_VALIDITY_MS);
      const expires = input.expires_at ? new Date(input.expires_at) : latest;
      if (expires.getTime() <= now.getTime()) throw invalid(E.expiresPast, 'expires_at');
      if (frozen.fixing_deadline && expires.getTime() > latest.getTime())
        throw invalid(E.expiresAfterDeadline(frozen.fixing_deadline), 'expires_at');
      // A market 条件单 fixes at whatever the market is when it fires: margined at the worse of its
      // trigger and the live price (issue 40: a trigger of 1 元 held 1 元 a lot), and checked again then.
      const marginPrice = input.order_price || Math.max(input.trigger_price, lastPrice(frozen.instrument_id) ?? 0);
      await assertMargin(
        tx,
        who,
        frozen.id,
        { quantity: input.quantity, price: marginPrice },
        prices(frozen.instrument_id),
      );
      const created = await tx
        .insertInto('conditional_orders')
        .values({
          ...fixingParty(who, frozen),
          quantity: input.quantity,
          trigger_op: input.trigger_op,
          trigger_price: input.trigger_price,
          order_price: input.order_price,
          margin_price: marginPrice,
          expires_at: expires,
          status: 'WAITING',
          last_msg: MSG.waiting,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(tx, {
        tenantId: who.tenantId,
        actor: `pricer:${who.pricerId}`,
        action: 'create-conditional-order',
        payload: { ...input, ...fixedBy(who), expires_at: expires.toISOString(), conditional_order_id: created.id },
      });
      return created;
    }),
  );
  events?.conditionChanged?.(row.id, who.tenantId);
  return row;
}

/**
 * Cancel a WAITING condition: its lots go back to remaining. A customer cancels their own, the
 * trader any of the tenant's; anything else is 404, a condition no longer waiting a 409.
 */
export async function cancelConditional(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId?: number; actor: string },
  id: number,
  events?: TradingPort,
): Promise<ConditionalRow> {
  const row = await inTransaction(db, async (tx) => {
    let q = tx
      .updateTable('conditional_orders')
      .set({ status: 'CANCELLED', last_msg: MSG.cancelled, updated_at: new Date() })
      .where('id', '=', id)
      .where('tenant_id', '=', who.tenantId)
      .where('status', '=', 'WAITING'); // the guard: a triggered (or expired) condition stays so
    if (who.pricerId !== undefined) q = q.where('pricer_id', '=', who.pricerId);
    const cancelled = await q.returningAll().executeTakeFirst();
    if (!cancelled) {
      const seen = await scoped(tx, who, id);
      if (!seen) throw notFound(E.notFound);
      throw conflict(E.notWaiting(zh.conditional.statusLabels[seen.status] ?? seen.status), 'conflict');
    }
    await releaseLots(tx, cancelled.contract_id, cancelled.quantity);
    await audit(tx, {
      tenantId: who.tenantId,
      actor: who.actor,
      action: 'cancel-conditional-order',
      payload: { conditional_order_id: id },
    });
    return cancelled;
  });
  events?.conditionChanged?.(row.id, who.tenantId);
  return row;
}

function scoped(tx: Transaction<DB>, who: { tenantId: number; pricerId?: number }, id: number) {
  let q = tx
    .selectFrom('conditional_orders')
    .select(['id', 'status'])
    .where('id', '=', id)
    .where('tenant_id', '=', who.tenantId);
  if (who.pricerId !== undefined) q = q.where('pricer_id', '=', who.pricerId);
  return q.executeTakeFirst();
}

/**
 * The trigger, in ONE transaction: lock the condition while it is WAITING, check the customer's margin
 * for its lots at the order price (a market 条件单: the price that crossed) without the margin it held
 * while waiting, insert the PENDING order for the router's outbox (the lots stay frozen: they pass from
 * the condition to the order) and mark the condition TRIGGERED with the order's id. Either all is
 * committed or nothing; a second call, a cancel or an expiry that comes first leaves it 'gone'. When the
 * money does not back the fixing it is cancelled with the reason instead, its lots back ('refused').
 * `priceOf`: the live prices the check marks the customer's other holdings at.
 */
export async function triggerConditional(
  db: Kysely<DB>,
  id: number,
  lastPrice: number,
  now: Date = new Date(),
  priceOf: LastPriceOf = noMarket,
): Promise<TriggerOutcome> {
  // The customer is learnt under the condition's lock (a read before it would let a 停用 or a cancel
  // that started later in first); the check's prices follow.
  let owner: { pricerId: number; instrument: string } | undefined;
  const prices: LastPriceOf = (symbol) => (symbol === owner?.instrument ? lastPrice : priceOf(symbol));
  try {
    return await withMarginPrices(
      db,
      () => owner,
      prices,
      (pricesOf) =>
        inTransaction(db, (tx) =>
          fire(tx, id, lastPrice, now, (k) => {
            owner = { pricerId: k.pricer_id, instrument: k.instrument_id };
            return pricesOf(k.instrument_id);
          }),
        ),
    );
  } catch (err) {
    if (!(err instanceof MarginRefusal)) throw err;
    return refuseConditional(db, id, err.reason, lastPrice, now);
  }
}

async function fire(
  tx: Transaction<DB>,
  id: number,
  lastPrice: number,
  now: Date,
  /** The live prices (jsonb) handed to the margin check of this condition's customer. */
  prices: (k: { pricer_id: number; instrument_id: string }) => string,
): Promise<TriggerOutcome> {
  // One round trip: the condition, locked, with its contract's and its customer's state, both share-locked
  // in the same transaction: a pause or a 停用 committing meanwhile is waited for and seen (issue 30).
  const k = await tx
    .selectFrom('conditional_orders as k')
    .innerJoin('contracts as c', 'c.id', 'k.contract_id')
    .innerJoin('pricer_users as p', 'p.id', 'k.pricer_id')
    .selectAll('k')
    .select(['c.status as contract_status', 'c.fixing_deadline', 'c.basis', 'p.status as pricer_status'])
    .where('k.id', '=', id)
    .where('k.status', '=', 'WAITING') // THE guard of exactly once (re-checked after a concurrent commit)
    .forUpdate('k')
    .forShare(['c', 'p'])
    .executeTakeFirst();
  if (!k || k.expires_at.getTime() <= now.getTime()) return { outcome: 'gone' };
  if (isPastDeadline(k.fixing_deadline, now)) return { outcome: 'gone' }; // the deadline job expires it
  if (k.contract_status !== 'active' || k.pricer_status === 'inactive') return { outcome: 'blocked' };
  // Refused: raises, and the whole transaction is undone (the caller then cancels it).
  await assertMargin(
    tx,
    { tenantId: k.tenant_id, pricerId: k.pricer_id },
    k.contract_id,
    { quantity: k.quantity, price: Number(k.order_price) || lastPrice },
    prices(k),
    id,
  );
  const order = await tx
    .insertInto('orders')
    .values({
      tenant_id: k.tenant_id,
      contract_id: k.contract_id,
      pricer_id: k.pricer_id,
      authorised_pricer_id: k.authorised_pricer_id,
      instrument_id: k.instrument_id,
      direction: k.direction,
      volume_orign: k.quantity,
      limit_price: k.order_price,
      basis: k.basis,
      status: 'PENDING',
      last_msg: ORDER_TEXTS.waiting,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const orderId = Number(order.id);
  await tx
    .updateTable('conditional_orders')
    .set({
      status: 'TRIGGERED',
      order_id: orderId,
      trigger_last_price: lastPrice,
      triggered_at: now,
      last_msg: MSG.triggered(priceText(lastPrice)),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  await audit(tx, {
    tenantId: k.tenant_id,
    actor: SYSTEM_ACTOR,
    action: 'trigger-conditional-order',
    payload: { conditional_order_id: id, order_id: orderId, last_price: lastPrice },
  });
  await notifyConditional(tx, 'conditional_fired', id, lastPrice);
  return { outcome: 'triggered', orderId, tenantId: k.tenant_id };
}

/**
 * A condition that fired without the money for its fixing: CANCELLED with the reason, its lots back to
 * the contract, audited by 系统 and told to the customer and the desk — behind the same WAITING guard,
 * so a cancel or an expiry that came first wins ('gone').
 */
async function refuseConditional(
  db: Kysely<DB>,
  id: number,
  reason: string,
  lastPrice: number,
  now: Date,
): Promise<TriggerOutcome> {
  return inTransaction(db, async (tx): Promise<TriggerOutcome> => {
    const k = await tx
      .updateTable('conditional_orders')
      .set({
        status: 'CANCELLED',
        trigger_last_price: lastPrice,
        last_msg: MSG.marginRefused(reason),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'WAITING')
      .returning(['tenant_id', 'contract_id', 'quantity'])
      .executeTakeFirst();
    if (!k) return { outcome: 'gone' };
    await releaseLots(tx, k.contract_id, k.quantity);
    await audit(tx, {
      tenantId: k.tenant_id,
      actor: SYSTEM_ACTOR,
      action: 'cancel-conditional-order',
      payload: { conditional_order_id: id, last_price: lastPrice, reason: MSG.marginRefused(reason) },
    });
    await notifyConditional(tx, 'conditional_fired', id, lastPrice, reason);
    return { outcome: 'refused' };
  });
}

/**
 * Conditions past their validity, or on a contract past its fixing deadline, become EXPIRED and
 * give their lots back. Each in its own transaction behind the same WAITING guard, so the job is
 * idempotent and safe on every instance (it runs with the deadline job).
 */
export async function expireDueConditionals(db: Kysely<DB>, now: Date = new Date()): Promise<number[]> {
  const open = firstOpenDeadline(now);
  const due = await db
    .selectFrom('conditional_orders as k')
    .innerJoin('contracts as c', 'c.id', 'k.contract_id')
    .select(['k.id', 'k.tenant_id', 'k.expires_at'])
    .where('k.status', '=', 'WAITING')
    .where((eb) => eb.or([eb('k.expires_at', '<=', now), eb('c.fixing_deadline', '<', open)]))
    .orderBy('k.id')
    .execute();
  const expired: number[] = [];
  for (const d of due) {
    const done = await db.transaction().execute(async (tx) => {
      const k = await tx
        .updateTable('conditional_orders')
        .set({
          status: 'EXPIRED',
          last_msg: d.expires_at.getTime() <= now.getTime() ? MSG.expired : MSG.deadline,
          updated_at: now,
        })
        .where('id', '=', d.id)
        .where('status', '=', 'WAITING')
        .returning(['id', 'contract_id', 'quantity'])
        .executeTakeFirst();
      if (!k) return false;
      await releaseLots(tx, k.contract_id, k.quantity);
      await audit(tx, {
        tenantId: d.tenant_id,
        actor: SYSTEM_ACTOR,
        action: 'expire-conditional-order',
        payload: { conditional_order_id: d.id },
      });
      await notifyConditional(tx, 'conditional_expired', d.id);
      return true;
    });
    if (done) expired.push(d.id);
  }
  return expired;
}
