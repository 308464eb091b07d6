import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Database } from '../platform/db/database';
import { openEmptyDatabase, openMigratedDatabase } from '../../test/db';
import { SQL_OBJECTS } from '../modules';
import { basisSchema, isPastDeadline, shanghaiToday } from '../modules/contracts/fixingTerms';
import { seedCatalogue } from './catalogue';
import { readAccounts } from '../modules/margin/accounts';
import { DEMO_IDENTITY, hintFirstTrader, NO_TRADER_HINT, seedDemo } from './demo';

let db: Database;
beforeAll(async () => {
  db = await openMigratedDatabase();
  await seedCatalogue(db);
});
afterAll(() => db.destroy());

/** Days from a to b, both 'YYYY-MM-DD'. */
const daysBetween = (a: string, b: string) =>
  (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

describe('the first start without the demo (issue 30)', () => {
  it('tells the operator how to add a trader while there is none, and is quiet once there is one', async () => {
    const said: string[] = [];
    const log = { warn: (m: string) => said.push(m) };
    await db.deleteFrom('traders').execute();
    expect(await hintFirstTrader(db, log)).toBe(true);
    expect(said).toEqual([NO_TRADER_HINT]);
    expect(NO_TRADER_HINT).toContain('pnpm trader:add');
    await db.insertInto('traders').values({ username: 'alice', password_hash: 'x' }).execute();
    expect(await hintFirstTrader(db, log)).toBe(false);
    expect(said).toHaveLength(1);
    await db.deleteFrom('traders').execute();
  });
});

/** The market at seeding: 白糖 (CZCE.SR…) at 5,900, nothing else priced. */
const SUGAR_AT_5900 = (symbol: string) => (symbol.startsWith('CZCE.SR') ? 5_900 : undefined);

describe('demo data', () => {
  it('seeds basis and deadlines that make sense for each product, and one expired contract', async () => {
    expect(await seedDemo(db, SUGAR_AT_5900)).toBe(true);
    expect(await seedDemo(db, SUGAR_AT_5900)).toBe(false);
    const rows = await db
      .selectFrom('contracts')
      .innerJoin('instruments', 'instruments.symbol', 'contracts.instrument_id')
      .select(['contracts.product_name', 'basis', 'fixing_deadline', 'status', 'instruments.price_tick'])
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const today = shanghaiToday();
    const ranges: Record<string, [number, number]> = {
      螺纹钢: [30, 80],
      豆粕: [-20, 60],
      铜: [-200, 200],
    };
    for (const r of rows) {
      expect(basisSchema.safeParse(r.basis).success, `${r.product_name} ${r.basis}`).toBe(true);
      const range = ranges[r.product_name];
      if (range) {
        expect(r.basis).toBeGreaterThanOrEqual(range[0]);
        expect(r.basis).toBeLessThanOrEqual(range[1]);
      }
      expect(r.fixing_deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const expired = rows.filter((r) => r.status === 'expired');
    expect(expired).toHaveLength(1);
    expect(isPastDeadline(expired[0]!.fixing_deadline)).toBe(true);
    for (const r of rows.filter((x) => x.status !== 'expired')) {
      const days = daysBetween(today, r.fixing_deadline!);
      expect(days, `${r.product_name} ${r.fixing_deadline}`).toBeGreaterThanOrEqual(7);
      expect(days).toBeLessThanOrEqual(93);
    }
  });

  it('gives pricer2 money and margin (docs/margin.md), close to a margin call; pricer1 none', async () => {
    const accounts = await db
      .selectFrom('pricer_accounts')
      .innerJoin('pricer_users', 'pricer_users.id', 'pricer_accounts.pricer_id')
      .select(['pricer_users.username', 'pricer_users.tenant_id', 'balance', 'credit_line'])
      .execute();
    // 30 lots of 白糖 (10 t) fixed at 5,900, basis +50, 10 %: margin (5,900 + 50) × 30 × 10 × 0.1 = 178,500;
    // deposits 1.08 × 178,500 − 50,000 = 142,780 → 143,000 (whole thousands).
    expect(accounts.map(({ tenant_id: _, ...a }) => a)).toEqual([
      { username: 'pricer2', balance: 143_000, credit_line: 50_000 },
    ]);
    const ledger = await db.selectFrom('funds_ledger').select(['amount', 'balance_after']).orderBy('id').execute();
    expect(ledger).toEqual([{ amount: 143_000, balance_after: 143_000 }]);
    const tenantId = accounts[0]!.tenant_id;
    const at = async (price: number) =>
      (await readAccounts(db, { tenantId }, (s) => (s.startsWith('CZCE.SR') ? price : undefined))).find(
        // Named by 客户全称 (issue 41).
        (a) => a.pricer_name === DEMO_IDENTITY.pricer2.full_name,
      );
    // At the seeding price: available 14,500, 8.1 % of the margin held, no call.
    expect(await at(5_900)).toMatchObject({
      margin_required: 178_500,
      floating_pnl: 0,
      available: 14_500,
      margin_call: false,
    });
    // 白糖 50 lower (0.85 %): a loss of 50 × 30 × 10 = 15,000 puts pricer2 in a call of 500.
    expect(await at(5_850)).toMatchObject({
      floating_pnl: -15_000,
      available: -500,
      margin_call: true,
      call_amount: 500,
    });
    const fixedOrders = await db.selectFrom('orders').select(['status', 'volume_traded', 'trade_price']).execute();
    expect(fixedOrders).toEqual([{ status: 'FINISHED', volume_traded: 30, trade_price: 5_900 }]);
    const rates = await db
      .selectFrom('contracts')
      .innerJoin('pricer_users', 'pricer_users.id', 'contracts.pricer_id')
      .select(['pricer_users.username', 'contracts.margin_rate'])
      .execute();
    for (const r of rates) expect(r.margin_rate).toBe(r.username === 'pricer2' ? 0.1 : 0);
  });
});

describe('two servers starting together on a fresh database (the ha profile)', () => {
  it('seed the demo once: one seeds, the other finds it', async () => {
    // A database of its own (on PostgreSQL the file's database is seeded above).
    const fresh = await openEmptyDatabase();
    try {
      await migrate(fresh, { sqlObjects: SQL_OBJECTS });
      await seedCatalogue(fresh);
      const seeded = await Promise.all([seedDemo(fresh), seedDemo(fresh), seedDemo(fresh)]);
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const tenants = await fresh.selectFrom('tenants').select('id').execute();
      expect(tenants).toHaveLength(1);
    } finally {
      await fresh.destroy();
    }
  });
});
