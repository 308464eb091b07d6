import { sql, type Kysely } from 'kysely';

/**
 * The customer's acknowledgement of a 点价确认单 (issue 29), and the money of an order in units.
 *
 * - confirmation_acks: one row per acknowledged order (the first acknowledgement wins: the key is the
 *   order), with the address and the browser it came from — evidence in a dispute.
 * - v_orders: `acknowledged_at` (NULL while pending) and `turnover` = trade_price × volume_traded ×
 *   multiplier (the futures money of the fills; SPEC's trade_amount stays price × lots), appended.
 *   The join key (o.id) and what turnover reads are in orders_tenant_status_cover (010).
 * - v_confirmations: `acknowledged_at`, appended.
 * - instruments.unit: what lots × multiplier count in (吨, 克, 桶 …; the catalogue writes it at each
 *   start), NULL for index and bond futures; appended to v_orders, v_contracts (after 012's margin
 *   columns) and v_confirmations as `unit`.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table instruments add column unit text;

    create table confirmation_acks (
      order_id integer primary key references orders (id),
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      acknowledged_at timestamptz not null default now(),
      ip text,
      user_agent text
    );

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
             i.unit
        from orders o
        left join pricer_users u on u.id = o.pricer_id
        left join contracts c on c.id = o.contract_id
        left join instruments i on i.symbol = o.instrument_id
        left join confirmation_acks ack on ack.order_id = o.id;

    create or replace view v_contracts as
      select c.id, c.tenant_id, c.name, c.pricer_id, u.username as pricer_name, c.product_name, c.instrument_id,
             c.direction, c.total_quantity, c.remaining_quantity, c.executed_quantity, c.frozen_quantity,
             c.avg_price, c.status, c.created_at,
             c.basis,
             to_char(c.fixing_deadline, 'YYYY-MM-DD') as fixing_deadline,
             case when c.executed_quantity > 0 then c.avg_price + c.basis end as avg_fixed_price,
             i.volume_multiple as multiplier,
             c.margin_rate,
             c.settled_quantity,
             i.unit
        from contracts c
        join pricer_users u on u.id = c.pricer_id
        left join instruments i on i.symbol = c.instrument_id;

    create or replace view v_confirmations as
      select o.id as order_id, o.tenant_id, o.pricer_id, o.contract_id,
             'QR' || to_char(f.first_at at time zone 'Asia/Shanghai', 'YYYYMMDD') || '-' || lpad(o.id::text, 6, '0')
               as confirmation_no,
             t.company_name, u.username as pricer_name, c.name as contract_name, c.product_name,
             o.instrument_id, i.name as instrument_name, o.direction,
             o.volume_traded as lots, o.trade_price as futures_price, o.basis,
             o.trade_price + o.basis as fixed_price, i.volume_multiple as multiplier,
             (o.trade_price + o.basis) * o.volume_traded * i.volume_multiple as amount,
             f.last_at as fixed_at, o.created_at as ordered_at, o.status,
             ack.acknowledged_at, i.unit
        from orders o
        cross join lateral (select min(tr.created_at) as first_at, max(tr.created_at) as last_at
                              from trades tr where tr.order_id = o.id) f
        join tenants t on t.id = o.tenant_id
        join pricer_users u on u.id = o.pricer_id
        join contracts c on c.id = o.contract_id
        left join instruments i on i.symbol = o.instrument_id
        left join confirmation_acks ack on ack.order_id = o.id
       where o.volume_traded > 0;
  `.execute(db);
}
