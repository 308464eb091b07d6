import { view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The audit log's SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const AUDIT_SQL: readonly SqlObject[] = [
  /**
   * The audit log as the trader's viewer shows it (views.ts auditLogView): who (a customer's 客户全称 (issue 41), the signed-in
   * trader's user name when the embedded provider knows it, 系统 for the server's own jobs), what, the payload as
   * text, and where a person's action came from (NULL for what the server does on its own).
   */
  view(
    'v_audit_log',
    `
    select a.id, a.tenant_id, a.actor,
           case when a.actor = 'system' then '系统'
                else coalesce(nullif(btrim(u.full_name), ''), u.username, tr.username, a.actor) end as actor_name,
           case when a.actor = 'system' then 'system' when u.id is not null or a.actor like 'pricer:%' then 'pricer'
                else 'trader' end as actor_kind,
           a.action, a.payload::text as payload, a.created_at,
           a.ip, a.user_agent
      from audit_log a
      left join pricer_users u
        on u.id = case when a.actor ~ '^pricer:[0-9]{1,9}$' then substr(a.actor, 8)::integer end
       and u.tenant_id = a.tenant_id
      left join traders tr on tr.id = a.actor
  `,
  ),
];
