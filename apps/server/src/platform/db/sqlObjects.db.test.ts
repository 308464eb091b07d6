/**
 * The views, functions and triggers applied after the migrations (sqlObjects.ts), on PGlite and PostgreSQL: an
 * existing database upgrades to the same objects, a start with nothing changed does nothing, and a change is
 * applied whole or not at all.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SQL_OBJECTS } from '../../modules';
import { openEmptyDatabase } from '../../../test/db';
import { migrate, type Database } from './database';
import { applySqlObjects, view } from './sqlObjects';

/** A database migrated to 021 by the code before issue 39, when the migrations still created these objects. */
const DATABASE_021 = readFileSync(new URL('../../../test/fixtures/database-021.sql', import.meta.url), 'utf8');

let db: Database;
beforeAll(async () => {
  // Not a copy of the run's migrated template: the 021 database is loaded into an empty one.
  db = await openEmptyDatabase();
});
afterAll(() => db.destroy());

/** The schema's views, functions and triggers: name → the database's own text of it, and its oid. */
async function definitions() {
  const { rows } = await sql<{ name: string; def: string; oid: string }>`
    select c.relname::text as name, pg_get_viewdef(c.oid) as def, c.oid::text as oid
      from pg_class c where c.relkind = 'v' and c.relnamespace = current_schema()::regnamespace
    union all
    select p.proname::text, pg_get_functiondef(p.oid), p.oid::text
      from pg_proc p where p.pronamespace = current_schema()::regnamespace
    union all
    select t.tgname::text, pg_get_triggerdef(t.oid), t.oid::text
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal`.execute(db);
  return {
    text: Object.fromEntries(rows.map((r) => [r.name, r.def])),
    oid: Object.fromEntries(rows.map((r) => [r.name, r.oid])),
  };
}

const versionOf = async (pricerId: number) =>
  Number(
    (
      await sql<{ v: string | null }>`
        select sum(version) as v from pricer_data_versions where pricer_id = ${pricerId}`.execute(db)
    ).rows[0]?.v ?? 0,
  );

it('a database migrated to 021 before issue 39 starts with the new code: the same objects, recreated, and they work', async () => {
  await sql.raw(DATABASE_021).execute(db);
  const t = (
    await sql<{ id: number }>`
      insert into tenants (owner_sub, company_name) values ('sub-021', '升级公司') returning id`.execute(db)
  ).rows[0]!.id;
  const p = (
    await sql<{ id: number }>`
      insert into pricer_users (tenant_id, username, password_hash, status) values (${t}, 'lin', 'x', 'active')
      returning id`.execute(db)
  ).rows[0]!.id;
  // A roll made before 028 took its lots out of the old contract's total (4 left of 20, 16 rolled out).
  const rolled = (
    await sql<{ id: number }>`
      insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                             remaining_quantity, rolled_out_quantity)
      values (${t}, '转月前合同', ${p}, '铜', 'SHFE.cu2601', 'BUY', 4, 4, 16) returning id`.execute(db)
  ).rows[0]!.id;
  const before = await definitions();
  // Objects new after 021 (issue 42's v_funds_ledger and v_roll_applications): their tables are not there at 021.
  const NEW = ['v_funds_ledger', 'v_roll_applications'];
  expect(Object.keys(before.text).sort()).toEqual(
    SQL_OBJECTS.map((o) => o.name)
      .filter((n) => !NEW.includes(n))
      .sort(),
  );

  // 022 (issue 40) changed the margin check's view and function; 027 (issue 42) added staff and approvals;
  // 028 (issue 42) the lots invariant; the others add tables only.
  expect(await migrate(db, { sqlObjects: SQL_OBJECTS })).toEqual([
    '022_money_locks',
    '023_margin_defaults',
    '025_fee_receivables',
    '027_staff_approvals',
    '028_roll_applications',
    '029_agreements',
    '030_authorised_pricers',
    '031_average_basis',
    '032_roll_auto_pricing',
  ]);
  // The company from before roles: its owner is its staff member with every role (docs/roles.md).
  const staff = await sql<{ trader_sub: string; roles: string[]; status: string }>`
    select trader_sub, roles, status from staff where tenant_id = ${t}`.execute(db);
  expect(staff.rows).toEqual([
    { trader_sub: 'sub-021', roles: ['admin', 'trader', 'risk', 'finance', 'viewer'], status: 'active' },
  ]);
  // …and the old contract's agreed total is back: 4 unfixed + 16 rolled out.
  expect(
    (await sql<{ total_quantity: number }>`select total_quantity from contracts where id = ${rolled}`.execute(db))
      .rows[0],
  ).toEqual({ total_quantity: 20 });

  const after = await definitions();
  // …and issue 41 names customers by 客户全称 in the lists (the login while it is empty).
  const NAMED = ['v_audit_log', 'v_conditional_orders', 'v_contracts', 'v_orders'];
  // …and issue 43 names the 点价人 and the 均价依据 on every confirmation.
  const CHANGED = ['margin_check', 'v_margin_sums', 'v_confirmations', ...NEW, ...NAMED];
  const but = (text: Record<string, string>) =>
    Object.fromEntries(Object.entries(text).filter(([name]) => !CHANGED.includes(name)));
  expect(but(after.text)).toEqual(but(before.text));
  expect(after.text.margin_check).toContain('p_conditional');
  expect(after.text.v_margin_sums).toContain('margin_price');
  for (const name of Object.keys(before.oid))
    expect({ name, oid: after.oid[name] }).not.toEqual({ name, oid: before.oid[name] });

  // The views read, the data-version triggers raise, the ledger refuses a change, the margin check answers.
  await sql`insert into products (exchange_id, product_id, name) values ('SHFE', 'cu', '铜')`.execute(db);
  await sql`insert into instruments (symbol, name, exchange_id, product_id, product_name, price_tick, volume_multiple)
            values ('SHFE.cu2601', '沪铜2601', 'SHFE', 'cu', '铜', 10, 5)`.execute(db);
  const c = (
    await sql<{ id: number }>`
      insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                             remaining_quantity)
      values (${t}, '升级合同', ${p}, '铜', 'SHFE.cu2601', 'BUY', 10, 10) returning id`.execute(db)
  ).rows[0]!.id;
  const afterContract = await versionOf(p);
  expect(afterContract).toBeGreaterThan(0);
  await sql`insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, status)
            values (${t}, ${c}, ${p}, 'SHFE.cu2601', 'BUY', 2, 'ALIVE')`.execute(db);
  expect(await versionOf(p)).toBeGreaterThan(afterContract);
  const order = (
    await sql<Record<string, unknown>>`
      select pricer_name, contract_name, status_str, multiplier from v_orders where tenant_id = ${t}`.execute(db)
  ).rows;
  expect(order).toEqual([{ pricer_name: 'lin', contract_name: '升级合同', status_str: '执行中', multiplier: 5 }]);
  const beforeNotice = await versionOf(p);
  await sql`insert into notifications (tenant_id, audience, pricer_id, kind, title, body)
            values (${t}, 'pricer', ${p}, 'test', '通知', '内容')`.execute(db);
  expect(await versionOf(p)).toBeGreaterThan(beforeNotice);
  await sql`insert into funds_ledger (tenant_id, pricer_id, kind, amount, balance_after, actor)
            values (${t}, ${p}, 'deposit', 100, 100, 'trader')`.execute(db);
  await expect(sql`update funds_ledger set amount = 1`.execute(db)).rejects.toThrow(/append-only/);
  const check = await sql<{ ok: boolean }>`
    select margin_check(${t}, ${p}, ${c}, 1, 68000, '{}'::jsonb) as ok`.execute(db);
  expect(check.rows).toEqual([{ ok: false }]);
}, 90_000); // two schemas' worth of DDL: PGlite on a busy machine takes its time

it('a start with nothing changed changes nothing; a view dropped by hand is put back', async () => {
  const before = await definitions();
  expect(await applySqlObjects(db, SQL_OBJECTS)).toEqual({ applied: false });
  expect((await definitions()).oid).toEqual(before.oid);

  await sql`drop view v_audit_log`.execute(db);
  expect(await applySqlObjects(db, SQL_OBJECTS)).toEqual({ applied: true });
  expect((await definitions()).text).toEqual(before.text);
});

it('an object that leaves the list is dropped; a definition that fails changes nothing', async () => {
  const before = await definitions();
  const probe = view('v_probe', 'select id from tenants');
  expect(await applySqlObjects(db, [...SQL_OBJECTS, probe])).toEqual({ applied: true });
  expect(Object.keys((await definitions()).text)).toContain('v_probe');
  expect(await applySqlObjects(db, SQL_OBJECTS)).toEqual({ applied: true });
  expect((await definitions()).text).toEqual(before.text);

  const settled = await definitions();
  await expect(applySqlObjects(db, [...SQL_OBJECTS, view('v_broken', 'select nothing from nowhere')])).rejects.toThrow(
    /nowhere/,
  );
  expect(await definitions()).toEqual(settled);
  expect(await applySqlObjects(db, SQL_OBJECTS)).toEqual({ applied: false });
});

it('refuses a list that defines a name twice', async () => {
  await expect(applySqlObjects(db, [...SQL_OBJECTS, view('v_orders', 'select 1 as one')])).rejects.toThrow(
    /v_orders is defined twice/,
  );
});
