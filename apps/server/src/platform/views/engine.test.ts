import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../http/errors';
import { checkViewDef, defineView, planView, runView, type ViewDef, type ViewResult } from './engine';
import { ViewError } from './errors';
import { quoteFilterValue } from './filter';
import {
  contractsDef,
  DECOYS,
  openTestDatabase,
  ordersDef,
  seed,
  tenantsDef,
  TRICKY,
  type Seed,
  type SeedOrder,
  type TestDatabase,
} from '../../../test/views/testSupport';

let t: TestDatabase;
let s: Seed;

beforeAll(async () => {
  t = await openTestDatabase();
  s = await seed(t.db);
});
afterAll(() => t?.close());

const scopeA = () => ({ tenant_id: s.tenantA });
const view = (body: unknown, def: ViewDef = ordersDef, scope: Record<string, string | number> = scopeA()) =>
  runView(t.db, def, body, scope);
const ids = (r: ViewResult) => r.items.map((i) => i.id);
const ordersA = () => s.orders.filter((o) => o.tenant_id === s.tenantA);
/** Ids in the default order (id desc). */
const idsOf = (orders: SeedOrder[]) => orders.map((o) => o.id).sort((a, b) => b - a);
/** The calendar day of an instant in Asia/Shanghai (UTC+8 all year since 1991). */
const shanghaiDay = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

async function rejected(promise: Promise<unknown>): Promise<ViewError> {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ViewError);
  const ve = e as ViewError;
  expect(ve.kind).toBe('invalid');
  expect(ve.code).toBe('invalid_input');
  expect(ve.message).toMatch(/[\u4e00-\u9fff]/); // a Chinese message
  return ve;
}

/** Runs a filter on tenant A's orders and checks the ids (default order) and total against `expected`. */
async function expectFilter(filter: string, expected: (o: SeedOrder) => boolean) {
  const want = idsOf(ordersA().filter(expected));
  const r = await view({ filter });
  expect(ids(r)).toEqual(want);
  expect(r.total_count).toBe(want.length);
  const paged = await view({ filter, slice_start: 0, slice_end: 3 });
  expect(ids(paged)).toEqual(want.slice(0, 3));
  expect(paged.total_count).toBe(want.length);
  return r;
}

describe('rows', () => {
  it('answers the white-listed columns only, newest first, numbers as numbers', async () => {
    const r = await view({});
    expect(r.total_count).toBe(50);
    expect(ids(r)).toEqual(idsOf(ordersA()));
    const first = r.items[0] as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(Object.keys(ordersDef.columns));
    expect(first).not.toHaveProperty('tenant_id');
    const o = ordersA().at(-1) as SeedOrder;
    expect(first).toMatchObject({
      id: o.id,
      volume_traded: o.volume_traded,
      limit_price: o.limit_price,
      last_msg: o.last_msg,
      is_market: o.limit_price === 0,
    });
    expect(first.created_at).toBeInstanceOf(Date);
    expect((first.created_at as Date).getTime()).toBe(o.created_at.getTime());
  });

  it('ignores unknown body keys and null params (the caller’s own view params)', async () => {
    const r = await view({
      contract_id: 1,
      start_date: '2020-01-01',
      tenant_id: s.tenantB,
      filter: null,
      sort_fields: null,
    });
    expect(r.total_count).toBe(50);
    expect(await view(undefined)).toEqual(r);
    expect(await view(null)).toEqual(r);
  });
});

describe('filter', () => {
  it("text = 'value' and in [...]", async () => {
    await expectFilter("status = 'ALIVE'", (o) => o.status === 'ALIVE');
    await expectFilter("status in ['ALIVE', 'PENDING']", (o) => o.status === 'ALIVE' || o.status === 'PENDING');
    await expectFilter("status = 'alive'", () => false); // equality is exact
    await expectFilter("pricer_name = 'bob'", (o) => o.pricer_id === s.pricers.bob);
  });

  it('number = n and in [...], integers, fractions and beyond int4', async () => {
    const [o1, o2] = ordersA() as [SeedOrder, SeedOrder];
    await expectFilter(`id = ${o1.id}`, (o) => o.id === o1.id);
    await expectFilter(`id in [${o1.id}, ${o2.id}, 999999]`, (o) => o.id === o1.id || o.id === o2.id);
    await expectFilter('volume_orign = 3', (o) => o.volume_orign === 3);
    await expectFilter('volume_orign in [1, 5]', (o) => o.volume_orign === 1 || o.volume_orign === 5);
    await expectFilter('limit_price = 3010.5', (o) => o.limit_price === 3010.5);
    await expectFilter('limit_price in [0, 3010.5, 3021]', (o) => [0, 3010.5, 3021].includes(o.limit_price));
    await expectFilter('volume_orign = 2.5', () => false);
    await expectFilter('id = 3000000000', () => false);
    await expectFilter('id = -1e300', () => false);
    await expectFilter('volume_orign = 3e0', (o) => o.volume_orign === 3);
  });

  it('number filters work on a def expression (volume_traded is text in v_orders, cast by the def)', async () => {
    await expectFilter('volume_traded = 0', (o) => o.volume_traded === 0);
    await expectFilter('volume_traded in [2, 4]', (o) => o.volume_traded === 2 || o.volume_traded === 4);
  });

  it('is true / is false on an expression column and on a plain boolean column', async () => {
    await expectFilter('is_market is true', (o) => o.limit_price === 0);
    await expectFilter('is_market IS FALSE', (o) => o.limit_price !== 0);
    const sims = await view({ filter: 'is_sim is true' }, tenantsDef, {});
    expect(sims.items.map((i) => i.owner_sub)).toEqual(['a', 'c']);
    const real = await view({ filter: 'is_sim is false' }, tenantsDef, {});
    expect(real.items).toEqual([{ owner_sub: 'b', company_name: '公司 b', is_sim: false, broker_name: null }]);
  });

  it('contains is a case-insensitive substring match', async () => {
    await expectFilter(
      "contract_name contains '铜合约'",
      (o) => o.contract_id === s.contracts[0]?.id || o.contract_id === s.contracts[1]?.id,
    );
    await expectFilter("instrument_id contains 'CU'", (o) => o.instrument_id.startsWith('cu'));
    await expectFilter("last_msg contains ''", () => true);
  });

  it("date = 'YYYY-MM-DD' is that calendar day in Asia/Shanghai", async () => {
    // Orders start at 2024-04-28T00:00Z = 08:00 in Shanghai, 5 hours apart: 0, 5, 10, 15 h are the 28th there;
    // 20 h (2024-04-28T20:00Z) is already the 29th in Shanghai though still the 28th in UTC.
    const r = await expectFilter("created_at = '2024-04-28'", (o) => shanghaiDay(o.created_at) === '2024-04-28');
    expect(r.total_count).toBe(4);
    await expectFilter("created_at = '2024-04-29'", (o) => shanghaiDay(o.created_at) === '2024-04-29');
    await expectFilter("created_at in ['2024-04-28', '2024-05-01']", (o) =>
      ['2024-04-28', '2024-05-01'].includes(shanghaiDay(o.created_at)),
    );
    await expectFilter("created_at = '2024-04-27'", () => false);
  });

  it('ANDs conditions', async () => {
    await expectFilter(
      "status in ['ALIVE','FINISHED'] and direction = 'BUY' and volume_orign in [1,2,3] and is_market is false",
      (o) =>
        (o.status === 'ALIVE' || o.status === 'FINISHED') &&
        o.direction === 'BUY' &&
        o.volume_orign <= 3 &&
        o.limit_price !== 0,
    );
  });

  it('in [] matches no rows', async () => {
    await expectFilter('status in []', () => false);
    await expectFilter("id in [] and status = 'ALIVE'", () => false);
  });

  it('escapes quotes, backslashes, % and _ (a LIKE wildcard never leaks)', async () => {
    const tricky = (o: SeedOrder) => o.last_msg === TRICKY;
    expect(DECOYS).toContain('500 units offAx');
    await expectFilter(`last_msg = ${quoteFilterValue(TRICKY)}`, tricky);
    await expectFilter("last_msg contains '50%'", tricky);
    await expectFilter("last_msg contains 'off_x'", tricky);
    await expectFilter("last_msg contains '\\\\c'", tricky); // the value \c
    await expectFilter("last_msg contains 'it\\'s'", tricky);
    await expectFilter("last_msg contains '%'", tricky);
    await expectFilter("last_msg contains '_'", tricky);
    await expectFilter("last_msg contains '\\\\'", tricky);
    await expectFilter(
      `last_msg in [${quoteFilterValue(TRICKY)}, 'plain']`,
      (o) => tricky(o) || o.last_msg === 'plain',
    );
  });

  it('applies the caller’s created_at day range (options) in Asia/Shanghai, inclusive', async () => {
    const inRange = (o: SeedOrder) =>
      shanghaiDay(o.created_at) >= '2024-04-29' && shanghaiDay(o.created_at) <= '2024-04-30';
    const r = await runView(t.db, ordersDef, {}, scopeA(), { createdFrom: '2024-04-29', createdTo: '2024-04-30' });
    expect(ids(r)).toEqual(idsOf(ordersA().filter(inRange)));
    const from = await runView(t.db, ordersDef, {}, scopeA(), { createdFrom: '2024-05-05' });
    expect(from.total_count).toBe(ordersA().filter((o) => shanghaiDay(o.created_at) >= '2024-05-05').length);
    const e = await rejected(runView(t.db, ordersDef, {}, scopeA(), { createdTo: '2024-02-30' }));
    expect(e.message).toBe('结束日期 2024-02-30 不是有效日期（应为 YYYY-MM-DD）');
  });
});

describe('search', () => {
  it('matches any search column with ILIKE, escaped', async () => {
    const r = await view({ search: ' CU2405 ' });
    expect(ids(r)).toEqual(idsOf(ordersA().filter((o) => o.instrument_id === 'cu2405')));
    expect(ids(await view({ search: '50%' }))).toEqual(idsOf(ordersA().filter((o) => o.last_msg === TRICKY)));
    const both = await view({ search: '铝', filter: "status = 'ALIVE'" });
    expect(ids(both)).toEqual(
      idsOf(ordersA().filter((o) => o.contract_id === s.contracts[2]?.id && o.status === 'ALIVE')),
    );
    expect((await view({ search: '   ' })).total_count).toBe(50);
  });

  it('is refused where the def has no search columns, when too long or with NUL', async () => {
    expect((await rejected(view({ search: 'x' }, tenantsDef, {}))).message).toBe('列表 tenants 不支持搜索');
    expect((await rejected(view({ search: 'x'.repeat(201) }))).message).toBe('搜索内容过长（最多 200 个字符）');
    expect((await rejected(view({ search: 'a\u0000' }))).message).toBe('搜索内容包含无效字符');
  });
});

describe('scope', () => {
  it('never shows another tenant’s rows', async () => {
    const allA = ordersA().map((o) => o.id);
    const b = await view({ filter: `id in [${allA.join(',')}]` }, ordersDef, { tenant_id: s.tenantB });
    expect(b).toEqual({ items: [], total_count: 0 });
    const own = await view({}, ordersDef, { tenant_id: s.tenantB });
    expect(own.total_count).toBe(10);
    expect(ids(own)).toEqual(idsOf(s.orders.filter((o) => o.tenant_id === s.tenantB)));
    const agg = await view({ aggregate_fields: [{ field: 'id', op: 'count' }] }, ordersDef, { tenant_id: s.tenantB });
    expect(agg.items).toEqual([{ count_id: 10 }]);
  });

  it('is not overridable: scope columns are not filterable unless white-listed, and then only ANDed', async () => {
    const e = await rejected(view({ filter: `tenant_id = ${s.tenantB}` }));
    expect(e.message).toBe('不支持按字段 tenant_id 筛选');
    expect(e.field).toBe('tenant_id');
    const withTenant = defineView({ ...ordersDef, columns: { ...ordersDef.columns, tenant_id: { type: 'number' } } });
    expect((await view({ filter: `tenant_id = ${s.tenantB}` }, withTenant)).total_count).toBe(0);
    expect((await view({ filter: `tenant_id in [${s.tenantA}, ${s.tenantB}]` }, withTenant)).total_count).toBe(50);
  });

  it('ANDs every scope column (tenant and pricer)', async () => {
    const r = await view({}, ordersDef, { tenant_id: s.tenantA, pricer_id: s.pricers.bob });
    expect(ids(r)).toEqual(idsOf(ordersA().filter((o) => o.pricer_id === s.pricers.bob)));
    const none = await view({}, ordersDef, { tenant_id: s.tenantB, pricer_id: s.pricers.bob });
    expect(none.total_count).toBe(0);
    const byStatus = await view({}, ordersDef, { tenant_id: s.tenantA, status: 'ALIVE' });
    expect(byStatus.total_count).toBe(ordersA().filter((o) => o.status === 'ALIVE').length);
  });
});

describe('sort', () => {
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = (keys: [keyof SeedOrder, boolean][]) =>
    [...ordersA()]
      .sort((x, y) => {
        for (const [k, asc] of keys) {
          const c = cmp(x[k] as string | number, y[k] as string | number);
          if (c !== 0) return asc ? c : -c;
        }
        return y.id - x.id; // the id desc tiebreaker
      })
      .map((o) => o.id);

  it('sorts by one, two and three fields, then id desc', async () => {
    const one = await view({ sort_fields: [{ field: 'volume_orign', ascending: true }] });
    expect(ids(one)).toEqual(sorted([['volume_orign', true]]));
    const two = await view({
      sort_fields: [
        { field: 'status', ascending: true },
        { field: 'volume_orign', ascending: false },
      ],
    });
    expect(ids(two)).toEqual(
      sorted([
        ['status', true],
        ['volume_orign', false],
      ]),
    );
    const three = await view({
      sort_fields: [
        { field: 'direction', ascending: true },
        { field: 'status', ascending: false },
        { field: 'limit_price', ascending: true },
      ],
      slice_start: 10,
      slice_end: 30,
    });
    expect(ids(three)).toEqual(
      sorted([
        ['direction', true],
        ['status', false],
        ['limit_price', true],
      ]).slice(10, 30),
    );
    expect(three.total_count).toBe(50);
    const byId = await view({ sort_fields: [{ field: 'id', ascending: true }] });
    expect(ids(byId)).toEqual(idsOf(ordersA()).reverse());
  });

  it('sorts by an expression column', async () => {
    const r = await view({ sort_fields: [{ field: 'is_market', ascending: false }] });
    const market = idsOf(ordersA().filter((o) => o.limit_price === 0));
    expect(ids(r).slice(0, market.length)).toEqual(market);
  });

  it('refuses more than 3 fields, unknown and repeated fields', async () => {
    const four = ['id', 'status', 'direction', 'limit_price'].map((field) => ({ field, ascending: true }));
    const e = await rejected(view({ sort_fields: four }));
    expect(e.message).toBe('排序字段最多 3 个');
    expect(e.field).toBe('sort_fields');
    const unknown = await rejected(view({ sort_fields: [{ field: 'tenant_id', ascending: true }] }));
    expect(unknown.message).toBe('不支持按字段 tenant_id 排序');
    expect(unknown.field).toBe('tenant_id');
    const proto = await rejected(view({ sort_fields: [{ field: 'constructor', ascending: true }] }));
    expect(proto.message).toBe('不支持按字段 constructor 排序');
    const twice = await rejected(
      view({
        sort_fields: [
          { field: 'id', ascending: true },
          { field: 'id', ascending: false },
        ],
      }),
    );
    expect(twice.message).toBe('排序字段 id 重复');
  });
});

describe('slice and total_count', () => {
  it('pages through all rows exactly once', async () => {
    const all = ids(await view({}));
    const pages: unknown[] = [];
    for (let start = 0; start < 60; start += 20) {
      const r = await view({ slice_start: start, slice_end: start + 20 });
      expect(r.total_count).toBe(50);
      pages.push(...ids(r));
    }
    expect(pages).toEqual(all);
    expect(await view({ slice_start: 50, slice_end: 70 })).toEqual({ items: [], total_count: 50 });
    expect(await view({ slice_start: 7, slice_end: 7 })).toEqual({ items: [], total_count: 50 });
    expect(ids(await view({ slice_start: 48, slice_end: 1048 }))).toEqual(all.slice(48));
  });

  it('runs the COUNT only when the page cannot tell the total', async () => {
    let queries = 0;
    const counting = t.db.withPlugin({
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const run = async (body: unknown) => {
      queries = 0;
      const r = await runView(counting, ordersDef, body, scopeA());
      return [r.items.length, r.total_count, queries];
    };
    expect(await run({ slice_start: 0, slice_end: 20 })).toEqual([20, 50, 2]); // full page: COUNT
    expect(await run({ slice_start: 40, slice_end: 60 })).toEqual([10, 50, 1]); // short last page
    expect(await run({ slice_start: 60, slice_end: 80 })).toEqual([0, 50, 2]); // past the end: COUNT
    expect(await run({ slice_start: 0, slice_end: 20, filter: 'status in []' })).toEqual([0, 0, 1]);
    expect(await run({ slice_start: 5, slice_end: 5 })).toEqual([0, 50, 2]);
    expect(await run({})).toEqual([50, 50, 1]); // no slice: never counts
    expect(await run({ group_by_fields: ['status'], slice_start: 0, slice_end: 2 })).toEqual([2, 4, 2]);
    expect(await run({ group_by_fields: ['status'], slice_start: 0, slice_end: 20 })).toEqual([4, 4, 1]);
    expect(await run({ aggregate_fields: [{ field: 'id', op: 'count' }] })).toEqual([1, 1, 1]);
  });

  it('builds a request’s SQL once: the same poll again compiles nothing and answers the same', async () => {
    let compiled = 0;
    const counting = t.db.withPlugin({
      transformQuery: (args) => {
        compiled++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const body = { slice_start: 0, slice_end: 20, filter: "status in ['FINISHED','ALIVE']" };
    const first = await runView(counting, ordersDef, body, scopeA());
    expect(compiled).toBeGreaterThan(0); // the page (and its COUNT when the page is full)
    compiled = 0;
    expect(await runView(counting, ordersDef, { ...body }, scopeA())).toEqual(first);
    expect(compiled).toBe(0);
    // Another scope is another request: its own SQL parameters, its own rows.
    const other = await runView(counting, ordersDef, body, { tenant_id: s.tenantB });
    expect(compiled).toBeGreaterThan(0);
    expect(other.items.map((r) => r.id)).not.toEqual(first.items.map((r) => r.id));
  });

  it('counts the filtered rows, not the page', async () => {
    const r = await view({ filter: "status = 'ALIVE'", slice_start: 0, slice_end: 5 });
    expect(r.items).toHaveLength(5);
    expect(r.total_count).toBe(ordersA().filter((o) => o.status === 'ALIVE').length);
  });

  it('refuses bad slices', async () => {
    const cases: [unknown, string, string][] = [
      [{ slice_start: 0 }, '分页参数 slice_start 与 slice_end 必须同时提供', 'slice_end'],
      [{ slice_end: 20 }, '分页参数 slice_start 与 slice_end 必须同时提供', 'slice_start'],
      [{ slice_start: 20, slice_end: 10 }, '分页参数 slice_end 不能小于 slice_start', 'slice_end'],
      [{ slice_start: 0, slice_end: 1001 }, '每页最多 1000 行（slice_end − slice_start）', 'slice_end'],
      [{ slice_start: -1, slice_end: 10 }, '分页参数 slice_start 必须是非负整数', 'slice_start'],
      [{ slice_start: 0.5, slice_end: 10 }, '分页参数 slice_start 必须是非负整数', 'slice_start'],
      [{ slice_start: '0', slice_end: 10 }, '分页参数 slice_start 必须是非负整数', 'slice_start'],
      [{ slice_start: 0, slice_end: 1e300 }, '分页参数 slice_end 必须是非负整数', 'slice_end'],
    ];
    for (const [body, message, field] of cases) {
      const e = await rejected(view(body));
      expect([e.message, e.field]).toEqual([message, field]);
    }
    expect((await view({ slice_start: 0, slice_end: 1000 })).items).toHaveLength(50);
  });

  it('caps unsliced requests at maxRows and slices at maxSlice', async () => {
    const small = defineView({ ...ordersDef, maxRows: 10, maxSlice: 5 });
    const e = await rejected(view({}, small));
    expect(e.message).toBe('结果超过 10 行，请使用 slice_start 与 slice_end 分页');
    expect((await view({ filter: 'volume_orign = 1' }, small)).total_count).toBe(10);
    expect((await rejected(view({ slice_start: 0, slice_end: 6 }, small))).message).toBe(
      '每页最多 5 行（slice_end − slice_start）',
    );
    expect((await view({ slice_start: 0, slice_end: 5 }, small)).total_count).toBe(50);
  });
});

describe('group_by and aggregates', () => {
  const contractsA = () => s.contracts.filter((c) => c.tenant_id === s.tenantA);

  it('groups contracts by status with count of id and sum of total_quantity', async () => {
    const r = await view(
      {
        group_by_fields: ['status'],
        aggregate_fields: [
          { field: 'id', op: 'count' },
          { field: 'total_quantity', op: 'sum' },
        ],
      },
      contractsDef,
    );
    const expected = [...new Set(contractsA().map((c) => c.status))].sort().map((status) => {
      const cs = contractsA().filter((c) => c.status === status);
      return { status, count_id: cs.length, sum_total_quantity: cs.reduce((n, c) => n + c.total_quantity, 0) };
    });
    expect(r.items).toEqual(expected);
    expect(r.total_count).toBe(4);
    expect(expected[0]).toEqual({ status: 'active', count_id: 2, sum_total_quantity: 30 });
  });

  it('sorts and slices groups; total_count is the number of groups', async () => {
    const body = {
      group_by_fields: ['status'],
      aggregate_fields: [{ field: 'total_quantity', op: 'sum' }],
      sort_fields: [{ field: 'sum_total_quantity', ascending: false }],
    };
    const all = await view(body, contractsDef);
    expect(all.items.map((i) => i.sum_total_quantity)).toEqual([40, 30, 30, 5]);
    expect(all.items.map((i) => i.status)).toEqual(['completed', 'active', 'paused', 'expired']); // ties by status
    const page = await view({ ...body, slice_start: 1, slice_end: 3 }, contractsDef);
    expect(page).toEqual({ items: all.items.slice(1, 3), total_count: 4 });
    const byStatus = await view(
      { group_by_fields: ['status'], sort_fields: [{ field: 'status', ascending: false }] },
      contractsDef,
    );
    expect(byStatus.items).toEqual([
      { status: 'paused' },
      { status: 'expired' },
      { status: 'completed' },
      { status: 'active' },
    ]);
  });

  it('groups orders by two fields (one an expression) with avg, min and max', async () => {
    const r = await view({
      filter: "status in ['ALIVE', 'FINISHED']",
      group_by_fields: ['status', 'is_market'],
      aggregate_fields: [
        { field: 'limit_price', op: 'avg' },
        { field: 'volume_orign', op: 'max' },
        { field: 'created_at', op: 'min' },
        { field: 'last_msg', op: 'count' },
      ],
      sort_fields: [{ field: 'count_last_msg', ascending: false }],
      slice_start: 0,
      slice_end: 100,
    });
    const rows = ordersA().filter((o) => o.status === 'ALIVE' || o.status === 'FINISHED');
    const keys = [...new Set(rows.map((o) => `${o.status}|${o.limit_price === 0}`))];
    expect(r.total_count).toBe(keys.length);
    for (const item of r.items) {
      const g = rows.filter((o) => o.status === item.status && (o.limit_price === 0) === item.is_market);
      expect(item.count_last_msg).toBe(g.length);
      expect(item.avg_limit_price as number).toBeCloseTo(g.reduce((n, o) => n + o.limit_price, 0) / g.length, 4);
      expect(item.max_volume_orign).toBe(Math.max(...g.map((o) => o.volume_orign)));
      expect((item.min_created_at as Date).getTime()).toBe(Math.min(...g.map((o) => o.created_at.getTime())));
    }
    const counts = r.items.map((i) => i.count_last_msg as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('aggregates without group_by: one item, total_count 1', async () => {
    const r = await view({
      filter: "status = 'ALIVE'",
      aggregate_fields: [
        { field: 'id', op: 'count' },
        { field: 'volume_orign', op: 'sum' },
        { field: 'volume_traded', op: 'sum' },
        { field: 'limit_price', op: 'avg' },
        { field: 'last_msg', op: 'max' },
        { field: 'limit_price', op: 'min' },
      ],
      slice_start: 0,
      slice_end: 20,
    });
    const rows = ordersA().filter((o) => o.status === 'ALIVE');
    expect(r.total_count).toBe(1);
    expect(r.items).toHaveLength(1);
    const item = r.items[0] as Record<string, number>;
    expect(item.count_id).toBe(rows.length);
    expect(item.sum_volume_orign).toBe(rows.reduce((n, o) => n + o.volume_orign, 0));
    expect(item.sum_volume_traded).toBe(rows.reduce((n, o) => n + o.volume_traded, 0));
    expect(item.avg_limit_price).toBeCloseTo(rows.reduce((n, o) => n + o.limit_price, 0) / rows.length, 4);
    expect(item.min_limit_price).toBe(Math.min(...rows.map((o) => o.limit_price)));
    expect(item.max_last_msg).toBe(
      rows
        .map((o) => o.last_msg)
        .sort()
        .at(-1),
    );
  });

  it('aggregates over no rows: count 0, sum 0, avg/min null', async () => {
    const r = await view({
      filter: 'status in []',
      aggregate_fields: [
        { field: 'id', op: 'count' },
        { field: 'volume_orign', op: 'sum' },
        { field: 'limit_price', op: 'avg' },
        { field: 'created_at', op: 'min' },
      ],
    });
    expect(r).toEqual({
      items: [{ count_id: 0, sum_volume_orign: 0, avg_limit_price: null, min_created_at: null }],
      total_count: 1,
    });
    const grouped = await view({ filter: 'status in []', group_by_fields: ['status'], slice_start: 0, slice_end: 20 });
    expect(grouped).toEqual({ items: [], total_count: 0 });
  });

  it('refuses bad groups and aggregates', async () => {
    const cases: [unknown, string, string | undefined][] = [
      [{ group_by_fields: ['tenant_id'] }, '不支持按字段 tenant_id 分组', 'tenant_id'],
      [{ group_by_fields: ['status', 'status'] }, '分组字段 status 重复', 'status'],
      [{ group_by_fields: ['a', 'b', 'c', 'd', 'e', 'f'] }, '分组字段最多 5 个', 'group_by_fields'],
      [{ group_by_fields: 'status' }, '分组参数 group_by_fields 格式错误，应为字段名数组', 'group_by_fields'],
      [{ aggregate_fields: [{ field: 'tenant_id', op: 'count' }] }, '不支持对字段 tenant_id 聚合', 'tenant_id'],
      [{ aggregate_fields: [{ field: 'status', op: 'sum' }] }, '字段 status 不是数字类型，不能使用 sum', 'status'],
      [
        { aggregate_fields: [{ field: 'created_at', op: 'avg' }] },
        '字段 created_at 不是数字类型，不能使用 avg',
        'created_at',
      ],
      [
        { aggregate_fields: [{ field: 'is_market', op: 'max' }] },
        '字段 is_market 是布尔类型，不能使用 max',
        'is_market',
      ],
      [
        { aggregate_fields: [{ field: 'id', op: 'median' }] },
        '聚合参数 aggregate_fields 格式错误，应为 [{ field: 字段名, op: count/sum/avg/min/max }]（位置：aggregate_fields[0].op）',
        'aggregate_fields',
      ],
      [
        {
          aggregate_fields: [
            { field: 'id', op: 'count' },
            { field: 'id', op: 'count' },
          ],
        },
        '聚合结果 count_id 重复',
        'id',
      ],
      [
        { group_by_fields: ['status'], sort_fields: [{ field: 'id', ascending: true }] },
        '分组查询只能按分组字段或聚合结果排序，不支持 id',
        'id',
      ],
      [
        { aggregate_fields: [{ field: 'id', op: 'count' }], sort_fields: [{ field: 'status', ascending: true }] },
        '聚合查询只能按聚合结果排序，不支持 status',
        'status',
      ],
    ];
    for (const [body, message, field] of cases) {
      const e = await rejected(view(body));
      expect([e.message, e.field]).toEqual([message, field]);
    }
  });
});

describe('errors', () => {
  it.each<[string, unknown, string, string | undefined]>([
    ['a string body', 'status', '请求参数必须是 JSON 对象', undefined],
    ['an array body', [], '请求参数必须是 JSON 对象', undefined],
    ['a number filter', { filter: 5 }, '筛选条件 filter 必须是字符串', 'filter'],
    ['a number search', { search: 5 }, '搜索内容 search 必须是字符串', 'search'],
    ['unknown filter field', { filter: "secret = 'x'" }, '不支持按字段 secret 筛选', 'secret'],
    ['prototype key as field', { filter: "constructor = 'x'" }, '不支持按字段 constructor 筛选', 'constructor'],
    [
      'bad syntax',
      { filter: "status = 'ALIVE' or 1 = 1" },
      '筛选条件第 18 个字符处语法错误：条件之后应为 and，实际为“or”',
      'filter',
    ],
    [
      'trailing garbage',
      { filter: "status = 'ALIVE' )" },
      '筛选条件第 18 个字符处语法错误：无法识别的字符“)”',
      'filter',
    ],
    [
      'SQL in a field',
      { filter: 'id; drop table orders = 1' },
      '筛选条件第 3 个字符处语法错误：无法识别的字符“;”',
      'filter',
    ],
    ['too long', { filter: `last_msg contains '${'x'.repeat(2000)}'` }, '筛选条件过长（最多 2000 个字符）', 'filter'],
    ['too many', { filter: Array(21).fill('id = 1').join(' and ') }, '筛选条件过多（最多 20 个）', 'filter'],
    [
      'text = number',
      { filter: 'status = 1' },
      '筛选条件第 1 个字符处：字段 status 是文本类型，比较的值必须是带引号的字符串',
      'status',
    ],
    [
      'text in numbers',
      { filter: "status in ['A', 1]" },
      '筛选条件第 1 个字符处：字段 status 是文本类型，比较的值必须是带引号的字符串',
      'status',
    ],
    [
      'number = text',
      { filter: "id = '1'" },
      '筛选条件第 1 个字符处：字段 id 是数字类型，比较的值必须是数字（不加引号）',
      'id',
    ],
    [
      'number contains',
      { filter: "id contains '1'" },
      '筛选条件第 1 个字符处：字段 id 是数字类型，不能使用 contains',
      'id',
    ],
    [
      'text is true',
      { filter: "status = 'A' and status is true" },
      '筛选条件第 18 个字符处：字段 status 是文本类型，不能使用 is true/false',
      'status',
    ],
    [
      'boolean = value',
      { filter: "is_market = 'true'" },
      '筛选条件第 1 个字符处：字段 is_market 是布尔类型，请使用 is true 或 is false',
      'is_market',
    ],
    [
      'boolean in',
      { filter: 'is_market in [1]' },
      '筛选条件第 1 个字符处：字段 is_market 是布尔类型，请使用 is true 或 is false',
      'is_market',
    ],
    [
      'date = number',
      { filter: 'created_at = 20240428' },
      "筛选条件第 1 个字符处：字段 created_at 是日期类型，比较的值必须是 'YYYY-MM-DD' 格式的有效日期",
      'created_at',
    ],
    [
      'impossible date',
      { filter: "created_at = '2024-02-30'" },
      "筛选条件第 1 个字符处：字段 created_at 是日期类型，比较的值必须是 'YYYY-MM-DD' 格式的有效日期",
      'created_at',
    ],
    [
      'year 0',
      { filter: "created_at = '0000-01-01'" },
      "筛选条件第 1 个字符处：字段 created_at 是日期类型，比较的值必须是 'YYYY-MM-DD' 格式的有效日期",
      'created_at',
    ],
    [
      'date with time',
      { filter: "created_at in ['2024-04-28 10:00']" },
      "筛选条件第 1 个字符处：字段 created_at 是日期类型，比较的值必须是 'YYYY-MM-DD' 格式的有效日期",
      'created_at',
    ],
    [
      'date contains',
      { filter: "created_at contains '2024'" },
      '筛选条件第 1 个字符处：字段 created_at 是日期类型，不能使用 contains',
      'created_at',
    ],
    [
      'sort not an array',
      { sort_fields: 'id' },
      '排序参数 sort_fields 格式错误，应为 [{ field: 字段名, ascending: true/false }]',
      'sort_fields',
    ],
    [
      'sort without ascending',
      { sort_fields: [{ field: 'id' }] },
      '排序参数 sort_fields 格式错误，应为 [{ field: 字段名, ascending: true/false }]（位置：sort_fields[0].ascending）',
      'sort_fields',
    ],
    [
      'sort field too long',
      { sort_fields: [{ field: 'x'.repeat(101), ascending: true }] },
      '排序参数 sort_fields 格式错误，应为 [{ field: 字段名, ascending: true/false }]（位置：sort_fields[0].field）',
      'sort_fields',
    ],
  ])('%s', async (_name, body, message, field) => {
    const e = await rejected(view(body));
    expect(e.message).toBe(message);
    expect(e.field).toBe(field);
    expect(e.toJSON()).toEqual({ code: 'invalid_input', message, ...(field ? { field } : {}) });
  });

  it('answers 400 (not 500) through the app’s error handler', async () => {
    const app = Fastify();
    installErrorHandler(app);
    app.post('/api/trader/view/orders', async (req) => view(req.body));
    try {
      const bad = await app.inject({ method: 'POST', url: '/api/trader/view/orders', payload: { filter: 'nope' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({
        code: 'invalid_input',
        message: '筛选条件第 5 个字符处语法错误：字段 nope 之后应为 is、contains、in 或 =，实际为结尾',
      });
      const good = await app.inject({
        method: 'POST',
        url: '/api/trader/view/orders',
        payload: { slice_start: 0, slice_end: 2 },
      });
      expect(good.statusCode).toBe(200);
      expect(good.json()).toMatchObject({ total_count: 50 });
    } finally {
      await app.close();
    }
  });
});

describe('SQL text', () => {
  it('never contains request text: values are parameters, identifiers come from the def', async () => {
    const evil = `x'); drop table orders; --`;
    const plan = planView(
      ordersDef,
      {
        filter: `last_msg = ${quoteFilterValue(evil)} and status in ['${'EVIL_IN'}'] and contract_name contains 'EVIL%_' and volume_orign = 123456789 and created_at = '2024-04-28'`,
        search: 'EVIL_SEARCH',
        sort_fields: [{ field: 'status', ascending: true }],
        slice_start: 777,
        slice_end: 1000,
      },
      { tenant_id: 987654 },
    );
    for (const q of [plan.query, plan.countQuery]) {
      const compiled = q!.compile(t.db);
      for (const needle of ['drop', 'EVIL', '123456789', '2024', '987654', '777'])
        expect(compiled.sql).not.toContain(needle);
      expect(compiled.parameters).toContain(evil);
      expect(compiled.parameters).toContain('%EVIL\\%\\_%');
      expect(compiled.parameters).toContain('%EVIL\\_SEARCH%');
      expect(compiled.parameters).toContain('123456789');
      expect(compiled.parameters).toContain(987654);
    }
    expect(plan.query.compile(t.db).parameters).toContain(777);
    // and it runs
    expect(await view({ filter: `last_msg = ${quoteFilterValue(evil)}` })).toEqual({ items: [], total_count: 0 });
  });
});

describe('checkViewDef', () => {
  it('passes the test defs', async () => {
    for (const def of [ordersDef, contractsDef, tenantsDef]) expect(await checkViewDef(t.db, def)).toEqual([]);
  });

  it('catches columns that are missing, mistyped or do not compile', async () => {
    const bad: ViewDef = {
      name: 'bad',
      relation: 'v_orders',
      columns: {
        id: { type: 'number' },
        volume_traded: { type: 'number' }, // text in v_orders
        nope_amount: { type: 'number' }, // not a column
        created_at: { type: 'text' },
        broken: { type: 'number', sql: sql`no_such_column + 1` },
      },
      defaultSort: [],
    };
    const problems = await checkViewDef(t.db, bad);
    expect(problems).toHaveLength(4);
    expect(problems.slice(0, 3)).toEqual([
      'column volume_traded is text, declared number',
      'column nope_amount not found in v_orders',
      'column created_at is timestamp with time zone, declared text',
    ]);
    expect(problems[3]).toMatch(/^column broken does not compile: .*no_such_column/);
    expect(await checkViewDef(t.db, { ...bad, relation: 'v_nothing' })).toEqual(['relation v_nothing not found']);
  });

  it('refuses a malformed def with a plain Error (a programmer mistake, not a 400)', () => {
    const base = { name: 'x', relation: 'orders', columns: { id: { type: 'number' as const } }, defaultSort: [] };
    expect(() => defineView({ ...base, relation: 'orders; drop' })).toThrow('view x: bad relation orders; drop');
    expect(() => defineView({ ...base, columns: { 'a b': { type: 'text' } } })).toThrow('bad column name a b');
    expect(() => defineView({ ...base, defaultSort: [{ field: 'nope', ascending: true }] })).toThrow('not a column');
    expect(() => defineView({ ...base, searchColumns: ['id'] })).toThrow('id is not a text column');
    expect(() => defineView({ ...base, maxSlice: 0 })).toThrow('maxSlice must be a positive integer');
    expect(() => planView(defineView(base), {}, { 'tenant_id = 1 or true': 1 })).toThrow(/bad scope column/);
    expect(() => planView(defineView(base), {}, { x: ['a'] as unknown as string })).toThrow(/bad scope value/);
  });
});
