import { view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The fixing's SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const FIXING_SQL: readonly SqlObject[] = [
  /**
   * 点价确认单 (confirmations.ts): one per order with at least one filled lot. Its number carries the Beijing date
   * of the first fill and the order id; fixed_at is the last fill (a partly filled live order's confirmation grows
   * with its fills). The lateral lookup uses trades' (order_id, trade_id) index. pricer_full_name: the customer's
   * legal name, or the username while it is empty.
   */
  view(
    'v_confirmations',
    `
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
           coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_full_name,
           ap.name as fixed_by,
           case when af.order_id is not null then c.average_basis end as average_basis
      from orders o
      cross join lateral (select min(tr.created_at) as first_at, max(tr.created_at) as last_at
                            from trades tr where tr.order_id = o.id) f
      join tenants t on t.id = o.tenant_id
      join pricer_users u on u.id = o.pricer_id
      join contracts c on c.id = o.contract_id
      left join instruments i on i.symbol = o.instrument_id
      left join confirmation_acks ack on ack.order_id = o.id
      left join authorised_pricers ap on ap.id = o.authorised_pricer_id
      left join average_fixings af on af.order_id = o.id and af.contract_id = o.contract_id
     where o.volume_traded > 0
  `,
  ),
];
