/**
 * Every production view definition and every view row type held to the live database (PGlite and PostgreSQL: a
 * *.db.test.ts runs in both vitest projects). The ViewDefs are found, not listed: every `ViewDef` exported by a
 * capability's views.ts. The row types of platform/db/schema.ts are listed below, typed from `DB` itself, so a
 * row type and this list cannot drift apart without `tsc` failing, and this list and the database cannot drift
 * apart without this test failing.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Selectable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../platform/db/database';
import type { DB } from '../platform/db/schema';
import { checkViewDef, type ViewDef } from '../platform/views/engine';
import { SQL_OBJECTS } from '.';

type Base<T> = T extends number
  ? 'number'
  : T extends string
    ? 'text'
    : T extends Date
      ? 'date'
      : T extends boolean
        ? 'boolean'
        : 'json';
/** What a column holds as the row type says: its kind, `?` when it may be null. */
type KindOf<T> = null extends T ? `${Base<NonNullable<T>>}?` : Base<T>;
type ViewName = Extract<keyof DB, `v_${string}`>;
type RowKinds = { [V in ViewName]: { [K in keyof Selectable<DB[V]>]-?: KindOf<Selectable<DB[V]>[K]> } };

const ROW_TYPES: RowKinds = {
  v_funds_ledger: {
    id: 'number',
    tenant_id: 'number',
    pricer_id: 'number',
    kind: 'text',
    amount: 'number',
    balance_after: 'number',
    note: 'text',
    actor: 'text',
    bank_ref: 'text?',
    checker: 'text?',
    created_at: 'date',
    maker_name: 'text',
    checker_name: 'text?',
  },
  v_orders: {
    id: 'number',
    tenant_id: 'number',
    contract_id: 'number',
    pricer_id: 'number',
    pricer_name: 'text',
    contract_name: 'text',
    instrument_id: 'text',
    direction: 'text',
    volume_orign: 'number',
    volume_traded: 'text',
    limit_price: 'number',
    trade_price: 'number',
    trade_amount: 'number',
    status: 'text',
    status_str: 'text',
    last_msg: 'text',
    created_at: 'date',
    basis: 'number',
    fixed_price: 'number?',
    multiplier: 'number?',
    fixed_amount: 'number?',
    acknowledged_at: 'date?',
    turnover: 'number',
    unit: 'text?',
    conditional_order_id: 'number?',
  },
  v_contracts: {
    id: 'number',
    tenant_id: 'number',
    name: 'text',
    pricer_id: 'number',
    pricer_name: 'text',
    product_name: 'text',
    instrument_id: 'text',
    direction: 'text',
    total_quantity: 'number',
    remaining_quantity: 'number',
    executed_quantity: 'number',
    frozen_quantity: 'number',
    avg_price: 'number',
    status: 'text',
    created_at: 'date',
    basis: 'number',
    fixing_deadline: 'text?',
    avg_fixed_price: 'number?',
    multiplier: 'number?',
    margin_rate: 'number',
    settled_quantity: 'number',
    unit: 'text?',
    pricing_mode: 'text',
    average_start: 'text?',
    average_end: 'text?',
    rolled_from: 'number?',
    rolled_out_quantity: 'number',
    fees: 'number',
    average_basis: 'text?',
  },
  v_instruments: {
    symbol: 'text',
    name: 'text',
    product_name: 'text',
    exchange_id: 'text',
    price_tick: 'number',
    volume_multiple: 'number',
  },
  v_conditional_orders: {
    id: 'number',
    tenant_id: 'number',
    contract_id: 'number',
    pricer_id: 'number',
    pricer_name: 'text?',
    contract_name: 'text?',
    instrument_id: 'text',
    direction: 'text',
    quantity: 'number',
    trigger_op: 'text',
    trigger_price: 'number',
    order_price: 'number',
    expires_at: 'date',
    status: 'text',
    status_str: 'text',
    order_id: 'number?',
    trigger_last_price: 'number?',
    triggered_at: 'date?',
    last_msg: 'text',
    created_at: 'date',
    updated_at: 'date',
    order_status: 'text?',
    order_volume_traded: 'number?',
  },
  v_confirmations: {
    order_id: 'number',
    tenant_id: 'number',
    pricer_id: 'number',
    contract_id: 'number',
    confirmation_no: 'text',
    company_name: 'text',
    pricer_name: 'text',
    pricer_full_name: 'text',
    contract_name: 'text',
    product_name: 'text',
    instrument_id: 'text',
    instrument_name: 'text?',
    direction: 'text',
    lots: 'number',
    futures_price: 'number',
    basis: 'number',
    fixed_price: 'number',
    multiplier: 'number?',
    amount: 'number?',
    fixed_at: 'date',
    ordered_at: 'date',
    status: 'text',
    acknowledged_at: 'date?',
    unit: 'text?',
    fixed_by: 'text?',
    average_basis: 'text?',
  },
  v_roll_applications: {
    id: 'number',
    tenant_id: 'number',
    pricer_id: 'number',
    pricer_name: 'text?',
    contract_id: 'number',
    contract_name: 'text?',
    direction: 'text',
    from_instrument_id: 'text',
    to_instrument_id: 'text',
    quantity: 'number',
    multiplier: 'number?',
    unit: 'text?',
    basis: 'number',
    status: 'text',
    status_str: 'text',
    spread: 'number?',
    fee_per_unit: 'number?',
    fee: 'number?',
    valid_until: 'date?',
    priced_by: 'text?',
    priced_at: 'date?',
    accepted_at: 'date?',
    to_contract_id: 'number?',
    created_at: 'date',
  },
};

/** A column's SQL type as a row type's kind (a view's columns carry no NOT NULL: nullability is the row type's word). */
const KIND_OF_SQL: Record<string, string> = {
  smallint: 'number',
  integer: 'number',
  bigint: 'number',
  numeric: 'number',
  'double precision': 'number',
  text: 'text',
  'character varying': 'text',
  'timestamp with time zone': 'date',
  boolean: 'boolean',
  jsonb: 'json',
};

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
  await migrate(db, { sqlObjects: SQL_OBJECTS });
});
afterAll(() => db.destroy());

/** Every ViewDef a capability's views.ts exports. */
async function productionViewDefs(): Promise<ViewDef[]> {
  const modules = path.dirname(fileURLToPath(import.meta.url));
  const defs: ViewDef[] = [];
  for (const dir of readdirSync(modules, { withFileTypes: true })) {
    if (!dir.isDirectory() || !readdirSync(path.join(modules, dir.name)).includes('views.ts')) continue;
    const exported = (await import(`./${dir.name}/views.ts`)) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      const v = value as Partial<ViewDef> | null;
      if (v && typeof v === 'object' && typeof v.relation === 'string' && v.columns && v.defaultSort)
        defs.push(v as ViewDef);
    }
  }
  return defs;
}

it('every production view definition and every view row type matches the live database', async () => {
  const defs = await productionViewDefs();
  expect(defs.map((d) => d.name)).toEqual(
    expect.arrayContaining([
      'audit-log',
      'conditional-orders',
      'contracts',
      'products',
      'instruments',
      'users',
      'funds-ledger',
      'webhook-deliveries',
      'orders',
    ]),
  );
  for (const def of defs)
    expect({ view: def.name, problems: await checkViewDef(db, def) }).toEqual({ view: def.name, problems: [] });

  for (const [relation, kinds] of Object.entries(ROW_TYPES)) {
    const { rows } = await sql<{ column_name: string; data_type: string }>`
      select column_name, data_type from information_schema.columns
       where table_schema = current_schema() and table_name = ${relation} order by ordinal_position`.execute(db);
    const live = Object.fromEntries(rows.map((r) => [r.column_name, KIND_OF_SQL[r.data_type] ?? r.data_type]));
    const declared = Object.fromEntries(Object.entries(kinds).map(([k, kind]) => [k, String(kind).replace('?', '')]));
    expect({ relation, columns: live }).toEqual({ relation, columns: declared });
  }
});
