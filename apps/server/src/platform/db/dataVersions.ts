import { sql, type Kysely } from 'kysely';
import type { DB } from './schema';
import { sqlFunction, trigger } from './sqlObjects';
import type { SqlObject } from './sqlObjects';

/**
 * The customer's data version (table pricer_data_versions, migration 009): a number per customer that every change
 * to the customer's orders or contracts raises, in the transaction of the change (statement-level triggers, so a
 * batch of a thousand order updates costs one upsert per customer it touched). The session check reads it on every
 * customer call (platform/auth/pricerSessions.ts); the desk's polls are answered from memory while it has not moved
 * (modules/customers/customerReads.ts), and the live desk pushes when it moves (modules/live/hub.ts). Nothing in the
 * code has to remember to raise it: any writer of orders or contracts does, on every server instance.
 *
 * A customer's version is the sum of eight counters; a transaction raises the one its id picks. Two transactions
 * changing the same customer then wait for each other (the counter stays locked to the commit) only one time in
 * eight — a busy customer's fixings, the order router's batches and its broker's fills would otherwise all queue
 * behind one row. The sum grows with every commit, in whatever order they come. The upsert takes the rows in
 * ascending customer order, so two transactions raising the same counters wait for each other instead of
 * deadlocking. Applied before every capability's objects (modules/index.ts SQL_OBJECTS): notifications' trigger
 * calls this function too.
 */
export const DATA_VERSIONS_SQL: readonly SqlObject[] = [
  /** Raises the versions of the customers whose rows the statement changed. */
  sqlFunction(
    'raise_pricer_data_versions',
    `() returns trigger language plpgsql as $$
    begin
      insert into pricer_data_versions (pricer_id, shard, version)
      select distinct pricer_id, (pg_current_xact_id()::text::bigint % 8)::smallint, 1
        from changed where pricer_id is not null order by 1
      on conflict (pricer_id, shard) do update set version = pricer_data_versions.version + 1;
      return null;
    end $$`,
  ),
  /** Orders inserted (a fixing, a 条件单's trigger, the average-fixing job). */
  trigger(
    'orders_inserted_raise_versions',
    'after insert on orders referencing new table as changed for each statement execute function raise_pricer_data_versions()',
  ),
  /** Orders updated (claims, fills, cancels). */
  trigger(
    'orders_updated_raise_versions',
    'after update on orders referencing new table as changed for each statement execute function raise_pricer_data_versions()',
  ),
  /** Contracts created (by the trader, or by a roll). */
  trigger(
    'contracts_inserted_raise_versions',
    'after insert on contracts referencing new table as changed for each statement execute function raise_pricer_data_versions()',
  ),
  /** Contracts updated (frozen, executed, paused, extended, settled). */
  trigger(
    'contracts_updated_raise_versions',
    'after update on contracts referencing new table as changed for each statement execute function raise_pricer_data_versions()',
  ),
];

/**
 * Raises one customer's version by hand, for a write the triggers do not see: the account's balance and credit
 * line (入金/出金/调整, 授信, a fee collected) — the live desk re-reads the account when the version moves. Called
 * before the account row is locked: the lock order is version → account (docs/margin.md "Lock order"), as in
 * `margin_check`.
 */
export async function raisePricerDataVersion(db: Kysely<DB>, pricerId: number): Promise<void> {
  await sql`
    insert into pricer_data_versions (pricer_id, shard, version)
    values (${pricerId}::integer, (pg_current_xact_id()::text::bigint % 8)::smallint, 1)
    on conflict (pricer_id, shard) do update set version = pricer_data_versions.version + 1`.execute(db);
}
