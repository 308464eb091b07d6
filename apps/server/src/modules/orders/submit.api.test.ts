import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';

/**
 * The fixing call as a desk that retries uses it (issue 14 §2), and the prices an exchange would
 * refuse (§3). The instrument is a copper future: tick 10, band 74,400 … 85,600 (set by the test).
 */
let h: Harness;
let jwt: string;
let contractId: number;
let symbol: string;
let trader: string;
let pricerId: number;
const band = { lower: 74_400, upper: 85_600 };

beforeAll(async () => {
  h = await startHarness({ priceBand: (s: string) => (s === symbol ? band : undefined) });
  trader = await h.idp.sign({}, { sub: 'trader-submit' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '己公司', tq_account_config: { is_sim: true } },
    trader,
  );
  const tenant = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id as number;
  // Written for trading without margin: the new company's 10 % default (issue 41) set to 0.
  await h.db.updateTable('tenants').set({ default_margin_rate: 0 }).where('id', '=', tenant).execute();
  const user = (await h.call('/api/trader/rpc/create-pricer-user', { username: 'fay', password: 'pw123' }, trader)).body
    .data;
  const instruments = await h.call('/api/trader/view/instruments', { product_name: '铜' }, trader);
  symbol = instruments.body.data.items[1].symbol;
  pricerId = user.id;
  contractId = await newContract(30);
  jwt = (await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username: 'fay', password: 'pw123' })).body
    .data.jwt_token;
});
afterAll(() => h.close());

async function newContract(total: number): Promise<number> {
  const contract = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: pricerId,
      product_name: '铜',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: total,
      basis: 0,
      fixing_deadline: tradingDayIn(30),
    },
    trader,
  );
  return contract.body.data.id as number;
}

const submit = (body: Record<string, unknown>) =>
  h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, ...body }, jwt);
const contract = () => h.db.selectFrom('contracts').selectAll().where('id', '=', contractId).executeTakeFirstOrThrow();
const ordersWith = (key: string) => h.db.selectFrom('orders').selectAll().where('client_order_id', '=', key).execute();

describe('idempotent submit (client_order_id)', () => {
  it('answers a repeated id with the first order and never fixes twice', async () => {
    const first = await submit({ quantity: 2, price: 80_000, client_order_id: 'desk-0001' });
    expect(first.status).toBe(200);
    const again = await submit({ quantity: 2, price: 80_000, client_order_id: 'desk-0001' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ result: 'ok', data: { id: first.body.data.id } });
    expect(await ordersWith('desk-0001')).toHaveLength(1);
    expect(await contract()).toMatchObject({ frozen_quantity: 2, remaining_quantity: 28 });
  });

  it('answers a retry with the first order also when that order took every lot', async () => {
    const small = await newContract(3);
    const first = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: small, quantity: 3, price: 80_000, client_order_id: 'desk-all' },
      jwt,
    );
    expect(first.status).toBe(200);
    const again = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: small, quantity: 3, price: 80_000, client_order_id: 'desk-all' },
      jwt,
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ result: 'ok', data: { id: first.body.data.id } });
    expect(await ordersWith('desk-all')).toHaveLength(1);
  });

  it('refuses the same id with another contract, quantity or price (409) and changes nothing', async () => {
    const mine = await newContract(10);
    const frozenOf = async (id: number) =>
      (await h.db.selectFrom('contracts').select('frozen_quantity').where('id', '=', id).executeTakeFirstOrThrow())
        .frozen_quantity;
    const first = await submit({ contract_id: mine, quantity: 2, price: 80_000, client_order_id: 'desk-reused' });
    expect(first.status).toBe(200);
    const before = { main: await contract(), orders: await ordersWith('desk-reused') };
    for (const body of [
      { contract_id: contractId, quantity: 2, price: 80_000 },
      { contract_id: mine, quantity: 5, price: 80_000 },
      { contract_id: mine, quantity: 2, price: 0 },
    ]) {
      const r = await submit({ ...body, client_order_id: 'desk-reused' });
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'client_order_id_reused', field: 'client_order_id' });
      expect(r.body.error.message).toMatch(/委托编号/);
    }
    expect(await ordersWith('desk-reused')).toEqual(before.orders);
    expect(await contract()).toEqual(before.main);
    expect(await frozenOf(mine)).toBe(2);
  });

  it('creates exactly one order from ten racing retries of one id', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submit({ quantity: 1, price: 80_000, client_order_id: 'desk-race' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await ordersWith('desk-race')).toHaveLength(1);
    expect(await contract()).toMatchObject({ frozen_quantity: 3, remaining_quantity: 27 });
  });

  it('treats orders without an id as independent', async () => {
    const a = await submit({ quantity: 1 });
    const b = await submit({ quantity: 1 });
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(await contract()).toMatchObject({ frozen_quantity: 5 });
  });

  it('refuses an id longer than 64 characters or of other characters, changing nothing', async () => {
    const long = await submit({ quantity: 1, client_order_id: 'x'.repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ field: 'client_order_id' });
    expect(long.body.error.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await submit({ quantity: 1, client_order_id: 'a b\u0000' })).status).toBe(400);
    expect((await submit({ quantity: 1, client_order_id: 7 })).status).toBe(400);
    expect((await submit({ quantity: 1, client_order_id: 'x'.repeat(64) })).status).toBe(200);
    expect(await contract()).toMatchObject({ frozen_quantity: 6 });
  });
});

describe('prices the exchange would refuse', () => {
  it('refuses a limit price off the tick grid, outside the band, or rounding to 0; nothing changes', async () => {
    const before = await contract();
    const cases = [
      [80_005, '价格不是最小变动价位的整数倍'],
      [80_000.5, '价格不是最小变动价位的整数倍'],
      [0.00004, '价格不是最小变动价位的整数倍'],
      [band.upper + 10, '价格超出涨跌停板'],
      [band.lower - 10, '价格超出涨跌停板'],
    ] as const;
    for (const [price, message] of cases) {
      const r = await submit({ quantity: 1, price });
      expect(r.status, String(price)).toBe(400);
      expect(r.body.error).toMatchObject({ message, field: 'price' });
    }
    expect(await contract()).toEqual(before);
  });

  it('takes prices on the grid at the band edges, and market orders', async () => {
    for (const price of [band.lower, band.upper, 80_010, 0]) {
      const r = await submit({ quantity: 1, price });
      expect(r.status, String(price)).toBe(200);
      expect(r.body.data.limit_price).toBe(price);
    }
  });
});

/**
 * From a contract's second fixing on, the submit is one statement (domain/orders.ts, insertOrderAtOnce): it
 * must refuse, answer and record exactly what the checked path of the first fixing does.
 */
describe('the one-statement submit after a contract’s first fixing', () => {
  const on = (id: number, body: Record<string, unknown>) =>
    h.call('/api/pricer/rpc/submit-order', { contract_id: id, ...body }, jwt);
  const lots = async (id: number) => {
    const c = await h.db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return [c.remaining_quantity, c.frozen_quantity];
  };

  it('refuses what the checked path refuses, with the same answers, changing nothing', async () => {
    const fresh = await newContract(5);
    const warm = await newContract(5);
    expect((await on(warm, { quantity: 1, price: 80_000 })).status).toBe(200); // from now on: one statement
    const answer = async (id: number, body: Record<string, unknown>) => {
      const r = await on(id, body);
      return [r.status, r.body.error];
    };
    for (const body of [
      { quantity: 1, price: 80_005 },
      { quantity: 1, price: 90_000 },
    ]) {
      expect(await answer(warm, body)).toEqual(await answer(fresh, body));
    }
    expect(await answer(warm, { quantity: 1, price: 80_005 })).toEqual([
      400,
      expect.objectContaining({ message: '价格不是最小变动价位的整数倍' }),
    ]);
    expect(await answer(warm, { quantity: 5 })).toEqual([
      400,
      expect.objectContaining({ message: '成交数量不能超过剩余数量（剩余 4 手）' }),
    ]);
    expect(await lots(warm)).toEqual([4, 1]);
    await h.call('/api/trader/rpc/update-contract-status', { contract_id: warm, new_status: 'paused' }, trader);
    // The pause cancelled the working order and released its lot (issue 30: pause means stop).
    expect(await lots(warm)).toEqual([5, 0]);
    expect(await answer(warm, { quantity: 1 })).toEqual([
      409,
      expect.objectContaining({ message: '合同已暂停，不能下单' }),
    ]);
    expect(await lots(warm)).toEqual([5, 0]);
  });

  it('writes one audit row per fixing, with the order and what was asked', async () => {
    const id = await newContract(5);
    const placed: number[] = [];
    for (const price of [80_000, 80_010]) {
      const r = await on(id, { quantity: 1, price, client_order_id: `audit-${id}-${price}` });
      expect(r.status).toBe(200);
      placed.push(r.body.data.id as number);
    }
    const rows = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'submit-order')
      .where(sql<boolean>`payload->>'contract_id' = ${String(id)}`)
      .orderBy('id')
      .execute();
    expect(rows).toEqual(
      [80_000, 80_010].map((price, i) => ({
        actor: `pricer:${pricerId}`,
        // 点价人: the customer's first login is its first 授权点价人 (docs/authorised-pricers.md).
        payload: {
          contract_id: id,
          quantity: 1,
          price,
          client_order_id: `audit-${id}-${price}`,
          order_id: placed[i],
          authorised_pricer: 'fay',
          person_id: expect.any(Number),
        },
      })),
    );
  });

  it('lets exactly one of two fixings racing for the last lot through', async () => {
    const id = await newContract(2);
    expect((await on(id, { quantity: 1 })).status).toBe(200);
    const race = await Promise.all([on(id, { quantity: 1 }), on(id, { quantity: 1 })]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await lots(id)).toEqual([0, 2]);
  });
});
