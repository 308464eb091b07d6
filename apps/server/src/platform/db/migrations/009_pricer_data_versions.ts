import { sql, type Kysely } from 'kysely';

/**
 * pricer_data_versions: a number per customer that every change to the customer's orders or contracts
 * raises, in the transaction of the change. The function and the triggers that raise it are defined once in
 * platform/db/dataVersions.ts (issue 39), where the reasons are written down.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table pricer_data_versions (
      pricer_id integer not null,
      shard smallint not null,
      version bigint not null,
      primary key (pricer_id, shard)
    );
  `.execute(db);
}
