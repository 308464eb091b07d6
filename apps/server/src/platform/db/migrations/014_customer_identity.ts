import { sql, type Kysely } from 'kysely';

/**
 * The customer's legal identity and their confirm-sheet setting (issue 29, docs/fixing.md).
 *
 * - pricer_users.full_name (客户全称, the legal name a confirmation and a statement print) and
 *   contact_name (联系人); NULL until the trader fills them in (prints fall back to the username).
 * - pricer_users.confirm_before_fix: the desk shows the confirm sheet before every fix; the trader may
 *   switch it off for an experienced customer. Default on, so no existing customer loses the sheet.
 * - v_confirmations: 013's definition with `pricer_full_name` = full_name, or the username when empty,
 *   appended.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table pricer_users add column full_name text;
    alter table pricer_users add column contact_name text;
    alter table pricer_users add column confirm_before_fix boolean not null default true;

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
             ack.acknowledged_at, i.unit,
             coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_full_name
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
