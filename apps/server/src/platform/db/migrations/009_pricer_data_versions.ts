import { sql, type Kysely } from 'kysely';

/**
 * pricer_data_versions: a number per customer that every change to the customer's orders or contracts
 * raises, in the transaction of the change (statement-level triggers, so a batch of a thousand order
 * updates costs one upsert per customer it touched). The session check reads it on every customer call;
 * the desk's polls (snapshot, my-orders) are answered from memory while it has not moved
 * (domain/customerReads.ts, docs/performance.md). Nothing in the code has to remember to raise it: any
 * writer of orders or contracts does, on every server instance.
 *
 * A customer's version is the sum of eight counters; a transaction raises the one its id picks. Two
 * transactions changing the same customer then wait for each other (the counter stays locked to the
 * commit) only one time in eight — a busy customer's fixings, the order router's batches and its
 * broker's fills would otherwise all queue behind one row. The sum grows with every commit, in whatever
 * order they come. The upsert takes the rows in ascending customer order, so two transactions raising the
 * same counters wait for each other instead of deadlocking.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table pricer_data_versions (
      pricer_id integer not null,
      shard smallint not null,
      version bigint not null,
      primary key (pricer_id, shard)
    );

    create function raise_pricer_data_versions() returns trigger language plpgsql as $$
    begin
      insert into pricer_data_versions (pricer_id, shard, version)
      select distinct pricer_id, (pg_current_xact_id()::text::bigint % 8)::smallint, 1
        from changed where pricer_id is not null order by 1
      on conflict (pricer_id, shard) do update set version = pricer_data_versions.version + 1;
      return null;
    end $$;

    create trigger orders_inserted_raise_versions after insert on orders
      referencing new table as changed for each statement execute function raise_pricer_data_versions();
    create trigger orders_updated_raise_versions after update on orders
      referencing new table as changed for each statement execute function raise_pricer_data_versions();
    create trigger contracts_inserted_raise_versions after insert on contracts
      referencing new table as changed for each statement execute function raise_pricer_data_versions();
    create trigger contracts_updated_raise_versions after update on contracts
      referencing new table as changed for each statement execute function raise_pricer_data_versions();
  `.execute(db);
}
