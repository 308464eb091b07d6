import { sql, type Kysely } from 'kysely';

/**
 * Issue 30 (docs/fixing.md "Pause and 停用", "Audit log viewer"):
 * - audit_log.ip, audit_log.user_agent: where a trader's or customer's action came from (NULL for what
 *   the server does on its own); v_audit_log (modules/audit/sql.ts) shows them.
 * - order_dispatch.late_fill_volume: lots the exchange filled after we had asked it to cancel the
 *   order because its contract was paused or its customer deactivated (a fill is recorded: it
 *   happened). The order's last_msg names them, and each such fill has a `fill-after-stop` audit row.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table order_dispatch add column late_fill_volume integer not null default 0;
    alter table audit_log add column ip text, add column user_agent text;
  `.execute(db);
}
