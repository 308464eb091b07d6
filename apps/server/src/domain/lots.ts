import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema';

/**
 * The lot arithmetic of a contract, in one place. Always:
 *   executed_quantity + frozen_quantity + remaining_quantity = total_quantity
 * (the table's CHECK refuses anything else). Lots move remaining → frozen when an order is
 * submitted, frozen → remaining when its unfilled rest ends, frozen → executed when it fills.
 */

/**
 * Freezes `lots` of an active contract of this customer, or does nothing (undefined) when the
 * contract is not theirs, not active, past its fixing deadline or has fewer remaining: a conditional update, so two racing
 * submits cannot both pass.
 */
export async function freezeLots(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  contractId: number,
  lots: number,
  /** The earliest fixing deadline still open (docs/fixing.md): a contract past its deadline freezes nothing. */
  openDeadline: string,
) {
  return tx
    .updateTable('contracts')
    .set((eb) => ({
      frozen_quantity: eb('frozen_quantity', '+', lots),
      remaining_quantity: eb('remaining_quantity', '-', lots),
      updated_at: new Date(),
    }))
    .where('id', '=', contractId)
    .where('tenant_id', '=', who.tenantId)
    .where('pricer_id', '=', who.pricerId)
    .where('status', '=', 'active')
    .where('remaining_quantity', '>=', lots)
    .where((eb) => eb.or([eb('fixing_deadline', 'is', null), eb('fixing_deadline', '>=', openDeadline)]))
    .returning((eb) => [
      'id',
      'instrument_id',
      'direction',
      'basis',
      'fixing_deadline',
      // The instrument's tick in the same round trip (the submit checks the limit price against it).
      eb
        .selectFrom('instruments')
        .select('price_tick')
        .whereRef('instruments.symbol', '=', 'contracts.instrument_id')
        .as('price_tick'),
    ])
    .executeTakeFirst();
}

/** The unfilled lots of an ended order go back from frozen to remaining. */
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

/**
 * `lots` were traded: they become executed, taken from frozen — or from remaining when the order
 * had already been cancelled in our books (its lots released); the CHECK refuses it if they are
 * gone. avg_price is the volume-weighted price of all the contract's fills (the trade row is
 * inserted first); the contract is completed when executed reaches total.
 */
export async function fillLots(tx: Transaction<DB>, contractId: number, lots: number, from: 'frozen' | 'remaining') {
  // Lock the contract row BEFORE reading its fills: the next statement's snapshot then includes
  // every fill committed by a concurrent transaction that held the lock before us.
  await tx.selectFrom('contracts').select('id').where('id', '=', contractId).forUpdate().execute();
  await sql`
    update contracts c
       set executed_quantity = c.executed_quantity + ${lots},
           frozen_quantity = c.frozen_quantity - ${from === 'frozen' ? lots : 0},
           remaining_quantity = c.remaining_quantity - ${from === 'remaining' ? lots : 0},
           avg_price = (select sum(t.price * t.volume) / sum(t.volume)
                          from trades t join orders o on o.id = t.order_id
                         where o.contract_id = c.id),
           status = case when c.executed_quantity + ${lots} >= c.total_quantity then 'completed' else c.status end,
           updated_at = now()
     where c.id = ${contractId}`.execute(tx);
}
