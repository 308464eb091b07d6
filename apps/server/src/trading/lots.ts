import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB, Direction } from '../platform/db/schema';

/**
 * The lot arithmetic of a contract, in one place. Always:
 *   executed_quantity + frozen_quantity + remaining_quantity + rolled_out_quantity = total_quantity
 * (the table's CHECK refuses anything else). Lots move remaining → frozen when an order is
 * submitted, frozen → remaining when its unfilled rest ends, frozen → executed when it fills
 * (moveLots; from remaining when the order had already been cancelled in our books).
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
): Promise<FrozenLots | undefined> {
  return (await freezeLotsSql(who, contractId, lots, openDeadline).execute(tx)).rows[0];
}

/** The contract a fixing froze lots on: the terms its order is placed with. */
export interface FrozenLots {
  id: number;
  instrument_id: string;
  direction: Direction;
  basis: number;
  fixing_deadline: string | null;
  /** The instrument's tick (the submit checks the limit price against it); null for an unknown instrument. */
  price_tick: number | null;
}

/**
 * The conditional update of freezeLots, not executed (the one-statement submit puts it into a CTE).
 * Written as SQL, not with the query builder: it runs once per fixing, and building it cost more
 * CPU than PostgreSQL's running it (docs/performance.md).
 */
export function freezeLotsSql(
  who: { tenantId: number; pricerId: number },
  contractId: number,
  lots: number,
  openDeadline: string,
  /**
   * Freeze only if the contract's instrument and that instrument's tick are still these, and it carries a
   * margin rate as `margined` says; a contract without one only while its customer is in no margin call
   * (its statement runs no margin check: modules/margin/check.ts).
   */
  expected?: { instrument_id: string; price_tick: number; margined: boolean },
): RawBuilder<FrozenLots> {
  const margin = expected?.margined
    ? sql`margin_rate > 0`
    : sql`margin_rate = 0 and not exists (select from pricer_accounts a where a.pricer_id = ${who.pricerId}::integer and a.in_call)`;
  const still = expected
    ? sql`and instrument_id = ${expected.instrument_id}::text and ${margin}
          and exists (select from instruments i where i.symbol = contracts.instrument_id and i.price_tick = ${expected.price_tick}::numeric)`
    : sql``;
  return sql<FrozenLots>`update contracts
       set frozen_quantity = frozen_quantity + ${lots}::integer,
           remaining_quantity = remaining_quantity - ${lots}::integer,
           updated_at = ${new Date()}
     where id = ${contractId}::integer and tenant_id = ${who.tenantId}::integer and pricer_id = ${who.pricerId}::integer
       and status = 'active' and pricing_mode = 'point' and remaining_quantity >= ${lots}::integer
       and (fixing_deadline is null or fixing_deadline >= ${openDeadline}::date) ${still}
     returning id, instrument_id, direction, basis, fixing_deadline,
               (select price_tick from instruments where instruments.symbol = contracts.instrument_id) as price_tick`;
}

/** The unfilled lots of an ended order go back from frozen to remaining. */
export async function releaseLots(tx: Transaction<DB>, contractId: number, lots: number) {
  if (lots <= 0) return;
  await moveLots(tx, [{ contractId, fromFrozen: 0, fromRemaining: 0, released: lots, amount: 0 }]);
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
  /** Σ price × volume of the traded lots, in ten-thousandths of a yuan (an exact integer). */
  amount: number;
}

/**
 * The fills and releases of many orders in ONE statement, whatever their number (a contract row
 * stays locked from here to the commit: the submits of its customer wait for it). avg_price comes
 * from the row's own running sum (traded_amount, migration 008), which a concurrent writer's commit
 * is seen in (the update re-reads a row it had to wait for), so no read of the fills is needed.
 * Contracts are updated in id order. Only the end state of each contract is checked.
 */
export async function moveLots(tx: Transaction<DB>, moves: LotMove[]) {
  const update = lotsUpdate(moves);
  if (update) await update.execute(tx);
}

/** The statement of moveLots (undefined: nothing moves), for a caller that puts it beside others in one statement. */
export function lotsUpdate(moves: LotMove[]): RawBuilder<unknown> | undefined {
  const byContract = new Map<number, LotMove>();
  for (const m of moves) {
    const sum = byContract.get(m.contractId) ?? {
      contractId: m.contractId,
      fromFrozen: 0,
      fromRemaining: 0,
      released: 0,
      amount: 0,
    };
    sum.fromFrozen += m.fromFrozen;
    sum.fromRemaining += m.fromRemaining;
    sum.released += m.released;
    sum.amount += m.amount;
    byContract.set(m.contractId, sum);
  }
  const rows = [...byContract.values()]
    .filter((m) => m.fromFrozen || m.fromRemaining || m.released)
    .sort((a, b) => a.contractId - b.contractId);
  if (!rows.length) return undefined;
  const values = sql.join(
    rows.map(
      (m) =>
        sql`(${m.contractId}::integer, ${m.fromFrozen + m.fromRemaining}::integer, ${m.fromFrozen + m.released}::integer, ${m.released - m.fromRemaining}::integer, ${m.amount}::numeric / 10000)`,
    ),
  );
  return sql`
    update contracts c
       set executed_quantity = c.executed_quantity + v.traded,
           frozen_quantity = c.frozen_quantity - v.unfrozen,
           remaining_quantity = c.remaining_quantity + v.remaining,
           traded_amount = c.traded_amount + v.amount,
           avg_price = case when v.traded > 0
                            then (c.traded_amount + v.amount) / (c.executed_quantity + v.traded)
                            else c.avg_price end,
           status = case when v.traded > 0 and c.executed_quantity + v.traded >= c.total_quantity - c.rolled_out_quantity
                         then 'completed' else c.status end,
           updated_at = now()
      from (values ${values}) as v(id, traded, unfrozen, remaining, amount)
     where c.id = v.id`;
}
