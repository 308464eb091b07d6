import { sql } from 'kysely';
import type { ViewDef } from '../../platform/views/engine';
import { FINANCIAL_PRODUCTS } from './commodity';

/** The contracts as the trader lists them, and the catalogue the contract form picks from. */

export const contractsView: ViewDef = {
  name: 'contracts',
  relation: 'v_contracts',
  columns: {
    id: { type: 'number' },
    name: { type: 'text' },
    pricer_id: { type: 'number' },
    pricer_name: { type: 'text' },
    product_name: { type: 'text' },
    instrument_id: { type: 'text' },
    direction: { type: 'text' },
    total_quantity: { type: 'number' },
    remaining_quantity: { type: 'number' },
    executed_quantity: { type: 'number' },
    frozen_quantity: { type: 'number' },
    avg_price: { type: 'number' },
    status: { type: 'text' },
    created_at: { type: 'date' },
    basis: { type: 'number' },
    fixing_deadline: { type: 'text' },
    avg_fixed_price: { type: 'number' },
    multiplier: { type: 'number' },
    margin_rate: { type: 'number' },
    settled_quantity: { type: 'number' },
    unit: { type: 'text' },
    // issue 32 (docs/fixing.md)
    pricing_mode: { type: 'text' },
    average_start: { type: 'text' },
    average_end: { type: 'text' },
    rolled_from: { type: 'number' },
    rolled_out_quantity: { type: 'number' },
    fees: { type: 'number' },
    // issue 43: 均价依据 (null for a point contract)
    average_basis: { type: 'text' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['name', 'pricer_name', 'product_name', 'instrument_id'],
};

export const productsView: ViewDef = {
  name: 'products',
  relation: 'products',
  columns: {
    id: { type: 'number' },
    name: { type: 'text' },
    exchange_id: { type: 'text' },
    product_id: { type: 'text' },
    /**
     * A commodity future (issue 29, commodity.ts): a physical price-fixing contract is offered only on
     * these, never on index or bond futures. The names are the catalogue's constants (literals, not input).
     */
    commodity: {
      type: 'boolean',
      sql: sql`not (name in (${sql.join(FINANCIAL_PRODUCTS.map((n) => sql.lit(n)))}))`,
    },
  },
  defaultSort: [{ field: 'id', ascending: true }],
  searchColumns: ['name', 'product_id'],
};

export const instrumentsView: ViewDef = {
  name: 'instruments',
  relation: 'v_instruments',
  columns: {
    symbol: { type: 'text' },
    name: { type: 'text' },
    product_name: { type: 'text' },
    exchange_id: { type: 'text' },
    price_tick: { type: 'number' },
    volume_multiple: { type: 'number' },
  },
  defaultSort: [{ field: 'symbol', ascending: true }],
  searchColumns: ['symbol', 'name'],
};
