/**
 * Test support for the view engine tests (imported by *.test.ts only): a real database and a seed.
 *
 * The test file's migrated database (test/db.ts): PGlite in memory, or in the postgres project the
 * file's own copy of the run's template.
 */
import { sql } from 'kysely';
import type { Database } from '../../src/platform/db/database';
import type { OrderStatus } from '../../src/platform/db/schema';
import { contractsView } from '../../src/modules/contracts/views';
import { ORDER_COLUMNS, ordersView } from '../../src/modules/orders/views';
import { defineView, type ViewDef } from '../../src/platform/views/engine';
import { openMigratedDatabase } from '../db';

export interface TestDatabase {
  db: Database;
  /** 'pglite' or 'postgres'. */
  kind: string;
  close: () => Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const db = await openMigratedDatabase();
  return { db, kind: process.env.DATABASE_URL ? 'postgres' : 'pglite', close: () => db.destroy() };
}

export interface SeedOrder {
  id: number;
  tenant_id: number;
  contract_id: number;
  pricer_id: number;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  volume_orign: number;
  volume_traded: number;
  limit_price: number;
  status: OrderStatus;
  last_msg: string;
  created_at: Date;
}

export interface SeedContract {
  id: number;
  tenant_id: number;
  pricer_id: number;
  name: string;
  status: 'active' | 'paused' | 'expired' | 'completed';
  total_quantity: number;
}

export interface Seed {
  tenantA: number;
  tenantB: number;
  /** Empty tenant with one pricer and one contract, for the fuzz round-trip rows. */
  tenantC: number;
  pricers: { alice: number; bob: number; carol: number; dave: number };
  contractC: number;
  contracts: SeedContract[];
  orders: SeedOrder[];
}

/** Values the escaping tests look for; the decoys match them only if `%`, `_` or `\` were wildcards. */
export const TRICKY = `it's 50% off_x \\c`;
export const DECOYS = ['500 units offAx', 'no quotes but c here', 'plain'];

const STATUSES: OrderStatus[] = ['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED'];
const INSTRUMENTS = ['cu2405', 'al2406', 'zn2407'];

/**
 * Three tenants, four pricers, seven contracts, 60 orders (50 in tenant A, 10 in tenant B). Order created_at
 * values step by 5 hours from 2024-04-28T00:00Z, so several fall on each Shanghai calendar day.
 */
export async function seed(db: Database): Promise<Seed> {
  const tenant = async (sub: string) =>
    (
      await db
        .insertInto('tenants')
        .values({ owner_sub: sub, company_name: `公司 ${sub}`, is_sim: sub !== 'b' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const tenantA = await tenant('a');
  const tenantB = await tenant('b');
  const tenantC = await tenant('c');
  const pricer = async (tenant_id: number, username: string) =>
    (
      await db
        .insertInto('pricer_users')
        .values({ tenant_id, username, password_hash: 'x', status: 'active' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const pricers = {
    alice: await pricer(tenantA, 'alice'),
    bob: await pricer(tenantA, 'bob'),
    carol: await pricer(tenantB, 'carol'),
    dave: await pricer(tenantC, 'dave'),
  };

  const contractSpecs: Omit<SeedContract, 'id'>[] = [
    { tenant_id: tenantA, pricer_id: pricers.alice, name: '铜合约一', status: 'active', total_quantity: 10 },
    { tenant_id: tenantA, pricer_id: pricers.alice, name: '铜合约二', status: 'active', total_quantity: 20 },
    { tenant_id: tenantA, pricer_id: pricers.bob, name: '铝合约', status: 'paused', total_quantity: 30 },
    { tenant_id: tenantA, pricer_id: pricers.bob, name: '锌合约', status: 'completed', total_quantity: 40 },
    { tenant_id: tenantA, pricer_id: pricers.alice, name: 'expired one', status: 'expired', total_quantity: 5 },
    { tenant_id: tenantB, pricer_id: pricers.carol, name: '别家的合约', status: 'active', total_quantity: 1000 },
    { tenant_id: tenantC, pricer_id: pricers.dave, name: 'fuzz', status: 'active', total_quantity: 1 },
  ];
  const contracts: SeedContract[] = [];
  for (const spec of contractSpecs) {
    const row = await db
      .insertInto('contracts')
      .values({
        ...spec,
        product_name: '铜',
        instrument_id: 'cu2405',
        direction: 'BUY',
        remaining_quantity: spec.total_quantity,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    contracts.push({ ...spec, id: row.id });
  }
  const contractsA = contracts.filter((c) => c.tenant_id === tenantA);
  const contractB = contracts.find((c) => c.tenant_id === tenantB) as SeedContract;
  const contractC = (contracts.find((c) => c.tenant_id === tenantC) as SeedContract).id;

  const base = Date.UTC(2024, 3, 28, 0, 0, 0);
  const orders: SeedOrder[] = [];
  for (let i = 0; i < 60; i++) {
    const inA = i < 50;
    const contract = inA ? (contractsA[i % contractsA.length] as SeedContract) : contractB;
    const volume_orign = (i % 5) + 1;
    const spec = {
      tenant_id: contract.tenant_id,
      contract_id: contract.id,
      pricer_id: contract.pricer_id,
      instrument_id: INSTRUMENTS[i % 3] as string,
      direction: i % 2 === 0 ? ('BUY' as const) : ('SELL' as const),
      volume_orign,
      volume_traded: i % 3 === 0 ? volume_orign : 0,
      limit_price: i % 7 === 0 ? 0 : 3000 + i * 10.5,
      status: STATUSES[i % 4] as OrderStatus,
      last_msg: i === 5 ? TRICKY : i === 6 || i === 7 || i === 8 ? (DECOYS[i - 6] as string) : `消息 ${i}`,
      created_at: new Date(base + i * 5 * 3600_000),
    };
    const { created_at, ...values } = spec;
    const row = await db.insertInto('orders').values(values).returning('id').executeTakeFirstOrThrow();
    // A raw update: it does not depend on how the schema types timestamp columns for writes.
    await sql`update orders set created_at = ${created_at.toISOString()}::timestamptz where id = ${row.id}`.execute(db);
    orders.push({ ...spec, id: Number(row.id) });
  }
  return { tenantA, tenantB, tenantC, pricers, contractC, contracts, orders };
}

/**
 * The trader's orders view (domain/views.ts), plus what only the engine's tests need: volume_traded
 * cast to a number (v_orders has it as text) and a boolean expression column.
 */
export const ordersDef: ViewDef = defineView({
  ...ordersView,
  columns: {
    ...ORDER_COLUMNS,
    volume_traded: { type: 'number', sql: sql`volume_traded::integer` },
    is_market: { type: 'boolean', sql: sql`(limit_price = 0)` },
  },
  searchColumns: ['contract_name', 'instrument_id', 'last_msg'],
});

/** The trader's contracts view (v_contracts), searched by name only. */
export const contractsDef: ViewDef = defineView({ ...contractsView, searchColumns: ['name'] });

/** A plain table with a real boolean column and a nullable text column; no `id` tiebreaker on purpose. */
export const tenantsDef: ViewDef = defineView({
  name: 'tenants',
  relation: 'tenants',
  columns: {
    owner_sub: { type: 'text' },
    company_name: { type: 'text' },
    is_sim: { type: 'boolean' },
    broker_name: { type: 'text' },
  },
  defaultSort: [{ field: 'owner_sub', ascending: true }],
});
