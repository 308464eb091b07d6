import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { cancelOrder, submitOrder } from '../modules/orders/orders';
import { applyTrade } from './apply';
import type { GatewayEvent, GatewayOrder, GatewayOrderState, GatewayStatus, TradingGateway } from './gateway';
import {
  createTradingService,
  GATEWAY_MESSAGES,
  type TenantRow,
  type TradingService,
  type TradingServiceOptions,
} from './service';
import { SIM_MESSAGES } from './simRules';
import {
  bookProblems,
  exchangeProblems,
  FakeQuotes,
  withTradingTestDb,
  prng,
  seedContract,
  seedTenant,
  waitFor,
} from '../../test/trading/testSupport';
import { triggerConditional } from '../modules/conditional/conditional';

const CU = 'SHFE.cu2601';
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

let db: Database;
withTradingTestDb((opened) => (db = opened));

let quotes: FakeQuotes;
let clock: Date;
const services: TradingService[] = [];

beforeEach(() => {
  quotes = new FakeQuotes({ [CU]: 10 });
  quotes.set(CU, {
    last_price: 80_000,
    bid_price1: 79_990,
    ask_price1: 80_010,
    bid_volume1: 5,
    ask_volume1: 5,
    upper_limit: 85_600,
    lower_limit: 74_400,
  });
  clock = new Date('2026-01-05T02:00:00Z'); // Monday 10:00 in Shanghai
});

afterEach(async () => {
  // Leave nothing open for the next test's service.
  for (const s of services.splice(0)) {
    await s.expireSimOrders(FAR_FUTURE);
    await s.idle();
    await s.stop();
  }
});

async function setup(opts: { isSim?: boolean; account?: string } & Partial<TradingServiceOptions> = {}) {
  const { isSim, account, ...extra } = opts;
  const who = await seedTenant(db, { isSim: isSim ?? true, brokerName: '模拟期货', account: account ?? '8001' });
  const factory = extra.createRealGateway;
  const service = createTradingService({
    trigger: triggerConditional,
    db,
    quotes,
    now: () => clock,
    simExpiryCheckMs: 0,
    sweepMs: 60_000,
    // As the server runs it on PGlite: one router transaction at a time over all tenants.
    dbConcurrency: 1,
    ...extra,
    // Only this test's tenant gets the test's gateway (earlier tests' tenants share the database).
    ...(factory
      ? {
          createRealGateway: (t: TenantRow) => {
            if (t.id !== who.tenantId) throw new Error('another test');
            return factory(t);
          },
        }
      : {}),
  });
  services.push(service);
  await service.start();
  return {
    who,
    service,
    contract: (direction: 'BUY' | 'SELL', total: number) => seedContract(db, who, { symbol: CU, direction, total }),
    submit: (contractId: number, quantity: number, price = 0) =>
      submitOrder(db, who, { contract_id: contractId, quantity, price }, service.events),
    settle: () => service.idle(),
  };
}

const order = (id: number) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const contract = (id: number) => db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lots = async (id: number) => {
  const c = await contract(id);
  return { executed: c.executed_quantity, frozen: c.frozen_quantity, remaining: c.remaining_quantity };
};

describe('order router on the simulated broker', () => {
  it('reports the sim gateway as ok', async () => {
    const { who, service } = await setup();
    expect(service.status(who.tenantId)).toEqual({ status: 'ok' });
  });

  it('sends a limit order that rests (ALIVE) and fills when the quote crosses', async () => {
    const { who, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submit(c, 4, 79_990);
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'ALIVE', last_msg: '已报单', volume_traded: 0 });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 4, remaining: 6 });
    quotes.set(CU, { ask_price1: 79_980, ask_volume1: 10 });
    await settle();
    expect(await order(o.id)).toMatchObject({
      status: 'FINISHED',
      last_msg: '全部成交',
      volume_traded: 4,
      trade_price: 79_980,
    });
    expect(await contract(c)).toMatchObject({
      executed_quantity: 4,
      frozen_quantity: 0,
      remaining_quantity: 6,
      avg_price: 79_980,
      status: 'active',
    });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
    expect(await exchangeProblems(db, who.tenantId)).toEqual([]);
  });

  it('fills partially, rests the remainder (volume-weighted trade_price), and a cancel returns the unfilled lots', async () => {
    const { who, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submit(c, 8, 80_010);
    await settle();
    expect(await order(o.id)).toMatchObject({
      status: 'ALIVE',
      last_msg: '部分成交',
      volume_traded: 5,
      trade_price: 80_010,
    });
    expect(await lots(c)).toEqual({ executed: 5, frozen: 3, remaining: 2 });
    quotes.set(CU, { ask_price1: 80_000, ask_volume1: 2 });
    await settle();
    const vwap = (5 * 80_010 + 2 * 80_000) / 7;
    expect((await order(o.id)).volume_traded).toBe(7);
    expect((await order(o.id)).trade_price).toBeCloseTo(vwap, 4);
    expect((await contract(c)).avg_price).toBeCloseTo(vwap, 4);
    expect(await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader' }, o.id, services[0]!.events)).toEqual({
      status: 'CANCEL_REQUESTED',
    });
    await settle();
    expect(await order(o.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: SIM_MESSAGES.cancelled,
      volume_traded: 7,
    });
    expect(await lots(c)).toEqual({ executed: 7, frozen: 0, remaining: 3 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
    expect(await exchangeProblems(db, who.tenantId)).toEqual([]);
  });

  it('sends a price-0 order as a market order: FAK fills the level, the rest is cancelled and returned', async () => {
    const { who, contract: mk, submit, settle } = await setup();
    const c = await mk('SELL', 10);
    const o = await submit(c, 8);
    await settle();
    expect(await order(o.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: SIM_MESSAGES.fakRest,
      volume_traded: 5,
      trade_price: 79_990,
    });
    expect(await lots(c)).toEqual({ executed: 5, frozen: 0, remaining: 5 });
    const sent = await db
      .selectFrom('sim_orders')
      .selectAll()
      .where('order_ref', '=', String(o.id))
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ price_type: 'MARKET', direction: 'SELL', volume_orign: 8 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('cancels rejected orders (off the tick grid, outside the limits) with the reason and returns their lots', async () => {
    const { who, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const offTick = await submit(c, 2, 80_005);
    const tooHigh = await submit(c, 3, 86_000);
    await settle();
    expect(await order(offTick.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: '价格不是最小变动价位的整数倍',
      volume_traded: 0,
    });
    expect(await order(tooHigh.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: '价格超出涨跌停板',
      volume_traded: 0,
    });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a pricer cancelling a resting order gets all its lots back', async () => {
    const { who, service, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submit(c, 6, 79_000);
    await settle();
    expect(await lots(c)).toEqual({ executed: 0, frozen: 6, remaining: 4 });
    await cancelOrder(db, { tenantId: who.tenantId, pricerId: who.pricerId, actor: 'pricer' }, o.id, service.events);
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED', last_msg: '已撤单' });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('expires resting orders at the close and returns their lots', async () => {
    const { who, service, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submit(c, 5, 80_010); // 5 fill now, nothing rests… so make it rest:
    const r = await submit(c, 3, 79_000);
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'FINISHED' });
    await service.expireSimOrders(new Date('2026-01-05T06:59:00Z'));
    await settle();
    expect(await order(r.id)).toMatchObject({ status: 'ALIVE' });
    await service.expireSimOrders(new Date('2026-01-05T07:00:00Z')); // 15:00 Shanghai
    await settle();
    expect(await order(r.id)).toMatchObject({ status: 'CANCELLED', last_msg: SIM_MESSAGES.expired });
    expect(await lots(c)).toEqual({ executed: 5, frozen: 0, remaining: 5 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('completes the contract when fully executed, with a volume-weighted avg_price', async () => {
    const { who, contract: mk, submit, settle } = await setup();
    const c = await mk('SELL', 10);
    const a = await submit(c, 3); // market: 3 @ 79 990
    const b = await submit(c, 7, 80_000);
    await settle();
    expect(await order(a.id)).toMatchObject({ status: 'FINISHED', trade_price: 79_990 });
    expect(await order(b.id)).toMatchObject({ status: 'ALIVE', volume_traded: 0 });
    quotes.set(CU, { bid_price1: 80_000, bid_volume1: 4, ask_price1: 80_010 });
    await settle();
    expect(await order(b.id)).toMatchObject({ status: 'ALIVE', volume_traded: 4, trade_price: 80_000 });
    expect((await contract(c)).status).toBe('active');
    quotes.set(CU, { bid_price1: 80_020, bid_volume1: 10, ask_price1: 80_030 });
    await settle();
    const row = await order(b.id);
    expect(row).toMatchObject({ status: 'FINISHED', volume_traded: 7 });
    expect(row.trade_price).toBeCloseTo((4 * 80_000 + 3 * 80_020) / 7, 4);
    expect(await contract(c)).toMatchObject({
      status: 'completed',
      executed_quantity: 10,
      frozen_quantity: 0,
      remaining_quantity: 0,
    });
    expect((await contract(c)).avg_price).toBeCloseTo((3 * 79_990 + 4 * 80_000 + 3 * 80_020) / 10, 4);
    await expect(submit(c, 1)).rejects.toMatchObject({ message: expect.stringContaining('合同已完成') });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('does not count a replayed trade twice (direct replay, gateway replay, repeated reconciles)', async () => {
    const { who, service, contract: mk, submit, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submit(c, 8, 80_010);
    await settle();
    const before = { order: await order(o.id), contract: await contract(c) };
    const trade = await db.selectFrom('trades').selectAll().where('order_id', '=', o.id).executeTakeFirstOrThrow();
    expect(
      await applyTrade(db, who.tenantId, o.id, {
        tradeId: trade.trade_id,
        volume: trade.volume,
        price: trade.price,
        at: trade.created_at,
      }),
    ).toBe('duplicate');
    await service.reconcile();
    await service.reconcile();
    // The sweep's look-up of the order at the broker and an insert of the same order replay everything too.
    await db.deleteFrom('order_dispatch').where('order_id', '=', o.id).execute();
    await db.updateTable('orders').set({ status: 'PENDING' }).where('id', '=', o.id).execute(); // as if 'accepted' was never applied
    await service.sweep();
    await settle();
    expect(await order(o.id)).toMatchObject({
      status: 'ALIVE',
      last_msg: '部分成交',
      volume_traded: before.order.volume_traded,
      trade_price: before.order.trade_price,
    });
    expect(await contract(c)).toMatchObject({
      executed_quantity: before.contract.executed_quantity,
      frozen_quantity: 3,
    });
    expect(await db.selectFrom('trades').select('id').where('order_id', '=', o.id).execute()).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
    expect(await exchangeProblems(db, who.tenantId)).toEqual([]);
  });

  it('sends orders whose created event was missed on the next sweep', async () => {
    const { who, service, contract: mk, settle } = await setup();
    const c = await mk('BUY', 10);
    const o = await submitOrder(db, who, { contract_id: c, quantity: 2, price: 80_010 }); // no events
    await settle();
    expect((await order(o.id)).status).toBe('PENDING');
    await service.sweep();
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'FINISHED', volume_traded: 2 });
  });

  it('a cancel answered just before the process died (its event lost) reaches the broker on a later sweep', async () => {
    const { who, service, contract: mk, submit, settle } = await setup({ resendAfterMs: 0 });
    const c = await mk('BUY', 10);
    const o = await submit(c, 3, 79_000);
    await settle();
    expect((await order(o.id)).status).toBe('ALIVE');
    const answer = await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader' }, o.id); // no events
    expect(answer).toEqual({ status: 'CANCEL_REQUESTED' });
    await settle();
    expect((await order(o.id)).status).toBe('ALIVE');
    await service.sweep();
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED', last_msg: '已撤单' });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('50 concurrent submits on one contract never oversell, and the books balance when all settles', async () => {
    const { who, service, contract: mk, submit, settle } = await setup();
    const total = 100;
    const c = await mk('BUY', total);
    const rnd = prng(42);
    let maxFrozen = 0;
    let running = true;
    const monitor = (async () => {
      while (running) {
        const row = await contract(c);
        maxFrozen = Math.max(maxFrozen, row.frozen_quantity);
        expect(row.executed_quantity + row.frozen_quantity + row.remaining_quantity).toBe(total);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const ticker = (async () => {
      for (let i = 0; i < 30 && running; i++) {
        const ask = 79_980 + Math.floor(rnd() * 5) * 10;
        quotes.set(CU, { ask_price1: ask, ask_volume1: 1 + Math.floor(rnd() * 4), bid_price1: ask - 10 });
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => submit(c, 1 + (i % 7), i % 3 === 0 ? 0 : 80_000 - (i % 4) * 10)),
    );
    running = false;
    await Promise.all([monitor, ticker]);
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(accepted).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0); // demand (200 lots) exceeds the contract
    for (const r of refused) expect(String((r as PromiseRejectedResult).reason.message)).toContain('剩余数量');
    expect(maxFrozen).toBeLessThanOrEqual(total);
    await settle();
    quotes.set(CU, { ask_price1: 79_900, ask_volume1: 3 });
    await settle();
    await service.expireSimOrders(FAR_FUTURE);
    await settle();
    const row = await contract(c);
    expect(row.frozen_quantity).toBe(0);
    expect(row.executed_quantity + row.remaining_quantity).toBe(total);
    expect(
      await db
        .selectFrom('orders')
        .select('id')
        .where('contract_id', '=', c)
        .where('status', 'in', ['PENDING', 'ALIVE'])
        .execute(),
    ).toEqual([]);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
    expect(await exchangeProblems(db, who.tenantId)).toEqual([]);
  });
});

/** A stand-in for the DIFF gateway, driven by the test. */
class ManualGateway implements TradingGateway {
  readonly inserted: GatewayOrder[] = [];
  readonly cancels: string[] = [];
  readonly states = new Map<string, GatewayOrderState>();
  private readonly listeners = new Set<(e: GatewayEvent) => void>();
  st: GatewayStatus = { status: 'error', message: '未连接' };
  hang = false;
  hold: Promise<void> | undefined;
  holding = false;
  failCancels = false;
  closed = false;
  async connect() {
    this.st = { status: 'ok' };
  }
  async close() {
    this.closed = true;
  }
  status() {
    return this.st;
  }
  onEvent(l: (e: GatewayEvent) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  private emit(e: GatewayEvent) {
    for (const l of this.listeners) l(e);
  }
  async insertOrder(o: GatewayOrder) {
    if (this.hang) await new Promise(() => {});
    if (this.hold) {
      this.holding = true;
      await this.hold;
    }
    this.inserted.push(o);
    if (!this.states.has(o.orderId))
      this.states.set(o.orderId, { known: true, status: 'ALIVE', volumeTraded: 0, trades: [] });
    this.emit({ type: 'accepted', orderId: o.orderId });
  }
  async cancelOrder(id: string) {
    if (this.failCancels) throw new Error('柜台未响应');
    this.cancels.push(id);
    const s = this.states.get(id);
    if (s?.status === 'ALIVE') {
      s.status = 'FINISHED';
      s.message = '已撤单';
      this.emit({ type: 'cancelled', orderId: id, message: '已撤单' });
    }
  }
  async queryOrder(id: string) {
    return this.states.get(id) ?? { known: false, volumeTraded: 0, trades: [] };
  }
  trade(id: string, volume: number, price: number) {
    const s = this.states.get(id)!;
    const t = { tradeId: `R${s.trades.length + 1}`, volume, price, at: new Date() };
    s.trades.push(t);
    s.volumeTraded += volume;
    this.emit({ type: 'trade', orderId: id, ...t });
  }
}

describe('real accounts and switching', () => {
  it('without a real gateway factory a real tenant reports an error and its orders wait', async () => {
    const { who, service, contract: mk, submit, settle } = await setup({ isSim: false });
    expect(service.status(who.tenantId)).toEqual({ status: 'error', message: GATEWAY_MESSAGES.realNotConfigured });
    const c = await mk('BUY', 5);
    const o = await submit(c, 2, 80_010);
    await service.sweep();
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'PENDING' });
    // The trader switches to the simulation: the waiting order goes out.
    await db.updateTable('tenants').set({ is_sim: true }).where('id', '=', who.tenantId).execute();
    await service.reconnect(who.tenantId);
    await settle();
    expect(service.status(who.tenantId)).toEqual({ status: 'ok' });
    expect(await order(o.id)).toMatchObject({ status: 'FINISHED', volume_traded: 2 });
  });

  it('routes to the real gateway; orders finish where they were sent across a sim ↔ real switch', async () => {
    const real = new ManualGateway();
    const { who, service, contract: mk, submit, settle } = await setup({ createRealGateway: () => real });
    const c = await mk('BUY', 20);
    const atSim = await submit(c, 3, 79_000); // rests at the sim broker
    await settle();
    expect((await order(atSim.id)).status).toBe('ALIVE');

    await db.updateTable('tenants').set({ is_sim: false }).where('id', '=', who.tenantId).execute();
    await service.reconnect(who.tenantId);
    expect(service.status(who.tenantId)).toEqual({ status: 'ok' });
    const atReal = await submit(c, 4, 80_000);
    await settle();
    expect(real.inserted.map((o) => o.orderId)).toEqual([String(atReal.id)]);
    expect(real.inserted[0]).toMatchObject({
      symbol: CU,
      direction: 'BUY',
      volume: 4,
      priceType: 'LIMIT',
      limitPrice: 80_000,
      offset: 'OPEN',
    });
    real.trade(String(atReal.id), 4, 79_995);
    await settle();
    expect(await order(atReal.id)).toMatchObject({ status: 'FINISHED', trade_price: 79_995 });

    // The sim order still lives at the sim broker: it fills there, and is applied.
    quotes.set(CU, { ask_price1: 78_990, ask_volume1: 10 });
    await settle();
    expect(await order(atSim.id)).toMatchObject({ status: 'FINISHED', trade_price: 78_990 });
    expect(real.inserted).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);

    // A cancel goes to the gateway that has the order.
    const resting = await submit(c, 2, 79_000);
    await settle();
    await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader' }, resting.id, service.events);
    await settle();
    expect(real.cancels).toEqual([String(resting.id)]);
    expect(await order(resting.id)).toMatchObject({ status: 'CANCELLED' });
    expect(await lots(c)).toEqual({ executed: 7, frozen: 0, remaining: 13 });
  });

  it('a real gateway that stops answering does not hold up another tenant', async () => {
    const real = new ManualGateway();
    real.hang = true;
    const stuck = await setup({ isSim: false, createRealGateway: () => real });
    const stuckContract = await stuck.contract('BUY', 5);
    const waiting = await stuck.submit(stuckContract, 1, 80_000);
    // Another tenant on the same service keeps trading.
    const other = await seedTenant(db);
    await stuck.service.reconnect(other.tenantId);
    const c = await seedContract(db, other, { symbol: CU, direction: 'BUY', total: 5 });
    const o = await submitOrder(db, other, { contract_id: c, quantity: 2, price: 80_010 }, stuck.service.events);
    services.splice(services.indexOf(stuck.service), 1); // its queue never drains: no idle() in afterEach
    try {
      await waitFor(async () => (await order(o.id)).status === 'FINISHED');
      expect(await order(waiting.id)).toMatchObject({ status: 'ALIVE', last_msg: '已发送' }); // taken, on its way
    } finally {
      await stuck.service.stop(50);
    }
  });

  it('a cancel while the order is on its way goes to the broker after it (nothing slips through)', async () => {
    const real = new ManualGateway();
    let release!: () => void;
    real.hold = new Promise<void>((r) => (release = r));
    const { who, service, contract: mk, submit, settle } = await setup({ isSim: false, createRealGateway: () => real });
    const c = await mk('BUY', 10);
    const o = await submit(c, 4, 80_000);
    await waitFor(() => real.holding);
    // Taken by the router and in the broker's hands: a PENDING-style local cancel would lose the order.
    expect(await order(o.id)).toMatchObject({ status: 'ALIVE', last_msg: '已发送' });
    expect(await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader' }, o.id, service.events)).toEqual({
      status: 'CANCEL_REQUESTED',
    });
    release();
    await settle();
    expect(real.inserted.map((x) => x.orderId)).toEqual([String(o.id)]);
    expect(real.cancels).toEqual([String(o.id)]);
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED', last_msg: '已撤单' });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('a cancel the broker did not take is sent again by the sweep', async () => {
    const real = new ManualGateway();
    const {
      who,
      service,
      contract: mk,
      submit,
      settle,
    } = await setup({ isSim: false, createRealGateway: () => real, resendAfterMs: 1 });
    const c = await mk('BUY', 10);
    const o = await submit(c, 4, 80_000);
    await settle();
    real.failCancels = true;
    await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader' }, o.id, service.events);
    await settle();
    expect((await order(o.id)).status).toBe('ALIVE');
    real.failCancels = false;
    await new Promise((r) => setTimeout(r, 1100)); // the record's age is measured by the database clock (seconds)
    await service.sweep();
    await settle();
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED' });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('an order taken but never handed over (crash between commit and send) is sent by the next reconcile', async () => {
    const real = new ManualGateway();
    const { who, service, contract: mk, settle } = await setup({ isSim: false, createRealGateway: () => real });
    const c = await mk('BUY', 10);
    const o = await submitOrder(db, who, { contract_id: c, quantity: 2, price: 80_000 });
    const { claimOrder } = await import('./apply');
    await claimOrder(db, who.tenantId, o.id, `real:模拟期货:8001`); // …and the process died here
    expect(await order(o.id)).toMatchObject({ status: 'ALIVE', last_msg: '已发送' });
    await service.reconcile();
    await settle();
    expect(real.inserted.map((x) => x.orderId)).toEqual([String(o.id)]);
    expect(await order(o.id)).toMatchObject({ status: 'ALIVE', last_msg: '已报单' });
    // An order the broker had accepted but has forgotten (a past trading day) is not sent again.
    real.states.delete(String(o.id));
    await service.reconcile();
    await settle();
    expect(real.inserted).toHaveLength(1);
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED', last_msg: '报单已失效（交易柜台无此报单）' });
    expect(await lots(c)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });
});
