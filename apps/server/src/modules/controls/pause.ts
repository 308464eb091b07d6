import { zh } from '@pfp/i18n';
import type { updateContractStatusInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { openOrdersToStop, stopOrders, type StopRun } from './stop';
import { updateContractStatus } from '../contracts/contracts';

const MSG = zh.conditional.messages;

/**
 * 暂停 means stop (issue 30, docs/fixing.md "Pause and 停用"). Pausing a contract commits `paused`
 * first (from then on no submit freezes lots on it and no 条件单 fires: the trigger locks the contract
 * row and refuses a paused one), then cancels its working orders — PENDING ones here, ALIVE ones at the
 * broker through the trading port — and marks its waiting 条件单 suspended. 恢复 (back to active)
 * re-arms the 条件单 that are still valid. The deadline job finishes a pause that died half-way.
 */

/** What a pause (or a 停用) will do, counted before the trader confirms it. */
export interface StopPreview {
  /** Orders PENDING or ALIVE: cancelled (PENDING) or cancelled at the exchange (ALIVE). */
  working_orders: number;
  /** Their unfilled lots. */
  working_lots: number;
  /** 条件单 still WAITING. */
  waiting_conditionals: number;
  waiting_conditional_lots: number;
}

/** The working orders and waiting 条件单 of one contract or customer (the tenant's; scope narrows it). */
export async function stopPreview(
  db: Kysely<DB>,
  tenantId: number,
  scope: { contract_id: number } | { pricer_id: number },
): Promise<StopPreview> {
  const [col, value] = 'contract_id' in scope ? ['contract_id', scope.contract_id] : ['pricer_id', scope.pricer_id];
  const [orders, conditions] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => [
        eb.fn.countAll<string>().as('n'),
        eb.fn.coalesce(eb.fn.sum<string>(eb('volume_orign', '-', eb.ref('volume_traded'))), eb.lit(0)).as('lots'),
      ])
      .where('tenant_id', '=', tenantId)
      .where(col as 'contract_id', '=', value)
      .where('status', 'in', ['PENDING', 'ALIVE'])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('conditional_orders')
      .select((eb) => [
        eb.fn.countAll<string>().as('n'),
        eb.fn.coalesce(eb.fn.sum<string>('quantity'), eb.lit(0)).as('lots'),
      ])
      .where('tenant_id', '=', tenantId)
      .where(col as 'contract_id', '=', value)
      .where('status', '=', 'WAITING')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    working_orders: Number(orders.n),
    working_lots: Number(orders.lots),
    waiting_conditionals: Number(conditions.n),
    waiting_conditional_lots: Number(conditions.lots),
  };
}

/** The preview of pausing one contract of the tenant (404 合同不存在 for anything else). */
export async function contractPausePreview(db: Kysely<DB>, tenantId: number, contractId: number) {
  const c = await db
    .selectFrom('contracts')
    .select(['id', 'status'])
    .where('id', '=', contractId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!c) throw notFound('合同不存在');
  return { contract_id: c.id, status: c.status, ...(await stopPreview(db, tenantId, { contract_id: c.id })) };
}

/**
 * update-contract-status as the trader's call: the status change (rules in contracts.ts), then what
 * it means for the contract's orders and 条件单. `paused`: its working orders are stopped and its
 * waiting 条件单 suspended; `active`: its suspended 条件单 are re-armed. Both steps are idempotent.
 */
export async function changeContractStatus(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updateContractStatusInput>,
  events?: TradingPort,
  now: Date = new Date(),
) {
  const row = await updateContractStatus(db, tenantId, actor, input, now);
  if (row.status === 'paused') await stopPausedContract(db, tenantId, row.id, actor, events);
  if (row.status === 'active') await rearmConditionals(db, tenantId, row.id, events);
  return row;
}

/** A paused contract's working orders cancelled, its waiting 条件单 marked suspended (they cannot fire). */
export async function stopPausedContract(
  db: Kysely<DB>,
  tenantId: number,
  contractId: number,
  actor: string,
  events?: TradingPort,
): Promise<StopRun & { suspended: number[] }> {
  const open = await openOrdersToStop(db)
    .where('o.contract_id', '=', contractId)
    .where('o.tenant_id', '=', tenantId)
    .execute();
  const run = await stopOrders(db, open, ORDER_TEXTS.paused, actor, events);
  const suspended = await db
    .updateTable('conditional_orders')
    .set({ last_msg: MSG.suspended, updated_at: new Date() })
    .where('contract_id', '=', contractId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'WAITING')
    .where('last_msg', '<>', MSG.suspended)
    .returning('id')
    .execute();
  // The engine watching the tenant drops them now (it watches conditions of active contracts only).
  for (const k of suspended) events?.conditionChanged?.(k.id, tenantId);
  return { ...run, suspended: suspended.map((k) => k.id) };
}

/** 恢复: the contract's waiting 条件单 watch the market again (an expired one is the expiry job's). */
async function rearmConditionals(db: Kysely<DB>, tenantId: number, contractId: number, events?: TradingPort) {
  const rearmed = await db
    .updateTable('conditional_orders')
    .set({ last_msg: MSG.waiting, updated_at: new Date() })
    .where('contract_id', '=', contractId)
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'WAITING')
    .returning('id')
    .execute();
  for (const k of rearmed) events?.conditionChanged?.(k.id, tenantId);
}
