import { view, type SqlObject } from '../../platform/db/sqlObjects';

/** The lifecycle's SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const LIFECYCLE_SQL: readonly SqlObject[] = [
  /**
   * The customers' 转月 applications as the trader and the desk list them (views.ts), with the status as
   * of the read: a priced offer past valid_until reads expired (the accept refuses it by the same rule).
   */
  view(
    'v_roll_applications',
    `
    select r.id, r.tenant_id, r.pricer_id, u.username as pricer_name, r.contract_id, c.name as contract_name,
           c.direction, c.instrument_id as from_instrument_id, r.to_instrument_id, r.quantity,
           i.volume_multiple as multiplier, i.unit, c.basis,
           case when r.status = 'priced' and r.valid_until <= now() then 'expired' else r.status end as status,
           case when r.status = 'accepted' then '已转月'
                when r.status = 'pending' then '待报价'
                when r.valid_until <= now() then '报价已过期'
                else '已报价，待客户确认' end as status_str,
           r.spread, r.fee_per_unit,
           round(r.fee_per_unit * r.quantity * i.volume_multiple, 2) as fee,
           r.valid_until, r.priced_by, r.priced_at, r.accepted_at, r.to_contract_id, r.created_at
      from roll_applications r
      join contracts c on c.id = r.contract_id
      left join pricer_users u on u.id = r.pricer_id
      left join instruments i on i.symbol = r.to_instrument_id
  `,
  ),
];
