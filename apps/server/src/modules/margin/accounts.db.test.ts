import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { seedMarginBook } from '../../../test/trading/marginBook';
import { seedInstruments, seedTenant, withTradingTestDb } from '../../../test/trading/testSupport';
import { accountRows, readAccounts } from './accounts';

/*
 * The accounts view with 1,000 customers, each with an account, a contract with a margin rate, fixed lots
 * and an open order, plus 100 waiting 条件单: one set-based read answers every one of them right. Its cost
 * (issue 31 §7: p99 ≤ 50 ms) is measured by bench/accounts.bench.ts, not here.
 */

const CU = 'SHFE.cu2601';
const AU = 'SHFE.au2602';
let db: Database;
let tenantId: number;
withTradingTestDb((opened) => (db = opened));

beforeAll(async () => {
  await seedInstruments(db, [CU, AU]);
  tenantId = (await seedTenant(db)).tenantId;
  await seedMarginBook(db, tenantId, CU);
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

describe('what holds margin, said twice', () => {
  it('sums the same in the fixing’s check (v_margin_sums) as in the accounts view, row by row', async () => {
    // A mix for 5 customers: sales, settled lots, market and limit orders, ended orders, 条件单 at market
    // and at a price, another month, a contract without a rate.
    for (const statement of [
      sql`insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                                 executed_quantity, settled_quantity, frozen_quantity, remaining_quantity, avg_price,
                                 traded_amount, status, basis, margin_rate)
          select tenant_id, 'mix' || id || m, id, '铜', case when m = 1 then ${AU} else ${CU} end,
                 case when m = 2 then 'SELL' else 'BUY' end, 30, 10, m, 4, 16, 81000 + m * 10, 810000,
                 'active', -50 * m, case when m = 3 then 0 else 0.05 * (m + 1) end
            from pricer_users, generate_series(1, 3) m
           where tenant_id = ${tenantId}::integer and username in ('p1', 'p2', 'p3', 'p4', 'p5')`,
      sql`insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, volume_traded,
                              limit_price, basis, status, last_msg)
          select c.tenant_id, c.id, c.pricer_id, c.instrument_id, c.direction, 3, s.traded, s.price, c.basis, s.status, ''
            from contracts c
            cross join (values (0, 0, 'PENDING'), (1, 79500, 'ALIVE'), (2, 0, 'ALIVE'), (1, 79000, 'FINISHED'),
                               (0, 78000, 'CANCELLED')) s(traded, price, status)
           where c.tenant_id = ${tenantId}::integer and c.name like 'mix%'`,
      sql`insert into conditional_orders (tenant_id, contract_id, pricer_id, instrument_id, direction, quantity,
                                          trigger_op, trigger_price, order_price, expires_at, status)
          select c.tenant_id, c.id, c.pricer_id, c.instrument_id, c.direction, 2, '>=', 82000, s.price,
                 now() + interval '1 day', s.status
            from contracts c cross join (values (0, 'WAITING'), (82010, 'WAITING'), (0, 'CANCELLED')) s(price, status)
           where c.tenant_id = ${tenantId}::integer and c.name like 'mix%'`,
    ])
      await statement.execute(db);
    const key = (pricer: number, instrument: string) => `${pricer} ${instrument}`;
    const view = new Map<string, number[]>();
    // (an instrument's open market orders come apart per basis: summed here as the check sums them)
    for (const a of await accountRows(db, { tenantId }))
      for (const s of a.sums) {
        const sums = [s.priced, s.at_market, s.at_market_basis, s.net_lots, s.net_value];
        const seen = view.get(key(a.pricer_id, s.instrument_id));
        view.set(key(a.pricer_id, s.instrument_id), seen ? seen.map((v, i) => v + sums[i]!) : sums);
      }
    const { rows } = await sql<Record<string, string | number>>`
      select pricer_id, instrument_id, sum(priced) as priced, sum(at_market) as at_market,
             sum(at_market_basis) as at_market_basis, sum(net_lots) as net_lots, sum(net_value) as net_value
        from v_margin_sums where tenant_id = ${tenantId}::integer group by pricer_id, instrument_id`.execute(db);
    const check = new Map(
      rows.map((r) => [
        key(Number(r.pricer_id), String(r.instrument_id)),
        [r.priced, r.at_market, r.at_market_basis, r.net_lots, r.net_value].map(Number),
      ]),
    );
    expect(check.size).toBeGreaterThanOrEqual(1005); // the 1,000 customers and p1…p5's gold
    expect([...check.keys()].sort()).toEqual([...view.keys()].sort());
    for (const [k, sums] of check)
      expect(
        sums.map((v) => v.toFixed(4)),
        k,
      ).toEqual(view.get(k)!.map((v) => v.toFixed(4)));
  });
});
