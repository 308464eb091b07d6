import { sql, type Kysely } from 'kysely';

/**
 * A customer's notification raises their data version (009) in its own transaction, like a change of their
 * orders or contracts: the live desk (docs/live.md) sees the version move and the bell is read again at once,
 * also for an event that changes nothing else (a margin call, a deadline reminder). The traders' rows carry
 * no customer: the console reads them at its next poll unless the event moved the company's data too.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create trigger notifications_inserted_raise_versions after insert on notifications
      referencing new table as changed for each statement execute function raise_pricer_data_versions();
  `.execute(db);
}
