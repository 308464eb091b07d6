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
  await moveLots(tx, [{ contractId, fromFrozen: 0, fromRemaining: 0, released: lots }]);
}

/**
 * `lots` were traded: they become executed, taken from frozen — or from remaining when the order
 * had already been cancelled in our books (its lots released); the CHECK refuses it if they are
 * gone. avg_price is the volume-weighted price of all the contract's fills (the trade row is
 * inserted first); the contract is completed when executed reaches total.
 */
export async function fillLots(tx: Transaction<DB>, contractId: number, lots: number, from: 'frozen' | 'remaining') {
  await moveLots(tx, [
    { contractId, fromFrozen: from === 'frozen' ? lots : 0, fromRemaining: from === 'remaining' ? lots : 0, released: 0 },
  ]);
}

/** What a batch of fills and ended orders does to one contract (sums over its orders). */
export interface LotMove {
  contractId: number;
  /** Traded lots taken from frozen (a live order's fills). */
  fromFrozen: number;
  /** Traded lots taken from remaining (late fills of an order our books had cancelled). */
  fromRemaining: number;
  /** Unfilled lots of ended orders, back from frozen to remaining. */
  released: number;
}

/**
 * The fills and releases of many orders in two statements, whatever their number: the contracts
 * are locked in id order (the same order every writer takes them in a batch, so two batches cannot
 * deadlock) BEFORE their fills are read, so avg_price includes every fill committed by a
 * transaction that held a lock before us. Only the end state of each contract is checked.
 */
export async function moveLots(tx: Transaction<DB>, moves: LotMove[]) {
  const byContract = new Map<number, LotMove>();
  for (const m of moves) {
    const sum = byContract.get(m.contractId) ?? { contractId: m.contractId, fromFrozen: 0, fromRemaining: 0, released: 0 };
    sum.fromFrozen += m.fromFrozen;
    sum.fromRemaining += m.fromRemaining;
    sum.released += m.released;
    byContract.set(m.contractId, sum);
  }
  const rows = [...byContract.values()]
    .filter((m) => m.fromFrozen || m.fromRemaining || m.released)
    .sort((a, b) => a.contractId - b.contractId);
  if (!rows.length) return;
  await tx
    .selectFrom('contracts')
    .select('id')
    .where(
      'id',
      'in',
      rows.map((m) => m.contractId),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  const values = sql.join(
    rows.map(
      (m) =>
        sql`(${m.contractId}::integer, ${m.fromFrozen + m.fromRemaining}::integer, ${m.fromFrozen + m.released}::integer, ${m.released - m.fromRemaining}::integer)`,
    ),
  );
  await sql`
    update contracts c
       set executed_quantity = c.executed_quantity + v.traded,
           frozen_quantity = c.frozen_quantity - v.unfrozen,
           remaining_quantity = c.remaining_quantity + v.remaining,
           avg_price = case when v.traded > 0
                            then (select sum(t.price * t.volume) / sum(t.volume)
                                    from trades t join orders o on o.id = t.order_id
                                   where o.contract_id = c.id)
                            else c.avg_price end,
           status = case when v.traded > 0 and c.executed_quantity + v.traded >= c.total_quantity
                         then 'completed' else c.status end,
           updated_at = now()
      from (values ${values}) as v(id, traded, unfrozen, remaining)
     where c.id = v.id`.execute(tx);
}
