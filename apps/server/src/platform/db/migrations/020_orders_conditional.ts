import { sql, type Kysely } from 'kysely';

/**
 * v_orders names the 条件单 an order came from (issue 29: the customer's history shows which fixes a 条件单
 * made). conditional_orders.order_id is unique, so the join adds no row. Redefined from 013's definition,
 * the new column last.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create or replace view v_orders as
      select o.id, o.tenant_id, o.contract_id, o.pricer_id, u.username as pricer_name, c.name as contract_name,
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
        left join conditional_orders k on k.order_id = o.id;
  `.execute(db);
}
