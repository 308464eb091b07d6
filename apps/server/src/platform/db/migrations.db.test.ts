import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openEmptyDatabase } from '../../../test/db';
import { migrate, type Database } from './database';

let db: Database;
beforeAll(async () => {
  db = await openEmptyDatabase();
});
afterAll(() => db.destroy());

it('008 sums the fills every contract already had into traded_amount', async () => {
  await migrate(db, { to: '007_conditional_orders' });
  const tenant = await sql<{ id: number }>`
    insert into tenants (owner_sub, company_name, is_sim) values ('sub-008', '迁移公司', true) returning id`.execute(
    db,
  );
  const t = tenant.rows[0]!.id;
  const pricer = await sql<{ id: number }>`
    insert into pricer_users (tenant_id, username, password_hash) values (${t}, 'mia', 'x') returning id`.execute(db);
  const p = pricer.rows[0]!.id;
  const contract = async (name: string) =>
    (
      await sql<{ id: number }>`
        insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                               remaining_quantity, executed_quantity, status)
        values (${t}, ${name}, ${p}, '铜', 'SHFE.cu2601', 'BUY', 10, 7, 3, 'active') returning id`.execute(db)
    ).rows[0]!.id;
  const [withFills, without] = [await contract('有成交'), await contract('无成交')];
  const order = (
    await sql<{ id: number }>`
      insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, volume_traded, status)
      values (${t}, ${withFills}, ${p}, 'SHFE.cu2601', 'BUY', 3, 3, 'FINISHED') returning id`.execute(db)
  ).rows[0]!.id;
  for (const [tradeId, volume, price] of [
    ['A', 1, 68010.5],
    ['B', 2, 68020.25],
  ] as const) {
    await sql`insert into trades (tenant_id, order_id, trade_id, volume, price)
              values (${t}, ${order}, ${tradeId}, ${volume}, ${price})`.execute(db);
  }
  await migrate(db);
  const rows = await sql<{ id: number; traded_amount: number }>`
    select id, traded_amount from contracts where id in (${withFills}, ${without}) order by id`.execute(db);
  // 68010.5 + 2 × 68020.25 = 204051
  expect(rows.rows.map((r) => Number(r.traded_amount))).toEqual([204051, 0]);
});
