import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { seedInstruments, seedTenant, withTradingTestDb } from '../../../test/trading/testSupport';
import { readAccounts } from './accounts';

/*
 * The accounts view with 1,000 customers, each with an account, a contract with a margin rate, fixed lots
 * and an open order, plus 100 waiting 条件单: one set-based read answers every one of them right. Its cost
 * (issue 31 §7: p99 ≤ 50 ms) is measured by bench/accounts.bench.ts, not here.
 */

const CU = 'SHFE.cu2601';
let db: Database;
let tenantId: number;
withTradingTestDb((opened) => (db = opened));

beforeAll(async () => {
  await seedInstruments(db, [CU]);
  tenantId = (await seedTenant(db)).tenantId;
  for (const statement of [
    sql`insert into pricer_users (tenant_id, username, password_hash, phone, status)
    select ${tenantId}::integer, 'p' || g, 'x', null, 'active' from generate_series(1, 1000) g`,
    sql`insert into pricer_accounts (pricer_id, tenant_id, balance, credit_line)
    select id, tenant_id, 500000, 100000 from pricer_users where tenant_id = ${tenantId}::integer`,
    sql`insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                           executed_quantity, frozen_quantity, remaining_quantity, avg_price, traded_amount,
                           status, basis, margin_rate)
    select tenant_id, 'c' || id, id, '铜', ${CU}, 'BUY', 20, 5, 1, 14, 80000, 400000, 'active', 150, 0.1
      from pricer_users where tenant_id = ${tenantId}::integer`,
    sql`insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, limit_price,
                        basis, status, last_msg)
    select tenant_id, id, pricer_id, instrument_id, direction, 1, 79000, 150, 'ALIVE', ''
      from contracts where tenant_id = ${tenantId}::integer`,
    sql`insert into conditional_orders (tenant_id, contract_id, pricer_id, instrument_id, direction, quantity,
                                    trigger_op, trigger_price, order_price, expires_at, status)
    select tenant_id, id, pricer_id, instrument_id, direction, 1, '<=', 70000, 0, now() + interval '1 day', 'WAITING'
      from contracts where tenant_id = ${tenantId}::integer order by id limit 100`,
    sql`analyze`,
  ])
    await statement.execute(db);
});

describe('the accounts view with 1,000 customers', () => {
  it('answers every customer, marked to the market, in one read', async () => {
    const lastPrice = () => 78_000;
    const first = await readAccounts(db, { tenantId }, lastPrice);
    expect(first.filter((a) => /^p\d+$/.test(a.pricer_name))).toHaveLength(1000);
    // (80,000 + 150) × 5 × 5 × 0.1 + (79,000 + 150) × 5 × 0.1 [+ (70,000 + 150) × 5 × 0.1 for 100 of them]
    expect(first.map((a) => a.margin_required)).toContain(200_375 + 39_575);
    expect(first.find((a) => a.pricer_name === 'p1')).toMatchObject({ floating_pnl: -50_000, margin_call: false });
    // Summed per customer and instrument in SQL, the same figures as row by row (arithmetic.ts).
    const p1 = first.find((a) => a.pricer_name === 'p1')!;
    expect(p1).toMatchObject({ balance: 500_000, credit_line: 100_000 });
    expect(p1.available).toBeCloseTo(500_000 + 100_000 - p1.margin_required - 50_000, 2);
  });
});
