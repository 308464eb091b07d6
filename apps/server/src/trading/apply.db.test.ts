/**
 * applyEvents: many events of many orders and tenants in one transaction give exactly the books that
 * the same events applied one at a time give (docs/performance.md, "Trading at 1,000 fixings per second").
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { submitOrder } from '../modules/orders/orders';
import { applyAccepted, applyEnded, applyEvents, applyTrade, claimOrder, type OrderEventInput } from './apply';
import { createTradingBatches } from './batches';
import { withTradingTestDb, seedContract, seedTenant } from '../../test/trading/testSupport';

const CU = 'SHFE.cu2601';
const AT = new Date('2026-01-05T02:00:00Z');

let db: Database;
withTradingTestDb((opened) => (db = opened));

/** Two customers of two companies, four claimed orders; the events of the scenario, in order. */
async function scenario() {
  const a = await seedTenant(db);
  const b = await seedTenant(db);
  const contract = await seedContract(db, a, { symbol: CU, direction: 'BUY', total: 20 });
  const theirs = await seedContract(db, b, { symbol: CU, direction: 'BUY', total: 20 });
  const order = async (who: typeof a, contractId: number, quantity: number) => {
    const o = await submitOrder(db, who, { contract_id: contractId, quantity, price: 0 });
    await claimOrder(db, who.tenantId, o.id, 'sim');
    return o.id;
  };
  const [filled, cancelled, late, foreign] = [
    await order(a, contract, 3),
    await order(a, contract, 2),
    await order(a, contract, 2),
    await order(b, theirs, 1),
  ];
  const fill = (tradeId: string, volume: number, price: number) =>
    ({ type: 'trade', tradeId, volume, price, at: AT }) as const;
  const events: OrderEventInput[] = [
    { tenantId: a.tenantId, orderId: filled, event: { type: 'accepted' } },
    { tenantId: a.tenantId, orderId: filled, event: fill('T1', 1, 80_010) },
    { tenantId: a.tenantId, orderId: filled, event: fill('T1', 1, 80_010) }, // the same fill again
    { tenantId: a.tenantId, orderId: cancelled, event: { type: 'accepted' } },
    { tenantId: a.tenantId, orderId: filled, event: fill('T2', 2, 80_020) },
    { tenantId: a.tenantId, orderId: cancelled, event: { type: 'ended', message: '已撤单' } },
    { tenantId: a.tenantId, orderId: late, event: { type: 'ended', message: '已撤单' } },
    { tenantId: a.tenantId, orderId: late, event: fill('T3', 1, 80_000) }, // a fill after our books cancelled it
    { tenantId: a.tenantId, orderId: foreign, event: { type: 'accepted' } }, // another company's order
  ];
  return { a, b, contract, theirs, orders: [filled, cancelled, late, foreign], events };
}

async function books(s: Awaited<ReturnType<typeof scenario>>) {
  const orders = await db
    .selectFrom('orders as o')
    .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
    .select(['o.status', 'o.last_msg', 'o.volume_traded', 'o.trade_price', 'd.accepted_at'])
    .where('o.id', 'in', s.orders)
    .orderBy('o.id')
    .execute();
  const trades = await db
    .selectFrom('trades')
    .select(['trade_id', 'volume', 'price'])
    .where('order_id', 'in', s.orders)
    .orderBy('trade_id')
    .execute();
  const contracts = await db
    .selectFrom('contracts')
    .select(['executed_quantity', 'frozen_quantity', 'remaining_quantity', 'avg_price', 'traded_amount', 'status'])
    .where('id', 'in', [s.contract, s.theirs])
    .orderBy('id')
    .execute();
  return {
    orders: orders.map(({ accepted_at, ...o }) => ({ ...o, confirmed: accepted_at !== null })),
    trades,
    contracts: contracts.map((c) => ({ ...c, traded_amount: Number(c.traded_amount) })),
  };
}

describe('applyEvents', () => {
  it('books a batch exactly as the same events one at a time', async () => {
    const batch = await scenario();
    const outcomes = await applyEvents(db, batch.events);
    expect(outcomes.map((o) => o.result)).toEqual([
      'applied',
      'applied',
      'duplicate',
      'applied',
      'applied',
      'applied',
      'applied',
      'applied',
      'unknown',
    ]);

    const one = await scenario();
    for (const { tenantId, orderId, event } of one.events) {
      if (event.type === 'accepted') await applyAccepted(db, tenantId, orderId);
      else if (event.type === 'trade') await applyTrade(db, tenantId, orderId, event);
      else await applyEnded(db, tenantId, orderId, event.message);
    }

    const got = await books(batch);
    expect(got).toEqual(await books(one));
    // And what that is, worked out by hand:
    expect(got.orders).toEqual([
      { status: 'FINISHED', last_msg: '全部成交', volume_traded: 3, trade_price: 80016.6667, confirmed: true }, // (80010 + 2 × 80020) / 3
      { status: 'CANCELLED', last_msg: '已撤单', volume_traded: 0, trade_price: 0, confirmed: true },
      { status: 'CANCELLED', last_msg: '已撤单', volume_traded: 1, trade_price: 80000, confirmed: true },
      { status: 'ALIVE', last_msg: '已发送', volume_traded: 0, trade_price: 0, confirmed: false }, // untouched
    ]);
    expect(got.contracts).toEqual([
      // 4 lots traded: 80010 + 2 × 80020 + 80000 = 320050; / 4 = 80012.5. Frozen 7, released 2 + 2, the late lot from remaining.
      {
        executed_quantity: 4,
        frozen_quantity: 0,
        remaining_quantity: 16,
        avg_price: 80012.5,
        traded_amount: 320050,
        status: 'active',
      },
      {
        executed_quantity: 0,
        frozen_quantity: 1,
        remaining_quantity: 19,
        avg_price: 0,
        traded_amount: 0,
        status: 'active',
      },
    ]);
  });

  it('changes nothing when one event is impossible; the batches apply the others and fail only that one', async () => {
    const s = await scenario();
    const [filled] = s.orders;
    const tooMuch: OrderEventInput = {
      tenantId: s.a.tenantId,
      orderId: filled!,
      event: { type: 'trade', tradeId: 'T9', volume: 4, price: 80_000, at: AT }, // the order has 3 lots
    };
    const before = await books(s);
    await expect(applyEvents(db, [...s.events.slice(0, 2), tooMuch])).rejects.toThrow(/exceed/);
    expect(await books(s)).toEqual(before);

    const batches = createTradingBatches(db);
    const results = await Promise.allSettled([...s.events.slice(0, 2), tooMuch].map((e) => batches.apply(e)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const after = await books(s);
    expect(after.orders[0]).toMatchObject({ status: 'ALIVE', last_msg: '部分成交', volume_traded: 1 });
    expect(after.trades).toEqual([{ trade_id: 'T1', volume: 1, price: 80010 }]);
  });
});
