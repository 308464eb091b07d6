import type { settleLotsInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { conflict, notFound } from '../../platform/errors';
import { audit } from '../audit/audit';
import { inTransaction } from '../../platform/db/transaction';

/**
 * Delivered / settled lots of a contract: no more than fixed and not yet settled (a conditional update:
 * two racing settlements cannot both pass). Settled lots hold no margin and leave the floating P/L.
 */
export async function settleLots(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof settleLotsInput>,
) {
  return inTransaction(db, async (tx) => {
    const row = await tx
      .updateTable('contracts')
      .set((eb) => ({ settled_quantity: eb('settled_quantity', '+', input.quantity), updated_at: new Date() }))
      .where('id', '=', input.contract_id)
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb(eb('executed_quantity', '-', eb.ref('settled_quantity')), '>=', input.quantity))
      .returning(['id', 'pricer_id', 'executed_quantity', 'settled_quantity'])
      .executeTakeFirst();
    if (!row) {
      const c = await tx
        .selectFrom('contracts')
        .select(['executed_quantity', 'settled_quantity'])
        .where('id', '=', input.contract_id)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (!c) throw notFound('合同不存在');
      throw conflict(`结算手数不能超过已点价未结算的 ${c.executed_quantity - c.settled_quantity} 手`);
    }
    await audit(tx, {
      tenantId,
      actor,
      action: 'settle-lots',
      payload: { ...input, settled_quantity: row.settled_quantity },
    });
    return row;
  });
}
