import { sql, type Kysely } from 'kysely';

/**
 * The trader's controls stop what they name (issue 30, docs/fixing.md "Pause and 停用"):
 * - order_dispatch.late_fill_volume: lots the exchange filled after we had asked it to cancel the
 *   order because its contract was paused or its customer deactivated (a fill is recorded: it
 *   happened). The order's last_msg names them, and each such fill has a `fill-after-stop` audit row.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table order_dispatch add column late_fill_volume integer not null default 0;
  `.execute(db);
}
