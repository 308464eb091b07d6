import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViewCache } from './cache';
import { defineView, runView } from './engine';
import { openTestDatabase, type TestDatabase } from '../../../test/views/testSupport';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await sql`create table cache_rows (id integer primary key, tenant_id integer not null, status text not null)`.execute(
    t.db,
  );
  // Tenant 1: 30 rows (10 per status); tenant 2: 3 rows.
  await sql`insert into cache_rows select g, 1, (array['A','B','C'])[1 + g % 3] from generate_series(1, 30) g`.execute(
    t.db,
  );
  await sql`insert into cache_rows values (101, 2, 'A'), (102, 2, 'B'), (103, 2, 'C')`.execute(t.db);
});
afterAll(() => t.close());

const def = defineView({
  name: 'cache_rows',
  relation: 'cache_rows',
  columns: { id: { type: 'number' }, status: { type: 'text' } },
  defaultSort: [{ field: 'id', ascending: false }],
});
const PAGE = { slice_start: 0, slice_end: 5 };
const STATS = { group_by_fields: ['status'], aggregate_fields: [{ field: 'id', op: 'count' }] };

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const insert = (id: number, tenant: number, status: string) =>
  sql`insert into cache_rows values (${id}, ${tenant}, ${status})`.execute(t.db);

describe('ViewCache with runView', () => {
  it('keeps a big total and big stats for ttlMs, then answers fresh', async () => {
    const c = clock();
    const cache = new ViewCache({ ttlMs: 5000, minRows: 20, now: c.now });
    const scope = { tenant_id: 1 };
    const page = await runView(t.db, def, PAGE, scope, { cache });
    const stats = await runView(t.db, def, STATS, scope, { cache });
    expect(page.total_count).toBe(30);
    expect(stats.items).toEqual([
      { status: 'A', count_id: 10 },
      { status: 'B', count_id: 10 },
      { status: 'C', count_id: 10 },
    ]);
    expect(cache.size).toBe(2);

    await insert(31, 1, 'A');
    c.advance(4999);
    // Within the interval: the kept total and stats (the page rows themselves are always read).
    const cachedPage = await runView(t.db, def, PAGE, scope, { cache });
    expect(cachedPage.total_count).toBe(30);
    expect(cachedPage.items[0]).toEqual({ id: 31, status: 'A' });
    expect(await runView(t.db, def, STATS, scope, { cache })).toEqual(stats);
    // Other filters and other tenants are other keys.
    expect((await runView(t.db, def, { ...PAGE, filter: "status = 'A'" }, scope, { cache })).total_count).toBe(11);

    c.advance(1);
    expect((await runView(t.db, def, PAGE, scope, { cache })).total_count).toBe(31);
    expect((await runView(t.db, def, STATS, scope, { cache })).items[0]).toEqual({ status: 'A', count_id: 11 });
    await sql`delete from cache_rows where id = 31`.execute(t.db);
  });

  it('never keeps an answer with fewer than minRows rows behind it, nor one tenant’s answer for another', async () => {
    const c = clock();
    const cache = new ViewCache({ ttlMs: 5000, minRows: 20, now: c.now });
    const small = { tenant_id: 2 };
    expect((await runView(t.db, def, { slice_start: 0, slice_end: 2 }, small, { cache })).total_count).toBe(3);
    expect((await runView(t.db, def, STATS, small, { cache })).items).toHaveLength(3);
    expect(cache.size).toBe(0);
    await insert(104, 2, 'A');
    expect((await runView(t.db, def, { slice_start: 0, slice_end: 2 }, small, { cache })).total_count).toBe(4);
    expect((await runView(t.db, def, STATS, small, { cache })).items[0]).toEqual({ status: 'A', count_id: 2 });

    await runView(t.db, def, STATS, { tenant_id: 1 }, { cache });
    expect((await runView(t.db, def, STATS, small, { cache })).items[0]).toEqual({ status: 'A', count_id: 2 });
    await sql`delete from cache_rows where id = 104`.execute(t.db);
  });

  it('is bounded: the oldest answers go first', () => {
    const cache = new ViewCache({ ttlMs: 5000, minRows: 1, maxEntries: 2 });
    cache.offer('a', 1, 1);
    cache.offer('b', 2, 1);
    cache.offer('c', 3, 1);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([undefined, 2, 3, 2]);
  });
});
