import { sql, type Kysely } from 'kysely';

/**
 * Issue 30 (docs/fixing.md "Pause and 停用", "Audit log viewer"):
 * - audit_log.ip, audit_log.user_agent: where a trader's or customer's action came from (NULL for what
 *   the server does on its own); v_audit_log shows them.
 * - order_dispatch.late_fill_volume: lots the exchange filled after we had asked it to cancel the
 *   order because its contract was paused or its customer deactivated (a fill is recorded: it
 *   happened). The order's last_msg names them, and each such fill has a `fill-after-stop` audit row.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table order_dispatch add column late_fill_volume integer not null default 0;
    alter table audit_log add column ip text, add column user_agent text;

    create or replace view v_audit_log as
      select a.id, a.tenant_id, a.actor,
             case when a.actor = 'system' then '系统' else coalesce(u.username, tr.username, a.actor) end as actor_name,
             case when a.actor = 'system' then 'system' when u.id is not null or a.actor like 'pricer:%' then 'pricer'
                  else 'trader' end as actor_kind,
             a.action, a.payload::text as payload, a.created_at,
             a.ip, a.user_agent
        from audit_log a
        left join pricer_users u
          on u.id = case when a.actor ~ '^pricer:[0-9]{1,9}$' then substr(a.actor, 8)::integer end
         and u.tenant_id = a.tenant_id
        left join traders tr on tr.id = a.actor;
  `.execute(db);
}
