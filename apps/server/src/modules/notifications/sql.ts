import { trigger, view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The notifications' SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const NOTIFICATIONS_SQL: readonly SqlObject[] = [
  /** The webhook's delivery log as the settings page reads it (views.ts webhookDeliveriesView). */
  view(
    'v_webhook_deliveries',
    `
    select d.id, d.tenant_id, d.kind, n.title, d.status,
           case d.status when 'pending' then case when d.attempts = 0 then '待发送' else '重试中' end
                         when 'delivered' then '已送达' else '已放弃' end as status_str,
           d.attempts, d.last_status, coalesce(d.last_error, '') as last_error,
           d.created_at, d.delivered_at, case when d.status = 'pending' then d.next_at end as next_at
      from webhook_deliveries d
      join notifications n on n.id = d.notification_id
  `,
  ),
  /**
   * A customer's notification raises their data version (platform/db/dataVersions.ts) in its own transaction: the
   * live desk (docs/live.md) reads the bell again at once, also for an event that changes nothing else (a margin
   * call, a deadline reminder). The traders' rows carry no customer: the console reads them at its next poll.
   */
  trigger(
    'notifications_inserted_raise_versions',
    'after insert on notifications referencing new table as changed for each statement execute function raise_pricer_data_versions()',
  ),
];
