import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';

/** A fixing deadline a month away (docs/fixing.md). */
const DEADLINE = tradingDayIn(30);

/*
 * Hostile bodies and query strings against every route of SPEC §7: each field of a valid request is
 * replaced by values of the wrong kind (arrays, booleans, numeric strings, fractions, out-of-range
 * numbers, NUL, lone surrogates, nested junk). Every one must be a 400 in the envelope, with a
 * Chinese message and the field at fault — never a 500, never accepted.
 */

let h: Harness;
let trader: string;
let pricer: string;
let users = 0;
const ids = { tenant: 0, contract: 0, order: 0, user: 0, other: 0, product: '', symbol: '', conditional: 0 };

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const JUNK = { a: [{ b: { c: [null, {}] } }] };
const HUGE = 1e308;

/** What a field must refuse, by kind. */
const BAD = {
  id: [[7], true, '0x7', '7', 1.5, 0, -1, 2 ** 31, HUGE, null, JUNK, ''],
  text: [7, true, [], JUNK, NUL, LONE, null],
  quantity: ['1', [1], true, 1.5, 0, -1, HUGE, null, JUNK],
  price: ['1', [1], true, -1, HUGE, null, JUNK],
  enum: ['NOPE', 7, [], JUNK, NUL, null],
  bool: ['true', 1, [], JUNK, null],
  date: ['2025/01/01', 20250101, [], NUL, LONE, JUNK],
  viewFilter: [7, [], JUNK, NUL, LONE, "status = 'a\u0000'", `status = '${LONE}'`],
  viewSearch: [7, [], JUNK, NUL, LONE],
  sortFields: [
    'id',
    [{}],
    [{ field: 7, ascending: true }],
    [[1]],
    JUNK,
    [{ field: NUL, ascending: true }],
    Array(4).fill({ field: 'id', ascending: true }),
  ],
  slice: ['0', -1, 1.5, HUGE, true, [], JUNK],
  groupBy: ['status', [7], [[]], JUNK, [NUL]],
  aggregate: ['count', [{ field: 'id', op: 'drop' }], [{ field: 7, op: 'sum' }], JUNK, [[]]],
} as const;

const VIEW_FIELDS = {
  filter: BAD.viewFilter,
  search: BAD.viewSearch,
  sort_fields: BAD.sortFields,
  slice_start: BAD.slice,
  group_by_fields: BAD.groupBy,
  aggregate_fields: BAD.aggregate,
};

interface Case {
  route: string;
  who: () => string | undefined;
  method?: 'POST' | 'GET';
  base: () => Record<string, unknown>;
  fields: Record<string, readonly unknown[]>;
}

const T = () => trader;
const P = () => pricer;
const none = () => undefined;

const CASES: Case[] = [
  {
    route: '/api/trader/rpc/trader-profile',
    who: T,
    base: () => ({ company_name: '甲', tq_account_config: { is_sim: true } }),
    fields: {
      company_name: BAD.text,
      tq_account_config: [
        true,
        [],
        'x',
        null,
        { is_sim: 'true' },
        { is_sim: true, broker_name: NUL },
        { is_sim: true, futures_password: LONE },
      ],
    },
  },
  {
    route: '/api/trader/rpc/cancel-order',
    who: T,
    base: () => ({ order_id: ids.order }),
    fields: { order_id: BAD.id },
  },
  {
    route: '/api/trader/rpc/update-contract-status',
    who: T,
    base: () => ({ contract_id: ids.contract, new_status: 'active' }),
    fields: { contract_id: BAD.id, new_status: BAD.enum },
  },
  {
    route: '/api/trader/rpc/create-contract',
    who: T,
    base: () => ({
      pricer_id: ids.user,
      product_name: ids.product,
      instrument_id: ids.symbol,
      direction: 'BUY',
      total_quantity: 5,
      basis: 0,
      fixing_deadline: DEADLINE,
    }),
    fields: {
      pricer_id: BAD.id,
      product_name: BAD.text,
      instrument_id: BAD.text,
      direction: BAD.enum,
      total_quantity: BAD.quantity,
      name: BAD.text.filter((v) => v !== null),
      status: BAD.enum,
      // A negative basis is a discount (issue 29): refused are non-numbers, absurd sizes and a third decimal.
      basis: [...BAD.price.filter((v) => v !== -1), 0.001],
      fixing_deadline: BAD.date,
    },
  },
  {
    route: '/api/trader/rpc/create-pricer-user',
    who: T,
    base: () => ({ username: `user${++users}`, password: 'pw', phone: '' }),
    fields: { username: BAD.text, password: BAD.text, phone: BAD.text.filter((v) => v !== null) },
  },
  {
    route: '/api/trader/rpc/update-pricer-profile',
    who: T,
    base: () => ({ user_id: ids.user, full_name: '甲公司' }),
    fields: {
      user_id: BAD.id,
      full_name: BAD.text.filter((v) => v !== null),
      contact_name: BAD.text.filter((v) => v !== null),
      phone: BAD.text.filter((v) => v !== null),
      confirm_before_fix: BAD.bool,
    },
  },
  {
    route: '/api/trader/rpc/reset-pricer-password',
    who: T,
    // Another customer: a reset ends the sessions of its customer (docs/security.md), carol's must stay.
    base: () => ({ user_id: ids.other, new_password: 'pw123' }),
    fields: { user_id: BAD.id, new_password: BAD.text },
  },
  ...['orders', 'contracts', 'users', 'products'].map((v) => ({
    route: `/api/trader/view/${v}`,
    who: T,
    base: () => ({}),
    fields: VIEW_FIELDS,
  })),
  {
    route: '/api/trader/view/instruments',
    who: T,
    base: () => ({ product_name: ids.product }),
    fields: { ...VIEW_FIELDS, product_name: BAD.text },
  },
  {
    route: '/api/pricer/rpc/pricer-login',
    who: none,
    base: () => ({ tenant_id: ids.tenant, username: 'carol', password: 'pw123' }),
    fields: { tenant_id: BAD.id, username: BAD.text, password: BAD.text },
  },
  {
    route: '/api/pricer/rpc/get-tenant-info',
    who: none,
    base: () => ({ tenant_id: ids.tenant }),
    fields: { tenant_id: BAD.id },
  },
  {
    route: '/api/pricer/view/my-orders',
    who: P,
    base: () => ({}),
    fields: {
      ...VIEW_FIELDS,
      contract_id: BAD.id.filter((v) => v !== null && v !== ''),
      status: BAD.enum.filter((v) => v !== null),
      start_date: BAD.date,
      end_date: BAD.date,
    },
  },
  {
    route: '/api/pricer/rpc/submit-order',
    who: P,
    base: () => ({ contract_id: ids.contract, quantity: 1, price: 0 }),
    fields: { contract_id: BAD.id, quantity: BAD.quantity, price: BAD.price },
  },
  {
    route: '/api/pricer/rpc/cancel-order',
    who: P,
    base: () => ({ order_id: ids.order }),
    fields: { order_id: BAD.id },
  },
  // docs/conditional-orders.md
  {
    route: '/api/pricer/rpc/create-conditional-order',
    who: P,
    base: () => ({ contract_id: ids.contract, quantity: 1, trigger_op: '>=', trigger_price: 100_000, order_price: 0 }),
    fields: {
      contract_id: BAD.id,
      quantity: BAD.quantity,
      trigger_op: BAD.enum,
      trigger_price: BAD.price,
      order_price: BAD.price,
      expires_at: BAD.date,
    },
  },
  {
    route: '/api/pricer/view/my-conditional-orders',
    who: P,
    base: () => ({}),
    fields: {
      ...VIEW_FIELDS,
      contract_id: BAD.id.filter((v) => v !== null && v !== ''),
      status: BAD.enum.filter((v) => v !== null),
    },
  },
  {
    route: '/api/trader/view/conditional-orders',
    who: T,
    base: () => ({}),
    fields: { ...VIEW_FIELDS, status: BAD.enum.filter((v) => v !== null) },
  },
  {
    route: '/api/pricer/rpc/cancel-conditional-order',
    who: P,
    base: () => ({ id: ids.conditional }),
    fields: { id: BAD.id },
  },
  {
    route: '/api/trader/rpc/cancel-conditional-order',
    who: T,
    base: () => ({ id: ids.conditional }),
    fields: { id: BAD.id },
  },
];

const WHOLE_BODIES = ['[]', '"x"', '7', 'null', 'true', '[{"order_id":1}]', '{"a":'];

// (A lone surrogate cannot travel in a URL: percent-encoding turns it into U+FFFD.)
const QUERY_CASES: { route: string; base: Record<string, string>; fields: Record<string, string[]> }[] = [
  { route: '/api/rpc/exchange_list', base: {}, fields: { options: ['2', 'yes', NUL] } },
  {
    route: '/api/rpc/product_list',
    base: { exchange_id: 'SHFE' },
    fields: { exchange_id: ['', NUL, 'x'.repeat(100)], options: ['2', NUL] },
  },
  {
    route: '/api/rpc/future_list',
    base: { exchange_id: 'SHFE', product_id: 'cu' },
    fields: { exchange_id: ['', NUL], product_id: ['', NUL, 'x'.repeat(100)] },
  },
];

interface Outcome {
  what: string;
  status: number;
  body: string;
}

async function post(
  route: string,
  token: string | undefined,
  payload: string,
): Promise<{ status: number; body: string }> {
  const res = await h.app.inject({
    method: 'POST',
    url: route,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
  return { status: res.statusCode, body: res.body };
}

beforeAll(async () => {
  h = await startHarness();
  trader = await h.idp.sign({}, { sub: 'trader-hostile' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '恶意测试', tq_account_config: { is_sim: true } },
    trader,
  );
  ids.tenant = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id;
  ids.user = (
    await h.call('/api/trader/rpc/create-pricer-user', { username: 'carol', password: 'pw123' }, trader)
  ).body.data.id;
  ids.other = (
    await h.call('/api/trader/rpc/create-pricer-user', { username: 'dave', password: 'pw123' }, trader)
  ).body.data.id;
  ids.product = '铜';
  ids.symbol = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, trader)).body.data.items[1].symbol;
  ids.contract = (
    await h.call(
      '/api/trader/rpc/create-contract',
      {
        pricer_id: ids.user,
        product_name: ids.product,
        instrument_id: ids.symbol,
        direction: 'BUY',
        total_quantity: 50,
        basis: 0,
        fixing_deadline: DEADLINE,
        margin_rate: 0, // no money on file: this suite is about hostile input, not margin
      },
      trader,
    )
  ).body.data.id;
  pricer = (
    await h.call('/api/pricer/rpc/pricer-login', { tenant_id: ids.tenant, username: 'carol', password: 'pw123' })
  ).body.data.jwt_token;
  ids.order = (
    await h.call('/api/pricer/rpc/submit-order', { contract_id: ids.contract, quantity: 1, price: 0 }, pricer)
  ).body.data.id;
  ids.conditional = (
    await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: ids.contract, quantity: 1, trigger_op: '<=', trigger_price: 10 },
      pricer,
    )
  ).body.data.id;
});
afterAll(() => h.close());

describe('hostile input', () => {
  it('the valid requests the cases start from are accepted', async () => {
    for (const c of CASES) {
      const res = await post(c.route, c.who(), JSON.stringify(c.base()));
      expect(res.status, `${c.route} ${res.body}`).toBeLessThan(500);
      if (!/cancel-(conditional-)?order|update-contract-status/.test(c.route)) expect(res.status, c.route).toBe(200);
    }
  });

  it('every field of every route refuses values of the wrong kind with a Chinese 400 naming it', async () => {
    const failures: Outcome[] = [];
    const crashes: Outcome[] = [];
    let sent = 0;
    for (const c of CASES) {
      for (const [field, values] of Object.entries(c.fields)) {
        for (const value of values) {
          const body = { ...c.base(), [field]: value };
          // slice_start alone is refused anyway; pair it so the value itself is what is judged.
          if (field === 'slice_start') body.slice_end = 10;
          const res = await post(c.route, c.who(), JSON.stringify(body));
          sent++;
          const what = `${c.route} ${field}=${JSON.stringify(value)}`;
          if (res.status >= 500) crashes.push({ what, ...res });
          let json: { result?: string; error?: { message?: string; field?: string } } = {};
          try {
            json = JSON.parse(res.body);
          } catch {
            /* judged below */
          }
          const good =
            res.status === 400 &&
            json.result === 'error' &&
            /[\u4e00-\u9fff]/.test(json.error?.message ?? '') &&
            (json.error?.field ?? '').split(/[.[]/)[0] === field;
          if (!good) failures.push({ what, ...res });
        }
      }
    }
    console.log(
      `hostile fields: ${sent} sent, ${crashes.length} answered 500, ${failures.length} not a 400 naming the field`,
    );
    expect(crashes).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('whole bodies that are not an object, or not JSON, are a 400', async () => {
    const bad: Outcome[] = [];
    for (const c of CASES) {
      // A number JSON.parse reads as Infinity, in the route's first field.
      const infinite = `{"${Object.keys(c.fields)[0]}":1e400}`;
      for (const payload of [...WHOLE_BODIES, infinite]) {
        const res = await post(c.route, c.who(), payload);
        if (res.status !== 400 || JSON.parse(res.body).result !== 'error')
          bad.push({ what: `${c.route} ${payload}`, ...res });
      }
    }
    console.log(`hostile bodies: ${bad.filter((b) => b.status >= 500).length} answered 500, ${bad.length} not a 400`);
    expect(bad).toEqual([]);
  });

  it('query strings of the market calls', async () => {
    const bad: Outcome[] = [];
    for (const c of QUERY_CASES) {
      for (const [field, values] of Object.entries(c.fields)) {
        for (const value of values) {
          const qs = new URLSearchParams({ ...c.base, [field]: value }).toString();
          const res = await h.app.inject({ method: 'GET', url: `${c.route}?${qs}` });
          const json = JSON.parse(res.body) as { error?: { field?: string } };
          if (res.statusCode !== 400 || json.error?.field !== field)
            bad.push({ what: `${c.route} ${field}=${JSON.stringify(value)}`, status: res.statusCode, body: res.body });
        }
      }
    }
    console.log(`hostile queries: ${bad.filter((b) => b.status >= 500).length} answered 500, ${bad.length} not a 400`);
    expect(bad).toEqual([]);
  });
});
