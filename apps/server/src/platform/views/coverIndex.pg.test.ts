import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersView } from '../../modules/orders/views';
import { openTestDatabase, seed, type TestDatabase } from '../../../test/views/testSupport';
import { planView } from './engine';

/**
 * The orders view's expensive answers — a filtered page's total_count and the group-by-status stats — can be read
 * from orders_tenant_status_cover alone (migrations 004, 010), never from one heap page per order: every column of
 * orders their plans touch is in that index. A join added to v_orders whose key the index lacked silently turned
 * them into heap scans 10× slower (006 did: PostgreSQL drops the unread join but still has the scan produce its
 * key); this fails then, whatever plan the planner picks for a table this small.
 */
let t: TestDatabase;
let tenant = 0;
let covered: string[] = [];
beforeAll(async () => {
  t = await openTestDatabase();
  tenant = (await seed(t.db)).tenantA;
  const cols = await sql<{ attname: string }>`
    select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indexrelid = 'orders_tenant_status_cover'::regclass`.execute(t.db);
  covered = cols.rows.map((r) => r.attname);
});
afterAll(() => t.close());

/** The columns of orders (alias o in v_orders) the query's plan reads, from EXPLAIN VERBOSE. */
async function ordersColumnsRead(body: unknown): Promise<string[]> {
  const p = planView(ordersView, body, { tenant_id: tenant });
  const q = (p.countQuery ?? p.query).compile(t.db);
  const { rows } = await t.db.executeQuery<{ 'QUERY PLAN': string }>({ ...q, sql: `explain (verbose) ${q.sql}` });
  const text = rows.map((r) => r['QUERY PLAN']).join('\n');
  expect(text).toMatch(/ on (\w+\.)?orders o\b/);
  return [...new Set([...text.matchAll(/\bo\.(\w+)/g)].map((m) => m[1]!))].sort();
}

describe('orders view: counts and stats from the covering index', () => {
  it.each([
    [
      'a filtered page’s total_count',
      { filter: "status in ['FINISHED','CANCELLED'] and pricer_name contains 'a'", slice_start: 0, slice_end: 1 },
    ],
    [
      'the group-by-status stats',
      {
        group_by_fields: ['status'],
        aggregate_fields: [
          { field: 'id', op: 'count' },
          { field: 'trade_amount', op: 'sum' },
        ],
      },
    ],
  ])('%s', async (_, body) => {
    const read = await ordersColumnsRead(body);
    expect(read).toContain('status');
    expect(read.filter((c) => !covered.includes(c))).toEqual([]);
  });
});
