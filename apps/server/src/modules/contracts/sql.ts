import { view } from '../../platform/db/sqlObjects';
import type { SqlObject } from '../../platform/db/sqlObjects';

/** The contracts' SQL objects (applied after the migrations: platform/db/sqlObjects.ts). */
export const CONTRACTS_SQL: readonly SqlObject[] = [
  /**
   * The contracts as the trader lists them (views.ts contractsView). avg_fixed_price = the lot-weighted average of
   * the fixed prices of the executed lots, which is avg_price + basis because every order of a contract carries
   * the contract's (immutable) basis; NULL before the first fill. Dates are 'YYYY-MM-DD' text (a calendar day has
   * no time zone).
   */
  view(
    'v_contracts',
    `
    select c.id, c.tenant_id, c.name, c.pricer_id, coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_name, c.product_name, c.instrument_id,
           c.direction, c.total_quantity, c.remaining_quantity, c.executed_quantity, c.frozen_quantity,
           c.avg_price, c.status, c.created_at,
           c.basis,
           to_char(c.fixing_deadline, 'YYYY-MM-DD') as fixing_deadline,
           case when c.executed_quantity > 0 then c.avg_price + c.basis end as avg_fixed_price,
           i.volume_multiple as multiplier,
           c.margin_rate,
           c.settled_quantity,
           i.unit,
           c.pricing_mode,
           to_char(c.average_start, 'YYYY-MM-DD') as average_start,
           to_char(c.average_end, 'YYYY-MM-DD') as average_end,
           c.rolled_from,
           c.rolled_out_quantity,
           c.fees,
           case when c.pricing_mode = 'average' then c.average_basis end as average_basis
      from contracts c
      join pricer_users u on u.id = c.pricer_id
      left join instruments i on i.symbol = c.instrument_id
  `,
  ),
  /** The catalogue's live instruments, as the contract form picks from them (views.ts instrumentsView). */
  view(
    'v_instruments',
    `
    select symbol, name, product_name, exchange_id, price_tick, volume_multiple from instruments where not expired
  `,
  ),
];
