import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import type { TradingService } from '../../trading/service';
import { type FakeQuotes, waitFor } from '../../../test/trading/testSupport';
import { tradingDayIn } from '../../../test/days';

/*
 * The calls of conditional orders over HTTP on the real app and trading service: a condition the
 * market then crosses creates one fixing order that fills; bad input is a Chinese 400 naming the
 * field; another customer's or tenant's ids are 404; a refusal changes nothing.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
const DEADLINE = tradingDayIn(30);

async function newContract(t: Tenant, pricer: string, total = 20) {
  const created = await callOk(
    h,
    '/api/trader/rpc/create-contract',
    {
      pricer_id: t.pricers[pricer]!.id,
      product_name: '铜',
      instrument_id: t.symbol,
      direction: 'BUY',
      total_quantity: total,
      basis: 150,
      fixing_deadline: DEADLINE,
    },
    t.token,
  );
  return created.id as number;
}

function market(symbol: string, last: number) {
  quotes.set(symbol, {
    last_price: last,
    bid_price1: last - 10,
    ask_price1: last + 10,
    bid_volume1: 100,
    ask_volume1: 100,
    upper_limit: last * 1.1,
    lower_limit: last * 0.9,
  });
}

const contractLots = async (id: number) => {
  const c = await h.db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { executed: c.executed_quantity, frozen: c.frozen_quantity, remaining: c.remaining_quantity };
};
const counts = async () => ({
  conditions: (await h.db.selectFrom('conditional_orders').select('id').execute()).length,
  orders: (await h.db.selectFrom('orders').select('id').execute()).length,
});

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk());
  a = await setupTenant(h, 'trader-cond-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-cond-b', '乙贸易', ['carol']);
  quotes.addInstrument(a.symbol, 10);
  market(a.symbol, 80_000);
});
afterAll(() => stop?.());

const CREATE = '/api/pricer/rpc/create-conditional-order';
const CANCEL = '/api/pricer/rpc/cancel-conditional-order';
const MINE = '/api/pricer/view/my-conditional-orders';
const TRADER_VIEW = '/api/trader/view/conditional-orders';
const TRADER_CANCEL = '/api/trader/rpc/cancel-conditional-order';

describe('conditional orders over HTTP', () => {
  it('a condition the market crosses creates exactly one fixing order, which fills', async () => {
    const c = await newContract(a, 'alice');
    const res = await h.call(
      CREATE,
      { contract_id: c, quantity: 4, trigger_op: '>=', trigger_price: 80_200, order_price: 0 },
      a.pricers.alice!.jwt,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 'ok', data: { status: 'WAITING', quantity: 4, order_id: null } });
    const id = res.body.data.id as number;
    // Default validity: the deadline's close, 15:00 Beijing = 07:00Z.
    expect(res.body.data.expires_at).toBe(`${DEADLINE}T07:00:00.000Z`);
    expect(await contractLots(c)).toEqual({ executed: 0, frozen: 4, remaining: 16 });
    await service.idle();

    market(a.symbol, 80_200);
    await waitFor(async () => {
      const rows = (await h.call(MINE, { contract_id: c }, a.pricers.alice!.jwt)).body.data.items;
      return rows[0]?.status === 'TRIGGERED' && rows[0]?.order_status === 'FINISHED';
    });
    await service.idle();
    const mine = (await h.call(MINE, { contract_id: c }, a.pricers.alice!.jwt)).body.data;
    expect(mine.total_count).toBe(1);
    expect(mine.items[0]).toMatchObject({
      id,
      status: 'TRIGGERED',
      status_str: '已触发',
      order_volume_traded: 4,
      trigger_last_price: 80_200,
    });
    const orders = (await h.call('/api/pricer/view/my-orders', { contract_id: c }, a.pricers.alice!.jwt)).body.data;
    expect(orders.total_count).toBe(1);
    // The history names the 条件单 that sent the order (issue 29).
    expect(orders.items[0]).toMatchObject({
      id: mine.items[0].order_id,
      status: 'FINISHED',
      basis: 150,
      conditional_order_id: id,
    });
    expect(await contractLots(c)).toEqual({ executed: 4, frozen: 0, remaining: 16 });

    // The trader sees it in the tenant's view; another tenant does not.
    const view = (await h.call(TRADER_VIEW, { filter: `id = ${id}` }, a.token)).body.data;
    expect(view.items).toMatchObject([{ id, pricer_name: 'alice', status: 'TRIGGERED' }]);
    expect((await h.call(TRADER_VIEW, { filter: `id = ${id}` }, b.token)).body.data.total_count).toBe(0);
  });

  it('refuses bad input with a Chinese 400 naming the field, and changes nothing', async () => {
    const c = await newContract(a, 'alice', 10);
    const base = { contract_id: c, quantity: 2, trigger_op: '>=', trigger_price: 80_200, order_price: 0 };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ quantity: 0 }, 'quantity', '请输入有效的手数'],
      [{ quantity: 1.5 }, 'quantity', '成交数量必须是整数'],
      [{ quantity: 11 }, 'quantity', '成交数量不能超过剩余数量（剩余 10 手）'],
      [{ trigger_op: '>' }, 'trigger_op', '请选择触发条件（≥ 或 ≤）'],
      [{ trigger_op: undefined }, 'trigger_op', '请选择触发条件（≥ 或 ≤）'],
      [{ trigger_price: 0 }, 'trigger_price', '请输入有效的触发价'],
      [{ trigger_price: '80200' }, 'trigger_price', '请输入有效的触发价'],
      [{ trigger_price: 80_205 }, 'trigger_price', '触发价必须是最小变动价位 10 的整数倍'],
      [{ order_price: -1 }, 'order_price', '委托价必须是数字，市价填 0'],
      [{ order_price: 80_001 }, 'order_price', '委托价必须是最小变动价位 10 的整数倍'],
      [{ expires_at: 'tomorrow' }, 'expires_at', '有效期格式不正确'],
      [{ expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', '有效期必须晚于当前时间'],
      [{ expires_at: `${DEADLINE}T07:00:01Z` }, 'expires_at', `有效期不能晚于点价截止日（${DEADLINE} 15:00）`],
      [{ contract_id: 'x' }, 'contract_id', '请选择合同'],
    ];
    const before = await counts();
    for (const [over, field, message] of cases) {
      const res = await h.call(CREATE, { ...base, ...over }, a.pricers.alice!.jwt);
      expect(res.status, JSON.stringify([over, res.body])).toBe(400);
      expect(res.body, JSON.stringify(over)).toMatchObject({ result: 'error', error: { field, message } });
    }
    expect(await counts()).toEqual(before);
    expect(await contractLots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('refuses prices the database would round (tiny, 1e-300, over 4 decimals): a 400, never a 500 or a 0', async () => {
    const c = await newContract(a, 'alice', 10);
    const base = { contract_id: c, quantity: 2, trigger_op: '>=', trigger_price: 80_200, order_price: 0 };
    const before = await counts();
    for (const [over, field] of [
      [{ trigger_price: 1e-300 }, 'trigger_price'],
      [{ trigger_price: 1e-7 }, 'trigger_price'],
      [{ trigger_price: 80_200.00001 }, 'trigger_price'],
      [{ order_price: 1e-7 }, 'order_price'],
      [{ order_price: 5e-324 }, 'order_price'],
    ] as const) {
      const res = await h.call(CREATE, { ...base, ...over }, a.pricers.alice!.jwt);
      expect(res.status, JSON.stringify([over, res.body])).toBe(400);
      expect(res.body.error, JSON.stringify(over)).toMatchObject({
        field,
        message: '价格最多 4 位小数，且不小于 0.0001',
      });
    }
    for (const price of [1e-7, 1e-300, 0.00001]) {
      const res = await h.call(
        '/api/pricer/rpc/submit-order',
        { contract_id: c, quantity: 1, price },
        a.pricers.alice!.jwt,
      );
      expect(res.status, JSON.stringify([price, res.body])).toBe(400);
      // The submit's own check (the exchange's tick grid, docs/fixing.md) words it.
      expect(res.body.error).toMatchObject({ field: 'price', message: '价格不是最小变动价位的整数倍' });
    }
    expect(await counts()).toEqual(before);
    expect(await contractLots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it("another customer's or tenant's contract and condition ids are 404, and nothing changes", async () => {
    const c = await newContract(a, 'alice', 10);
    const own = await h.call(
      CREATE,
      { contract_id: c, quantity: 3, trigger_op: '<=', trigger_price: 70_000 },
      a.pricers.alice!.jwt,
    );
    expect(own.status).toBe(200);
    const id = own.body.data.id as number;
    const before = await counts();

    // bob (same tenant) and carol (another tenant) on alice's contract.
    for (const jwt of [a.pricers.bob!.jwt, b.pricers.carol!.jwt]) {
      const res = await h.call(CREATE, { contract_id: c, quantity: 1, trigger_op: '>=', trigger_price: 80_200 }, jwt);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: 'error', error: { message: '合同不存在' } });
      const cancel = await h.call(CANCEL, { id }, jwt);
      expect(cancel.status).toBe(404);
      expect(cancel.body).toMatchObject({ error: { message: '条件单不存在' } });
      expect((await h.call(MINE, { filter: `id = ${id}` }, jwt)).body.data.total_count).toBe(0);
    }
    // The other tenant's trader.
    const t = await h.call(TRADER_CANCEL, { id }, b.token);
    expect(t.status).toBe(404);
    expect(t.body).toMatchObject({ error: { message: '条件单不存在' } });
    expect(await counts()).toEqual(before);
    expect(await contractLots(c)).toEqual({ executed: 0, frozen: 3, remaining: 7 });
    const bad = await h.call(CANCEL, { id: 'x' }, a.pricers.alice!.jwt);
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('id');

    // The trader of the tenant cancels it; the lots go back; a second cancel is a 409.
    const ok = await h.call(TRADER_CANCEL, { id }, a.token);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id, status: 'CANCELLED' });
    expect(await contractLots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    const again = await h.call(CANCEL, { id }, a.pricers.alice!.jwt);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { message: '条件单已撤销，不能撤销' } });
  });

  it('the customer cancels their own; it never fires; the lists filter by contract and status', async () => {
    const c = await newContract(a, 'bob', 10);
    const res = await h.call(
      CREATE,
      { contract_id: c, quantity: 2, trigger_op: '>=', trigger_price: 90_000, order_price: 90_010 },
      a.pricers.bob!.jwt,
    );
    const id = res.body.data.id as number;
    await service.idle();
    const waiting = (await h.call(TRADER_VIEW, { status: 'WAITING', slice_start: 0, slice_end: 0 }, a.token)).body.data
      .total_count as number;
    expect(waiting).toBeGreaterThanOrEqual(1);
    const cancel = await h.call(CANCEL, { id }, a.pricers.bob!.jwt);
    expect(cancel.status).toBe(200);
    expect((await h.call(TRADER_VIEW, { status: 'WAITING' }, a.token)).body.data.total_count).toBe(waiting - 1);
    await service.idle();
    market(a.symbol, 90_000);
    await service.idle();
    market(a.symbol, 80_000);
    const mine = (await h.call(MINE, { contract_id: c, status: 'CANCELLED' }, a.pricers.bob!.jwt)).body.data;
    expect(mine.items).toMatchObject([{ id, status: 'CANCELLED', order_id: null }]);
    expect(
      (await h.call(MINE, { contract_id: c, status: 'TRIGGERED' }, a.pricers.bob!.jwt)).body.data.total_count,
    ).toBe(0);
    expect(
      (await h.call('/api/pricer/view/my-orders', { contract_id: c }, a.pricers.bob!.jwt)).body.data.total_count,
    ).toBe(0);
    const badStatus = await h.call(MINE, { status: 'DONE' }, a.pricers.bob!.jwt);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.field).toBe('status');
  });
});
