import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import type { DB } from '../db/schema';
import { ApiError, badRequest, conflict, notFound } from '../http/errors';
import { idSchema } from '../http/validate';
import { audit } from './audit';

export const submitOrderSchema = z.object({
  contract_id: z.coerce
    .number({ message: '请选择合同' })
    .int({ message: '请选择合同' })
    .positive({ message: '请选择合同' }),
  quantity: z
    .number({ message: '请输入有效的成交数量' })
    .int({ message: '成交数量必须是整数' })
    .positive({ message: '请输入有效的成交数量' })
    .max(100_000, { message: '单笔数量过大' }),
  /** 0 or absent = market order; > 0 = limit order. */
  price: z
    .number({ message: '价格必须是数字' })
    .finite({ message: '价格必须是数字' })
    .min(0, { message: '限价单必须有有效价格' })
    .max(100_000_000, { message: '价格超出范围' })
    .optional()
    .default(0),
});

export const cancelOrderSchema = z.object({ order_id: idSchema('order_id') });

export interface OrderEvents {
  /** A PENDING order is committed: the router may send it. */
  created(orderId: number, tenantId: number): void;
  /** A cancel of an order that is already at the broker was requested. */
  cancelRequested(orderId: number, tenantId: number): void;
}

/**
 * The fixing: in ONE transaction freeze the lots on the contract with a conditional update
 * (two racing submits cannot both pass `remaining_quantity >= q`) and insert the PENDING order.
 */
export async function submitOrder(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  input: z.infer<typeof submitOrderSchema>,
  events?: OrderEvents,
) {
  const order = await db.transaction().execute(async (tx) => {
    const frozen = await tx
      .updateTable('contracts')
      .set((eb) => ({
        frozen_quantity: eb('frozen_quantity', '+', input.quantity),
        remaining_quantity: eb('remaining_quantity', '-', input.quantity),
        updated_at: new Date(),
      }))
      .where('id', '=', input.contract_id)
      .where('tenant_id', '=', who.tenantId)
      .where('pricer_id', '=', who.pricerId)
      .where('status', '=', 'active')
      .where('remaining_quantity', '>=', input.quantity)
      .returning(['id', 'instrument_id', 'direction'])
      .executeTakeFirst();
    if (!frozen) throw await whyNotFrozen(tx, who, input);
    const row = await tx
      .insertInto('orders')
      .values({
        tenant_id: who.tenantId,
        contract_id: frozen.id,
        pricer_id: who.pricerId,
        instrument_id: frozen.instrument_id,
        direction: frozen.direction,
        volume_orign: input.quantity,
        limit_price: input.price,
        status: 'PENDING',
        last_msg: '等待发送',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId: who.tenantId,
      actor: `pricer:${who.pricerId}`,
      action: 'submit-order',
      payload: { ...input, order_id: row.id },
    });
    return row;
  });
  events?.created(order.id, who.tenantId);
  return order;
}

async function whyNotFrozen(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  input: { contract_id: number; quantity: number },
) {
  const c = await tx
    .selectFrom('contracts')
    .select(['status', 'remaining_quantity', 'tenant_id', 'pricer_id'])
    .where('id', '=', input.contract_id)
    .executeTakeFirst();
  if (!c || c.tenant_id !== who.tenantId || c.pricer_id !== who.pricerId) return notFound('合同不存在');
  const labels = { paused: '合同已暂停', expired: '合同已过期', completed: '合同已完成' } as const;
  if (c.status !== 'active') return conflict(`${labels[c.status]}，不能下单`, 'CONTRACT_NOT_ACTIVE');
  return badRequest(`成交数量不能超过剩余数量（剩余 ${c.remaining_quantity} 手）`, 'quantity');
}

/**
 * Cancel. A PENDING order has not reached the broker: it is cancelled here and its lots go back
 * to the contract. An ALIVE order is cancelled at the broker; the router applies the result.
 */
export async function cancelOrder(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId?: number; actor: string },
  orderId: number,
  events?: OrderEvents,
): Promise<{ status: 'CANCELLED' | 'CANCEL_REQUESTED' }> {
  const result = await db.transaction().execute(async (tx) => {
    const o = await tx
      .selectFrom('orders')
      .select(['id', 'tenant_id', 'pricer_id', 'status', 'contract_id', 'volume_orign', 'volume_traded'])
      .where('id', '=', orderId)
      .forUpdate()
      .executeTakeFirst();
    if (!o || o.tenant_id !== who.tenantId || (who.pricerId !== undefined && o.pricer_id !== who.pricerId)) {
      throw notFound('订单不存在');
    }
    const cancellable = who.pricerId === undefined ? ['PENDING', 'ALIVE'] : ['ALIVE'];
    if (!cancellable.includes(o.status)) {
      throw new ApiError(
        409,
        'ORDER_NOT_CANCELLABLE',
        o.status === 'PENDING' ? '订单正在发送，请稍后再撤' : '订单已结束，不能撤单',
      );
    }
    await audit(tx, {
      tenantId: who.tenantId,
      actor: who.actor,
      action: 'cancel-order',
      payload: { order_id: orderId },
    });
    if (o.status === 'ALIVE') {
      // Recorded with the answer, like a submit's PENDING row: if the process dies before the
      // router sends it, the router's sweep finds the request and sends it (docs/trading.md).
      await sql`update order_dispatch set cancel_requested_at = coalesce(cancel_requested_at, now())
                where order_id = ${orderId}`.execute(tx);
      return { status: 'CANCEL_REQUESTED' as const };
    }
    await tx
      .updateTable('orders')
      .set({ status: 'CANCELLED', last_msg: '已撤单', updated_at: new Date() })
      .where('id', '=', o.id)
      .execute();
    await releaseLots(tx, o.contract_id, o.volume_orign - o.volume_traded);
    return { status: 'CANCELLED' as const };
  });
  if (result.status === 'CANCEL_REQUESTED') events?.cancelRequested(orderId, who.tenantId);
  return result;
}

/** Unfilled lots of an ended order go back from frozen to remaining. */
export async function releaseLots(tx: Transaction<DB>, contractId: number, lots: number) {
  if (lots <= 0) return;
  await tx
    .updateTable('contracts')
    .set({
      frozen_quantity: sql`frozen_quantity - ${lots}`,
      remaining_quantity: sql`remaining_quantity + ${lots}`,
      updated_at: new Date(),
    })
    .where('id', '=', contractId)
    .execute();
}
