import { sql, type Kysely } from 'kysely';

/**
 * The business terms of a price-fixing contract (docs/fixing.md): the basis (基差) added to the futures
 * price, the fixing deadline (点价截止日), and what follows from them on orders and in the views.
 *
 * - contracts.basis / orders.basis: yuan per unit of the futures price, may be negative, on the
 *   instrument's tick grid. An order copies its contract's basis when it is submitted, so a fixed price
 *   never changes after the fact. Rows from before this migration get 0.
 * - contracts.fixing_deadline: the last calendar day (Asia/Shanghai) the contract can be fixed. NULL only
 *   for contracts created before this migration (no deadline); create-contract requires one.
 * - order_dispatch.cancel_reason: why a cancel was sent to the broker on our own initiative (the deadline),
 *   so that the order ends with that message instead of the broker's generic '已撤单'.
 * - v_orders / v_contracts: the new columns appended (CREATE OR REPLACE VIEW keeps the existing ones).
 *   fixed_price = the order's average futures fill price + its basis (NULL before the first fill);
 *   avg_fixed_price = the lot-weighted average of the fixed prices of the contract's executed lots, which
 *   is avg_price + basis because every order of a contract carries the contract's (immutable) basis.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts add column basis numeric(18, 4) not null default 0;
    alter table contracts add column fixing_deadline date;
    alter table orders add column basis numeric(18, 4) not null default 0;
    alter table order_dispatch add column cancel_reason text;

    -- The expiry job looks for contracts still open past their deadline (a handful per day).
    create index contracts_fixing_deadline on contracts (fixing_deadline) where status in ('active', 'paused');
    -- Statements and confirmations: one tenant's (or customer's) fills by time.
    create index trades_tenant_created on trades (tenant_id, created_at);

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
               as fixed_amount
        from orders o
        left join pricer_users u on u.id = o.pricer_id
        left join contracts c on c.id = o.contract_id
        left join instruments i on i.symbol = o.instrument_id;

    create or replace view v_contracts as
      select c.id, c.tenant_id, c.name, c.pricer_id, u.username as pricer_name, c.product_name, c.instrument_id,
             c.direction, c.total_quantity, c.remaining_quantity, c.executed_quantity, c.frozen_quantity,
             c.avg_price, c.status, c.created_at,
             c.basis,
             to_char(c.fixing_deadline, 'YYYY-MM-DD') as fixing_deadline,
             case when c.executed_quantity > 0 then c.avg_price + c.basis end as avg_fixed_price,
             i.volume_multiple as multiplier
        from contracts c
        join pricer_users u on u.id = c.pricer_id
        left join instruments i on i.symbol = c.instrument_id;

    -- 点价确认单: one per order with at least one filled lot. Its number carries the Beijing date of the
    -- first fill and the order id; fixed_at is the last fill (a partly filled live order's confirmation
    -- grows with its fills). The lateral lookup uses trades' (order_id, trade_id) index.
    create view v_confirmations as
      select o.id as order_id, o.tenant_id, o.pricer_id, o.contract_id,
             'QR' || to_char(f.first_at at time zone 'Asia/Shanghai', 'YYYYMMDD') || '-' || lpad(o.id::text, 6, '0')
               as confirmation_no,
             t.company_name, u.username as pricer_name, c.name as contract_name, c.product_name,
             o.instrument_id, i.name as instrument_name, o.direction,
             o.volume_traded as lots, o.trade_price as futures_price, o.basis,
             o.trade_price + o.basis as fixed_price, i.volume_multiple as multiplier,
             (o.trade_price + o.basis) * o.volume_traded * i.volume_multiple as amount,
             f.last_at as fixed_at, o.created_at as ordered_at, o.status
        from orders o
        cross join lateral (select min(tr.created_at) as first_at, max(tr.created_at) as last_at
                              from trades tr where tr.order_id = o.id) f
        join tenants t on t.id = o.tenant_id
        join pricer_users u on u.id = o.pricer_id
        join contracts c on c.id = o.contract_id
        left join instruments i on i.symbol = o.instrument_id
       where o.volume_traded > 0;

    -- The audit log as the trader's viewer shows it: who (a customer's name, the signed-in trader's user
    -- name when the embedded provider knows it, 系统 for the deadline job), what, and the payload as text.
    create view v_audit_log as
      select a.id, a.tenant_id, a.actor,
             case when a.actor = 'system' then '系统' else coalesce(u.username, tr.username, a.actor) end as actor_name,
             case when a.actor = 'system' then 'system' when u.id is not null or a.actor like 'pricer:%' then 'pricer'
                  else 'trader' end as actor_kind,
             a.action, a.payload::text as payload, a.created_at
        from audit_log a
        left join pricer_users u
          on u.id = case when a.actor ~ '^pricer:[0-9]{1,9}$' then substr(a.actor, 8)::integer end
         and u.tenant_id = a.tenant_id
        left join traders tr on tr.id = a.actor;
  `.execute(db);
}
