import { inTransaction } from '../../platform/db/transaction';
import { zh } from '@pfp/i18n';
import type { updatePricerStatusInput } from '@pfp/contract';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { releaseLots } from '../../trading/lots';
import { ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { stopPreview } from './pause';
import { openOrdersToStop, stopOrders, type StopRun } from './stop';

const MSG = zh.conditional.messages;

/**
 * 停用 means stop (issue 30, docs/security.md, docs/fixing.md "Pause and 停用"). In ONE transaction:
 * the customer's waiting 条件单 are locked (first: the trigger's lock order is condition, contract,
 * customer), the customer becomes inactive with a new token version (every token issued before never
 * works again, also after 启用), and those 条件单 are cancelled with their lots back. Then each
 * working order is cancelled (PENDING here, ALIVE at the broker through the trading port). A trigger
 * re-checks the customer in its own transaction (modules/conditional), so none fires for an inactive
 * customer; the deadline job finishes a 停用 whose order step did not run.
 */

/** What 停用 of one customer will do (404 客户不存在 for another tenant's or an unknown id). */
export async function pricerDeactivatePreview(db: Kysely<DB>, tenantId: number, userId: number) {
  const p = await db
    .selectFrom('pricer_users')
    .select(['id', 'status'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!p) throw notFound('客户不存在');
  return { user_id: p.id, status: p.status, ...(await stopPreview(db, tenantId, { pricer_id: p.id })) };
}

/** 停用 / 启用 a customer of the trader's own tenant (another tenant's id is 404, as if absent). */
export async function changePricerStatus(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updatePricerStatusInput>,
  events?: TradingPort,
) {
  const deactivating = input.new_status === 'inactive';
  const { row, cancelled } = await inTransaction(db, async (tx) => {
    if (deactivating) {
      await tx
        .selectFrom('conditional_orders')
        .select('id')
        .where('pricer_id', '=', input.user_id)
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'WAITING')
        .orderBy('id')
        .forUpdate()
        .execute();
    }
    const row = await tx
      .updateTable('pricer_users')
      .set((eb) => ({
        status: input.new_status,
        // A new token version: no token issued before this 停用 works again, not even after 启用.
        ...(deactivating ? { token_version: eb('token_version', '+', 1) } : {}),
      }))
      .where('id', '=', input.user_id)
      .where('tenant_id', '=', tenantId)
      .returning(['id', 'username', 'status'])
      .executeTakeFirst();
    if (!row) throw notFound('客户不存在');
    await audit(tx, { tenantId, actor, action: 'update-pricer-status', payload: { ...input } });
    const cancelled = deactivating ? await cancelConditionalsOf(tx, tenantId, row.id, actor) : [];
    return { row, cancelled };
  });
  for (const id of cancelled) events?.conditionChanged?.(id, tenantId);
  if (deactivating) await stopCustomerOrders(db, tenantId, row.id, actor, events);
  return row;
}

/** The customer's WAITING 条件单 cancelled (客户已停用), their lots back in remaining. */
async function cancelConditionalsOf(db: Transaction<DB>, tenantId: number, pricerId: number, actor: string) {
  const rows = await db
    .updateTable('conditional_orders')
    .set({ status: 'CANCELLED', last_msg: MSG.customerDeactivated, updated_at: new Date() })
    .where('pricer_id', '=', pricerId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'WAITING') // the guard of exactly once, as every way out of WAITING
    .returning(['id', 'contract_id', 'quantity'])
    .execute();
  for (const k of rows) {
    await releaseLots(db, k.contract_id, k.quantity);
    await audit(db, {
      tenantId,
      actor,
      action: 'cancel-conditional-order',
      payload: { conditional_order_id: k.id, reason: MSG.customerDeactivated },
    });
  }
  return rows.map((k) => k.id);
}

/** The customer's working orders cancelled with 客户已停用. */
export async function stopCustomerOrders(
  db: Kysely<DB>,
  tenantId: number,
  pricerId: number,
  actor: string,
  events?: TradingPort,
): Promise<StopRun> {
  const open = await openOrdersToStop(db)
    .where('o.pricer_id', '=', pricerId)
    .where('o.tenant_id', '=', tenantId)
    .execute();
  return stopOrders(db, open, ORDER_TEXTS.deactivated, actor, events);
}

/**
 * The deadline job's repair: a pause or 停用 whose stop step did not finish (the process died after
 * the status change) is finished here. Orders open on a paused contract or of an inactive customer
 * can only be from before the control (submits and triggers refuse both), and so can a 条件单 still
 * waiting for an inactive customer.
 */
export async function finishStops(db: Kysely<DB>, events?: TradingPort): Promise<StopRun & { conditions: number[] }> {
  const paused = await openOrdersToStop(db)
    .innerJoin('contracts as c', 'c.id', 'o.contract_id')
    .where('c.status', '=', 'paused')
    .execute();
  const a = await stopOrders(db, paused, ORDER_TEXTS.paused, SYSTEM_ACTOR, events);
  const inactive = await openOrdersToStop(db)
    .innerJoin('pricer_users as p', 'p.id', 'o.pricer_id')
    .where('p.status', '=', 'inactive')
    .execute();
  const b = await stopOrders(db, inactive, ORDER_TEXTS.deactivated, SYSTEM_ACTOR, events);
  const waiting = await db
    .selectFrom('conditional_orders as k')
    .innerJoin('pricer_users as p', 'p.id', 'k.pricer_id')
    .select(['k.tenant_id', 'k.pricer_id'])
    .distinct()
    .where('k.status', '=', 'WAITING')
    .where('p.status', '=', 'inactive')
    .execute();
  const conditions: number[] = [];
  for (const w of waiting) {
    const ids = await db
      .transaction()
      .execute((tx) => cancelConditionalsOf(tx, w.tenant_id, w.pricer_id, SYSTEM_ACTOR));
    for (const id of ids) events?.conditionChanged?.(id, w.tenant_id);
    conditions.push(...ids);
  }
  return {
    cancelled: [...a.cancelled, ...b.cancelled],
    cancelRequested: [...a.cancelRequested, ...b.cancelRequested],
    conditions,
  };
}
