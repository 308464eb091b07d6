import { view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The orders' SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const ORDERS_SQL: readonly SqlObject[] = [
  /**
   * The orders as the consoles list them (views.ts ordersView). Left joins on NOT NULL foreign keys give the same
   * rows and let PostgreSQL drop the joins a query does not read (the counts and the stats need no name); every
   * key it joins on is in orders_tenant_status_cover (migration 010, platform/views/coverIndex.pg.test.ts).
   * fixed_price = the average fill price + the basis, fixed_amount = fixed_price × lots × multiplier (both NULL
   * before the first fill); turnover = trade_price × volume_traded × multiplier (SPEC's trade_amount stays price ×
   * lots); acknowledged_at: the customer's acknowledgement of the confirmation (NULL while pending);
   * conditional_order_id: the 条件单 that sent the order (conditional_orders.order_id is unique: no extra row).
   */
  view(
    'v_orders',
    `
    select o.id, o.tenant_id, o.contract_id, o.pricer_id, coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_name, c.name as contract_name,
           o.instrument_id, o.direction, o.volume_orign, o.volume_traded::text as volume_traded,
           o.limit_price, o.trade_price, o.trade_price * o.volume_traded as trade_amount, o.status,
           case o.status when 'PENDING' then '待发送' when 'ALIVE' then '执行中' when 'FINISHED' then '已完成'
                         else '已撤销' end as status_str,
           o.last_msg, o.created_at,
           o.basis,
           case when o.volume_traded > 0 then o.trade_price + o.basis end as fixed_price,
           i.volume_multiple as multiplier,
           case when o.volume_traded > 0 then (o.trade_price + o.basis) * o.volume_traded * i.volume_multiple end
             as fixed_amount,
           ack.acknowledged_at,
           o.trade_price * o.volume_traded * coalesce(i.volume_multiple, 1) as turnover,
           i.unit,
           k.id as conditional_order_id
      from orders o
      left join pricer_users u on u.id = o.pricer_id
      left join contracts c on c.id = o.contract_id
      left join instruments i on i.symbol = o.instrument_id
      left join confirmation_acks ack on ack.order_id = o.id
      left join conditional_orders k on k.order_id = o.id
  `,
  ),
];
