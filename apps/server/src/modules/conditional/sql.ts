import { view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The 条件单's SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const CONDITIONAL_SQL: readonly SqlObject[] = [
  /** The 条件单 as the consoles list them (views.ts conditionalView), with the state of the order each one sent. */
  view(
    'v_conditional_orders',
    `
    select k.id, k.tenant_id, k.contract_id, k.pricer_id, coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_name, c.name as contract_name,
           k.instrument_id, k.direction, k.quantity, k.trigger_op, k.trigger_price, k.order_price, k.expires_at,
           k.status,
           case k.status when 'WAITING' then '等待触发' when 'TRIGGERED' then '已触发' when 'CANCELLED' then '已撤销'
                         else '已过期' end as status_str,
           k.order_id::integer as order_id, k.trigger_last_price, k.triggered_at, k.last_msg, k.created_at,
           k.updated_at, o.status as order_status, o.volume_traded as order_volume_traded
      from conditional_orders k
      left join pricer_users u on u.id = k.pricer_id
      left join contracts c on c.id = k.contract_id
      left join orders o on o.id = k.order_id
  `,
  ),
];
