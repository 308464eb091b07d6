import { valueFigures, type ContractValue, type ContractValues, type CustomerValue } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import type { LastPriceOf } from './market';

/**
 * What every contract and customer is worth (issue 41 §2, docs/margin.md "Value"), with or without a
 * margin rate: the fixed, not yet settled lots at their fixed price (average futures fill + basis) and at
 * the live futures price + basis, and the floating P/L between them — a buyer gains (market − fixed
 * futures) × lots × multiplier, a seller the opposite (the basis cancels). Read-only: nothing is marked.
 */

const fen = (v: number) => Math.round(v * 100) / 100;
const num = (v: unknown) => Number(v ?? 0);

interface Row {
  contract_id: number;
  contract_name: string;
  pricer_id: number;
  pricer_name: string;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  margin_rate: number | string;
  multiplier: number | string;
  unit: string | null;
  open_lots: number | string;
  basis: number | string;
  avg_price: number | string;
}

export function valueOf(r: Row, lastPrice: LastPriceOf): ContractValue {
  const terms = {
    direction: r.direction,
    open_lots: num(r.open_lots),
    multiplier: num(r.multiplier),
    basis: num(r.basis),
    avg_price: num(r.avg_price),
  };
  return {
    contract_id: r.contract_id,
    contract_name: r.contract_name,
    pricer_id: r.pricer_id,
    pricer_name: r.pricer_name,
    product_name: r.product_name,
    instrument_id: r.instrument_id,
    margin_rate: num(r.margin_rate),
    unit: r.unit,
    ...terms,
    ...valueFigures(terms, lastPrice(r.instrument_id) ?? null),
  };
}

/** A customer's contracts summed; one without a live price counts at its fixed value with no P/L. */
export function customersOf(items: ContractValue[], names: Map<number, string>): CustomerValue[] {
  const out = new Map<number, CustomerValue>();
  for (const [id, name] of names) {
    out.set(id, {
      pricer_id: id,
      pricer_name: name,
      open_lots: 0,
      fixed_value: 0,
      market_value: 0,
      floating_pnl: 0,
      unpriced_contracts: 0,
    });
  }
  for (const v of items) {
    const c = out.get(v.pricer_id);
    if (!c) continue;
    c.open_lots += v.open_lots;
    c.fixed_value = fen(c.fixed_value + v.fixed_value);
    c.market_value = fen(c.market_value + (v.market_value ?? v.fixed_value));
    c.floating_pnl = fen(c.floating_pnl + (v.floating_pnl ?? 0));
    if (v.open_lots > 0 && v.market_value === null) c.unpriced_contracts += 1;
  }
  return [...out.values()];
}

/**
 * The contracts that are open (active, paused) or still hold fixed, not yet settled lots, of a company or
 * one customer, and every customer of the scope (a customer without such contracts reads 0).
 */
export async function contractValues(
  db: Kysely<DB>,
  scope: { tenantId: number; pricerId?: number | undefined },
  lastPrice: LastPriceOf,
): Promise<ContractValues> {
  const pricer = scope.pricerId === undefined ? sql`true` : sql`u.id = ${scope.pricerId}::integer`;
  const [{ rows }, customers] = await Promise.all([
    sql<Row>`
      select c.id as contract_id, c.name as contract_name, c.pricer_id,
             coalesce(nullif(u.full_name, ''), u.username) as pricer_name, c.product_name, c.instrument_id,
             c.direction, c.margin_rate, coalesce(i.volume_multiple, 1) as multiplier, i.unit,
             c.executed_quantity - c.settled_quantity as open_lots, c.basis, c.avg_price
        from contracts c
        join pricer_users u on u.id = c.pricer_id
        left join instruments i on i.symbol = c.instrument_id
       where c.tenant_id = ${scope.tenantId}::integer and ${pricer}
         and (c.status in ('active', 'paused') or c.executed_quantity > c.settled_quantity)
       order by c.pricer_id, c.id`.execute(db),
    db
      .selectFrom('pricer_users')
      .select(['id', sql<string>`coalesce(nullif(full_name, ''), username)`.as('name')])
      .where('tenant_id', '=', scope.tenantId)
      .$if(scope.pricerId !== undefined, (q) => q.where('id', '=', scope.pricerId ?? 0))
      .orderBy('id')
      .execute(),
  ]);
  const items = rows.map((r) => valueOf(r, lastPrice));
  return { items, customers: customersOf(items, new Map(customers.map((c) => [c.id, c.name]))) };
}
