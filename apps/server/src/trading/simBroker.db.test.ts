import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import type { GatewayEvent, GatewayOrder } from './gateway';
import { SimBroker, type SimBrokerOptions } from './simBroker';
import { nextClose, onTickGrid, SIM_MESSAGES } from './simRules';
import { FakeQuotes, withTradingTestDb, seedTenant, setMarket } from '../../test/trading/testSupport';
import { SimExchange } from '../market/simExchange';
import { shanghaiDate } from '../platform/time';

const CU = 'SHFE.cu2601';
const AU = 'SHFE.au2602';

let db: Database;
withTradingTestDb((opened) => (db = opened));

let quotes: FakeQuotes;
let clock: Date;
let tenantId: number;
const brokers: SimBroker[] = [];

beforeEach(async () => {
  quotes = new FakeQuotes({ [CU]: 10, [AU]: 0.02 });
  quotes.set(CU, {
    last_price: 80_000,
    bid_price1: 79_990,
    ask_price1: 80_010,
    bid_volume1: 5,
    ask_volume1: 5,
    upper_limit: 85_600,
    lower_limit: 74_400,
  });
  quotes.set(AU, {
    last_price: 600,
    bid_price1: 599.98,
    ask_price1: 600.02,
    bid_volume1: 3,
    ask_volume1: 3,
    upper_limit: 642,
    lower_limit: 558,
  });
  clock = new Date('2026-01-05T02:00:00Z'); // Monday 10:00 in Shanghai
  ({ tenantId } = await seedTenant(db));
});

async function broker(extra: Partial<SimBrokerOptions> = {}) {
  const b = new SimBroker({ db, tenantId, quotes, now: () => clock, expiryCheckMs: 0, ...extra });
  const events: GatewayEvent[] = [];
  b.onEvent((e) => events.push(e));
  await b.connect();
  brokers.push(b);
  return { b, events };
}

let ref = 0;
function order(o: Partial<GatewayOrder> = {}): GatewayOrder {
  return {
    orderId: String(++ref + 1_000_000),
    symbol: CU,
    direction: 'BUY',
    offset: 'OPEN',
    volume: 1,
    priceType: 'LIMIT',
    limitPrice: 80_000,
    ...o,
  };
}

const kinds = (events: GatewayEvent[], orderId: string) =>
  events
    .filter((e): e is Exclude<GatewayEvent, { type: 'status' }> => e.type !== 'status' && e.orderId === orderId)
    .map((e) =>
      e.type === 'trade'
        ? `trade ${e.volume}@${e.price}`
        : e.type === 'accepted'
          ? 'accepted'
          : `${e.type}: ${e.message}`,
    );

describe('SimBroker', () => {
  it('rests a limit order until the quote crosses, then fills at the quote', async () => {
    const { b, events } = await broker();
    const o = order({ volume: 2, limitPrice: 80_000 });
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted']);
    expect(b.restingOrders()).toHaveLength(1);
    quotes.set(CU, { ask_price1: 80_000, bid_price1: 79_990 }); // ask = limit: marketable
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 2@80000']);
    expect(b.restingOrders()).toHaveLength(0);
    const state = await b.queryOrder(o.orderId);
    expect(state).toMatchObject({ known: true, status: 'FINISHED', volumeTraded: 2 });
    expect(state.trades).toHaveLength(1);
  });

  it('fills a marketable limit order at once at the (better) ask', async () => {
    const { b, events } = await broker();
    const o = order({ limitPrice: 80_100 });
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 1@80010']);
  });

  it('sells when the bid reaches the limit, at the bid', async () => {
    const { b, events } = await broker();
    const o = order({ direction: 'SELL', limitPrice: 80_050 });
    await b.insertOrder(o);
    quotes.set(CU, { bid_price1: 80_060, ask_price1: 80_070 });
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 1@80060']);
  });

  it('fills partially what the level shows, rests the remainder and fills it on later ticks', async () => {
    const { b, events } = await broker();
    const o = order({ volume: 12, limitPrice: 80_010 });
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 5@80010']);
    expect(b.restingOrders()[0]).toMatchObject({ left: 7 });
    quotes.set(CU, { ask_price1: 80_000, ask_volume1: 4 });
    await b.idle();
    expect(b.restingOrders()[0]).toMatchObject({ left: 3 });
    quotes.tick([CU]); // the same level again: fresh volume
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 5@80010', 'trade 4@80000', 'trade 3@80000']);
    expect(await b.queryOrder(o.orderId)).toMatchObject({ status: 'FINISHED', volumeTraded: 12 });
    const ids = (await b.queryOrder(o.orderId)).trades.map((t) => t.tradeId);
    expect(new Set(ids).size).toBe(3);
  });

  it('shares one level among resting orders by price, then time', async () => {
    const { b, events } = await broker();
    const first = order({ volume: 3, limitPrice: 79_950 });
    const better = order({ volume: 3, limitPrice: 79_970 });
    const later = order({ volume: 3, limitPrice: 79_950 });
    for (const o of [first, better, later]) await b.insertOrder(o);
    quotes.set(CU, { ask_price1: 79_950, ask_volume1: 5 });
    await b.idle();
    expect(kinds(events, better.orderId)).toEqual(['accepted', 'trade 3@79950']);
    expect(kinds(events, first.orderId)).toEqual(['accepted', 'trade 2@79950']);
    expect(kinds(events, later.orderId)).toEqual(['accepted']);
  });

  it('fills a market order FAK at the best opposite price and cancels the rest', async () => {
    const { b, events } = await broker();
    const o = order({ volume: 8, priceType: 'MARKET', limitPrice: 0 });
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 5@80010', `cancelled: ${SIM_MESSAGES.fakRest}`]);
    expect(b.restingOrders()).toHaveLength(0);
    expect(await b.queryOrder(o.orderId)).toMatchObject({
      status: 'FINISHED',
      volumeTraded: 5,
      message: SIM_MESSAGES.fakRest,
    });
    const sell = order({ direction: 'SELL', volume: 2, priceType: 'MARKET', limitPrice: 0 });
    await b.insertOrder(sell);
    expect(kinds(events, sell.orderId)).toEqual(['accepted', 'trade 2@79990']);
  });

  it('cancels a market order with no opposite side at all', async () => {
    const { b, events } = await broker();
    quotes.set(CU, { ask_price1: Number.NaN, ask_volume1: 0 }); // limit-up: no sellers
    const o = order({ volume: 2, priceType: 'MARKET', limitPrice: 0 });
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted', `cancelled: ${SIM_MESSAGES.fakNone}`]);
  });

  it('rejects off-tick prices, prices outside the limits, unknown instruments and orders outside a session', async () => {
    const { b, events } = await broker();
    const cases: [GatewayOrder, string][] = [
      [order({ limitPrice: 80_005 }), SIM_MESSAGES.offTick],
      [order({ symbol: AU, limitPrice: 600.01 }), SIM_MESSAGES.offTick],
      [order({ limitPrice: 85_610 }), SIM_MESSAGES.outsideLimits],
      [order({ direction: 'SELL', limitPrice: 74_390 }), SIM_MESSAGES.outsideLimits],
      [order({ symbol: 'SHFE.xx9999' }), SIM_MESSAGES.unknownInstrument],
      [order({ volume: 0 }), SIM_MESSAGES.badVolume],
      [order({ volume: -2 }), SIM_MESSAGES.badVolume],
      [order({ limitPrice: Number.NaN }), SIM_MESSAGES.badPrice],
    ];
    for (const [o, message] of cases) {
      await b.insertOrder(o);
      expect(kinds(events, o.orderId)).toEqual([`rejected: ${message}`]);
      expect(await b.queryOrder(o.orderId)).toMatchObject({
        known: true,
        status: 'FINISHED',
        volumeTraded: 0,
        message,
      });
    }
    // On the grid and at the limit itself is fine.
    const ok = order({ symbol: AU, limitPrice: 558, direction: 'BUY' });
    await b.insertOrder(ok);
    expect(kinds(events, ok.orderId)).toEqual(['accepted']);

    const { b: closed, events: closedEvents } = await broker({ isTrading: (symbol) => symbol !== CU });
    const night = order();
    await closed.insertOrder(night);
    expect(kinds(closedEvents, night.orderId)).toEqual([`rejected: ${SIM_MESSAGES.notTrading}`]);
  });

  it('with MARKET_SESSIONS=real fixes at night on a night product, refuses one without, and before a holiday', async () => {
    // The exchange's sessions and calendar decide (market/calendar.ts inSession, docs/calendar.md).
    const sim = new SimExchange({ seed: 1, sessions: 'real', now: () => clock });
    const JD = 'DCE.jd2601'; // 鸡蛋: no night session
    quotes.addInstrument(JD, 1);
    setMarket(quotes, JD, 3_200);
    const { b, events } = await broker({ isTrading: (symbol, at) => sim.isTrading(symbol, at) });
    clock = shanghaiDate('2025-12-18 21:30'); // Thursday night
    const copper = order({ limitPrice: 80_010 });
    await b.insertOrder(copper);
    expect(kinds(events, copper.orderId)).toEqual(['accepted', 'trade 1@80010']);
    const eggs = order({ symbol: JD, limitPrice: 3_200 });
    await b.insertOrder(eggs);
    expect(kinds(events, eggs.orderId)).toEqual([`rejected: ${SIM_MESSAGES.notTrading}`]);
    // 2025-12-31 (Wednesday) is the eve of 元旦: no night session, copper included.
    clock = shanghaiDate('2025-12-31 21:30');
    const eve = order();
    await b.insertOrder(eve);
    expect(kinds(events, eve.orderId)).toEqual([`rejected: ${SIM_MESSAGES.notTrading}`]);
  });

  it('does not match resting orders outside a session', async () => {
    let open = true;
    const { b, events } = await broker({ isTrading: () => open });
    const o = order({ limitPrice: 79_990 });
    await b.insertOrder(o);
    open = false;
    quotes.set(CU, { ask_price1: 79_980 });
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted']);
    open = true;
    quotes.tick([CU]);
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 1@79980']);
  });

  it('is idempotent by order id: a second insert replays the order instead of duplicating it', async () => {
    const { b, events } = await broker();
    const o = order({ volume: 7, limitPrice: 80_010 });
    await b.insertOrder(o);
    await b.insertOrder(o);
    expect(kinds(events, o.orderId)).toEqual(['accepted', 'trade 5@80010', 'accepted', 'trade 5@80010']);
    const rows = await db.selectFrom('sim_orders').selectAll().where('order_ref', '=', o.orderId).execute();
    expect(rows).toHaveLength(1);
    expect(b.restingOrders()).toHaveLength(1);
    const rejected = order({ limitPrice: 10 });
    await b.insertOrder(rejected);
    quotes.set(CU, { lower_limit: 10 }); // the market moved: a re-send still gets the original answer
    await b.insertOrder(rejected);
    expect(kinds(events, rejected.orderId)).toEqual([
      `rejected: ${SIM_MESSAGES.outsideLimits}`,
      `rejected: ${SIM_MESSAGES.outsideLimits}`,
    ]);
  });

  it('cancels a resting order; cancelling again replays the result', async () => {
    const { b, events } = await broker();
    const o = order({ volume: 3, limitPrice: 79_000 });
    await b.insertOrder(o);
    await b.cancelOrder(o.orderId);
    expect(kinds(events, o.orderId)).toEqual(['accepted', `cancelled: ${SIM_MESSAGES.cancelled}`]);
    expect(b.restingOrders()).toHaveLength(0);
    quotes.set(CU, { ask_price1: 78_000 });
    await b.idle();
    await b.cancelOrder(o.orderId);
    expect(kinds(events, o.orderId)).toEqual([
      'accepted',
      `cancelled: ${SIM_MESSAGES.cancelled}`,
      'accepted',
      `cancelled: ${SIM_MESSAGES.cancelled}`,
    ]);
    await expect(b.cancelOrder('424242')).rejects.toThrow('报单不存在');
    expect(await b.queryOrder('424242')).toEqual({ known: false, volumeTraded: 0, trades: [] });
  });

  it('expires resting orders at the close of their trading day', async () => {
    const { b, events } = await broker();
    const today = order({ limitPrice: 79_000 });
    await b.insertOrder(today);
    clock = new Date('2026-01-05T08:00:00Z'); // 16:00 Shanghai: after the close, belongs to Tuesday
    const tomorrow = order({ limitPrice: 79_000 });
    await b.insertOrder(tomorrow);
    await b.expire(new Date('2026-01-05T06:59:59Z'));
    expect(b.restingOrders()).toHaveLength(2);
    await b.expire(new Date('2026-01-05T07:00:00Z')); // Monday 15:00
    expect(kinds(events, today.orderId)).toEqual(['accepted', `cancelled: ${SIM_MESSAGES.expired}`]);
    expect(b.restingOrders().map((o) => o.orderId)).toEqual([tomorrow.orderId]);
    await b.expire(new Date('2026-01-06T07:00:00Z'));
    expect(kinds(events, tomorrow.orderId)).toEqual(['accepted', `cancelled: ${SIM_MESSAGES.expired}`]);
  });

  it('expires by its own timer with a configurable close', async () => {
    const { b, events } = await broker({ expiryCheckMs: 5, closeTime: '10:30' });
    const o = order({ limitPrice: 79_000 });
    await b.insertOrder(o);
    clock = new Date('2026-01-05T02:30:00Z'); // 10:30 Shanghai
    await new Promise((r) => setTimeout(r, 50));
    await b.idle();
    expect(kinds(events, o.orderId)).toEqual(['accepted', `cancelled: ${SIM_MESSAGES.expired}`]);
  });

  it('keeps its book across a restart: a new instance loads resting orders, fills and expires them', async () => {
    const { b } = await broker();
    const o = order({ volume: 9, limitPrice: 80_010 });
    const rest = order({ volume: 1, limitPrice: 79_000 });
    await b.insertOrder(o);
    await b.insertOrder(rest);
    await b.close();
    const { b: again, events } = await broker();
    expect(again.restingOrders().map((r) => [r.orderId, r.left])).toEqual([
      [o.orderId, 4],
      [rest.orderId, 1],
    ]);
    quotes.tick([CU]);
    await again.idle();
    expect(kinds(events, o.orderId)).toEqual(['trade 4@80010']);
    const state = await again.queryOrder(o.orderId);
    expect(state.trades.map((t) => t.volume)).toEqual([5, 4]);
    expect(new Set(state.trades.map((t) => t.tradeId)).size).toBe(2);
    await again.close();
    clock = new Date('2026-01-06T01:00:00Z'); // the next morning: yesterday's orders died at the close
    const { b: nextDay, events: nextEvents } = await broker();
    expect(nextDay.restingOrders()).toHaveLength(0);
    expect(kinds(nextEvents, rest.orderId)).toEqual([`cancelled: ${SIM_MESSAGES.expired}`]);
  });

  it('fills many resting orders in one pass, and two instances of one account never fill an order twice', async () => {
    const { b: one, events: oneEvents } = await broker();
    const orders = [order({ volume: 2 }), order({ volume: 3 }), order({ volume: 1 })];
    for (const o of orders) await one.insertOrder(o);
    const { b: two, events: twoEvents } = await broker(); // loads the same three resting orders
    expect(two.restingOrders()).toHaveLength(3);
    quotes.set(CU, { ask_price1: 80_000, ask_volume1: 50 }); // crosses all three, at once on both
    await Promise.all([one.idle(), two.idle()]);
    await one.idle();
    await two.idle();
    for (const o of orders) {
      const trades = await db.selectFrom('sim_trades').selectAll().where('order_ref', '=', o.orderId).execute();
      expect(trades.map((t) => t.volume)).toEqual([o.volume]);
      const row = await db
        .selectFrom('sim_orders')
        .select(['status', 'volume_traded'])
        .where('tenant_id', '=', tenantId)
        .where('order_ref', '=', o.orderId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'FILLED', volume_traded: o.volume });
      // The fill is reported once, by the instance whose pass was written.
      const reported = [...kinds(oneEvents, o.orderId), ...kinds(twoEvents, o.orderId)].filter((k) =>
        k.startsWith('trade'),
      );
      expect(reported).toEqual([`trade ${o.volume}@80000`]);
    }
  });

  it('computes the close of the trading day in Shanghai time, skipping weekends', () => {
    expect(nextClose(new Date('2026-01-05T02:00:00Z')).toISOString()).toBe('2026-01-05T07:00:00.000Z');
    expect(nextClose(new Date('2026-01-05T07:00:00Z')).toISOString()).toBe('2026-01-06T07:00:00.000Z');
    expect(nextClose(new Date('2026-01-09T13:00:00Z')).toISOString()).toBe('2026-01-12T07:00:00.000Z'); // Friday 21:00
    expect(nextClose(new Date('2026-01-04T17:00:00Z')).toISOString()).toBe('2026-01-05T07:00:00.000Z'); // Monday 01:00
    expect(nextClose(new Date('2026-01-05T02:00:00Z'), '11:30').toISOString()).toBe('2026-01-05T03:30:00.000Z');
    expect(() => nextClose(new Date(), '3pm')).toThrow();
    expect(onTickGrid(600.02, 0.02)).toBe(true);
    expect(onTickGrid(0.3, 0.1)).toBe(true);
    expect(onTickGrid(600.01, 0.02)).toBe(false);
  });
});

afterAll(async () => {
  for (const b of brokers) await b.close();
});
