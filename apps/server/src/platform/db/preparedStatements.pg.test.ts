/**
 * Named prepared statements on a real PostgreSQL (preparedStatements.ts, wired in resilience.ts):
 * what the server's connections hold, that answers stay right, and what happens when a statement's
 * columns change under it.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineView, runView } from '../views/engine';
import { openDatabase } from './database';
import { PLANNED_PER_CALL } from './preparedStatements';

let db: Kysely<any>;
beforeAll(async () => {
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' });
  await sql`create table prep_items (id integer primary key, label text not null)`.execute(db);
  await sql`insert into prep_items select g, 'item ' || g from generate_series(1, 50) g`.execute(db);
});
afterAll(async () => {
  await db.destroy();
});

const preparedHere = async (conn: Kysely<any>) =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn)).rows.map(
    (r) => r.statement,
  );

it('a query sent a third time on a connection is a named statement there, with the right answer every time', async () => {
  await db.connection().execute(async (conn) => {
    const labels: string[] = [];
    for (const id of [3, 17, 42, 8]) {
      const row = await conn.selectFrom('prep_items').select('label').where('id', '=', id).executeTakeFirstOrThrow();
      labels.push(row.label as string);
    }
    expect(labels).toEqual(['item 3', 'item 17', 'item 42', 'item 8']);
    const prepared = await preparedHere(conn);
    expect(prepared).toEqual([expect.stringMatching(/^select "label" from "prep_items" where "id" = \$1$/)]);
  });
});

it('a statement without parameters is never named', async () => {
  await db.connection().execute(async (conn) => {
    for (let i = 0; i < 4; i++) await sql`select count(*) from prep_items`.execute(conn);
    expect((await preparedHere(conn)).filter((s) => s.includes('count(*)'))).toEqual([]);
  });
});

it('the view engine’s statements are never named: each is planned for its own filter', async () => {
  const items = defineView({
    name: 'prep_items',
    relation: 'prep_items',
    columns: { id: { type: 'number' }, label: { type: 'text' } },
    defaultSort: [{ field: 'id', ascending: true }],
  });
  await db.connection().execute(async (conn) => {
    for (const text of ['1', '2', '3', '4']) {
      const page = await runView(conn, items, { filter: `label contains '${text}'`, slice_start: 0, slice_end: 2 }, {});
      expect(page.items.every((i) => String(i.label).includes(text))).toBe(true);
    }
    expect((await preparedHere(conn)).filter((s) => s.includes(PLANNED_PER_CALL))).toEqual([]);
  });
});

it('when a migration adds a column under a named `select *`, that query fails once, its connection is replaced, and the next answers with the new column', async () => {
  const byId = (conn: Kysely<any>, id: number) => conn.selectFrom('prep_items').selectAll().where('id', '=', id);
  await db.connection().execute(async (conn) => {
    for (const id of [1, 2, 3]) await byId(conn, id).executeTakeFirstOrThrow();
    expect(await preparedHere(conn)).toContainEqual(expect.stringContaining('select * from "prep_items"'));
    await sql`alter table prep_items add column note text not null default '备注'`.execute(db);
    await expect(byId(conn, 4).execute()).rejects.toThrow(/cached plan must not change result type/);
  });
  // The closed connection is not handed out again: the very next query answers, with the new column.
  expect(await byId(db, 5).executeTakeFirst()).toEqual({ id: 5, label: 'item 5', note: '备注' });
});
