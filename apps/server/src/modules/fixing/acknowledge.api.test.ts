import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import type { TradingService } from '../../trading/service';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import { tradingDayIn } from '../../../test/days';

/*
 * The customer's acknowledgement of a 点价确认单 (issue 29) over HTTP on the real app and trading
 * service: the first acknowledgement is kept with its address and browser, a second changes nothing;
 * another customer's order is 404, an unfilled one 409; the trader's orders view and the
 * confirmation carry acknowledged_at, the orders view the turnover (price × lots × multiplier).
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let b: Tenant;
const DEADLINE = tradingDayIn(30);
const ACK = '/api/pricer/rpc/acknowledge-confirmation';
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) 测试浏览器';

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk());
  a = await setupTenant(h, 'trader-ack-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-ack-b', '乙贸易', ['carol']);
  quotes.addInstrument(a.symbol, 10);
});
afterAll(() => stop?.());

const market = (symbol: string, price: number, lots: number) => setMarket(quotes, symbol, price, lots);

async function newContract() {
  const created = await callOk(
    h,
    '/api/trader/rpc/create-contract',
    {
      pricer_id: a.pricers.alice!.id,
      product_name: '铜',
      instrument_id: a.symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 150,
      fixing_deadline: DEADLINE,
    },
    a.token,
  );
  return created.id as number;
}

async function submit(contractId: number, quantity: number, price: number) {
  const order = await callOk(
    h,
    '/api/pricer/rpc/submit-order',
    { contract_id: contractId, quantity, price },
    a.pricers.alice!.jwt,
  );
  await service.idle();
  return order.id as number;
}

/** An acknowledgement as a phone sends it. */
async function acknowledge(orderId: unknown, token: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: ACK,
    headers: { authorization: `Bearer ${token}`, 'user-agent': UA },
    payload: { order_id: orderId },
  });
  return { status: res.statusCode, body: res.json() as { data: any; error: { code: string; message: string } } };
}

const acks = (orderId: number) =>
  h.db.selectFrom('confirmation_acks').selectAll().where('order_id', '=', orderId).execute();

const traderOrder = async (orderId: number) =>
  (await callOk(h, '/api/trader/view/orders', { filter: `id = ${orderId}` }, a.token)).items[0] as Record<
    string,
    unknown
  >;

describe('acknowledge-confirmation', () => {
  let filled = 0;
  let unfilled = 0;

  beforeAll(async () => {
    const contract = await newContract();
    market(a.symbol, 81_000, 2);
    filled = await submit(contract, 2, 0);
    market(a.symbol, 81_000, 0);
    unfilled = await submit(contract, 1, 80_000);
  });

  it('a pending confirmation: acknowledged_at null on the confirmation and the trader orders view', async () => {
    const conf = await h.call('/api/pricer/view/confirmation', { order_id: filled }, a.pricers.alice!.jwt);
    expect(conf.status).toBe(200);
    expect(conf.body.data.acknowledged_at).toBeNull();
    const row = await traderOrder(filled);
    expect(row.acknowledged_at).toBeNull();
    // turnover = futures fill price × traded lots × multiplier (元); trade_amount stays price × lots (SPEC).
    expect(row.trade_price).toBe(81_000);
    expect(row.multiplier).toBe(5);
    expect(row.turnover).toBe(81_000 * 2 * 5);
    expect(row.trade_amount).toBe(81_000 * 2);
    // Units: copper counts in 吨 on the order, the confirmation and the snapshot's contract.
    expect(row.unit).toBe('吨');
    expect(conf.body.data.unit).toBe('吨');
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    const contract = snap.body.data.contracts.find((c: { instrument_id: string }) => c.instrument_id === a.symbol);
    expect(contract).toMatchObject({ unit: '吨', multiplier: 5 });
    const contracts = await h.call('/api/trader/view/contracts', { filter: `id = ${contract.id}` }, a.token);
    expect(contracts.body.data.items[0]).toMatchObject({ unit: '吨', multiplier: 5 });
    // The dashboard's 累计成交金额 sums turnover by status.
    const stats = await h.call(
      '/api/trader/view/orders',
      { group_by_fields: ['status'], aggregate_fields: [{ field: 'turnover', op: 'sum' }] },
      a.token,
    );
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    const total = (stats.body.data.items as { sum_turnover: number | string | null }[]).reduce(
      (sum, g) => sum + Number(g.sum_turnover ?? 0),
      0,
    );
    expect(total).toBe(81_000 * 2 * 5);
  });

  it('refuses another customer’s order (404), an unfilled one (409) and a bad body (400), storing nothing', async () => {
    for (const token of [a.pricers.bob!.jwt, b.pricers.carol!.jwt]) {
      const r = await acknowledge(filled, token);
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe('订单不存在');
    }
    const none = await acknowledge(unfilled, a.pricers.alice!.jwt);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe('该订单尚未成交，没有可确认的点价确认单');
    const bad = await acknowledge('x', a.pricers.alice!.jwt);
    expect(bad.status).toBe(400);
    const anonymous = await h.call(ACK, { order_id: filled });
    expect(anonymous.status).toBe(401);
    expect(await acks(filled)).toEqual([]);
    expect(await acks(unfilled)).toEqual([]);
  });

  it('keeps the first acknowledgement with its address and browser; a second changes nothing', async () => {
    const first = await acknowledge(filled, a.pricers.alice!.jwt);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.order_id).toBe(filled);
    const at = first.body.data.acknowledged_at as string;
    expect(Number.isNaN(Date.parse(at))).toBe(false);
    const [stored] = await acks(filled);
    expect(stored).toMatchObject({ pricer_id: a.pricers.alice!.id, user_agent: UA });
    // The test talks to the server over loopback: that is the address kept.
    expect(stored!.ip).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);

    await new Promise((r) => setTimeout(r, 20));
    const again = await acknowledge(filled, a.pricers.alice!.jwt);
    expect(again.status).toBe(200);
    expect(again.body.data.acknowledged_at).toBe(at);
    expect(await acks(filled)).toHaveLength(1);

    // The trader sees it on the order and the confirmation; the audit log has it once.
    expect((await traderOrder(filled)).acknowledged_at).toBe(at);
    const conf = await h.call('/api/trader/view/confirmation', { order_id: filled }, a.token);
    expect(conf.body.data.acknowledged_at).toBe(at);
    const audits = await h.db
      .selectFrom('audit_log')
      .select('payload')
      .where('action', '=', 'acknowledge-confirmation')
      .where('tenant_id', '=', a.tenantId)
      .execute();
    expect(audits).toHaveLength(1);
  });
});
