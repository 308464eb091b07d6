import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openEmptyDatabase } from '../../../test/db';
import { migrate, type Database } from '../../platform/db/database';

/*
 * Migration 030 (docs/authorised-pricers.md): every customer that existed before becomes its own first
 * authorised person — active, primary (the customer's password), named by 联系人, else 客户全称, else
 * the username — and their orders and 条件单 name that person, so every existing customer keeps fixing.
 */

let db: Database;
beforeAll(async () => {
  db = await openEmptyDatabase();
});
afterAll(() => db.destroy());

it('030 makes every existing customer its own first, active authorised person', async () => {
  await migrate(db, { to: '029_agreements' });
  const t = (
    await sql<{ id: number }>`
      insert into tenants (owner_sub, company_name, is_sim) values ('sub-030', '迁移公司', true) returning id`.execute(
      db,
    )
  ).rows[0]!.id;
  const customer = async (username: string, contact: string | null, full: string | null) =>
    (
      await sql<{ id: number }>`
        insert into pricer_users (tenant_id, username, password_hash, phone, contact_name, full_name)
        values (${t}, ${username}, 'x', '13800138000', ${contact}, ${full}) returning id`.execute(db)
    ).rows[0]!.id;
  const [withContact, withFullName, bare] = [
    await customer('mia', '王经理', '华东铜业'),
    await customer('noa', ' ', '江南饲料'),
    await customer('ola', null, null),
  ];
  const contract = (
    await sql<{ id: number }>`
      insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                             remaining_quantity, executed_quantity, status)
      values (${t}, '旧合同', ${withContact}, '铜', 'SHFE.cu2601', 'BUY', 10, 10, 0, 'active') returning id`.execute(db)
  ).rows[0]!.id;
  await sql`
    insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, status)
    values (${t}, ${contract}, ${withContact}, 'SHFE.cu2601', 'BUY', 1, 'FINISHED')`.execute(db);

  await migrate(db);

  const persons = await db
    .selectFrom('authorised_pricers')
    .select(['id', 'pricer_id', 'name', 'username', 'phone', 'is_primary', 'active', 'password_hash'])
    .orderBy('pricer_id')
    .execute();
  expect(persons.map(({ id: _, ...p }) => p)).toEqual([
    {
      pricer_id: withContact,
      name: '王经理',
      username: 'mia',
      phone: '13800138000',
      is_primary: true,
      active: true,
      password_hash: null,
    },
    {
      pricer_id: withFullName,
      name: '江南饲料',
      username: 'noa',
      phone: '13800138000',
      is_primary: true,
      active: true,
      password_hash: null,
    },
    {
      pricer_id: bare,
      name: 'ola',
      username: 'ola',
      phone: '13800138000',
      is_primary: true,
      active: true,
      password_hash: null,
    },
  ]);
  const order = await db.selectFrom('orders').select('authorised_pricer_id').executeTakeFirstOrThrow();
  expect(order.authorised_pricer_id).toBe(persons[0]!.id);
});
