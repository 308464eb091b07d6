import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { createTradingService, type TradingService } from '../../trading/service';
import {
  bookProblems,
  FakeQuotes,
  seedContract,
  seedInstruments,
  seedTenant,
  waitFor,
  withTradingTestDb,
} from '../../../test/trading/testSupport';
import { submitOrder } from './orders';
import type { TradingPort } from '../../trading/orderLife';
import { triggerConditional } from '../conditional/conditional';

/*
 * The one-statement submit (domain/orders.ts, docs/performance.md) against the checked path it stands
 * in for, on PGlite and PostgreSQL: what it remembers of a contract is only a hint, and the order it
 * takes for the tenant's gateway itself is sent exactly once, also when the process dies before.
 */

const CU = 'SHFE.cu2601'; // tick 10 (changed to 20 by one test)
const AU = 'SHFE.au2602'; // tick 0.02

let db: Database;
withTradingTestDb((opened) => (db = opened));
beforeAll(() => seedInstruments(db, [CU, AU]));

const services: TradingService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) {
    await s.idle();
    await s.stop();
  }
});

function startService() {
  const quotes = new FakeQuotes({ [AU]: 0.02 });
  // Resting: a buy at 500 meets no seller (the ask is 600).
  quotes.set(AU, {
    last_price: 550,
    bid_price1: 500,
    ask_price1: 600,
    bid_volume1: 5,
    ask_volume1: 5,
    upper_limit: 605,
    lower_limit: 495,
  });
  const service = createTradingService({ trigger: triggerConditional, db, quotes, sweepMs: 60_000 });
  services.push(service);
  return service;
}

const contractLots = (id: number) =>
  db
    .selectFrom('contracts')
    .select(['frozen_quantity', 'remaining_quantity'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const dispatch = (orderId: number) =>
  db.selectFrom('order_dispatch').selectAll().where('order_id', '=', orderId).executeTakeFirst();
const atBroker = (orderId: number) =>
  db.selectFrom('sim_orders').select('order_ref').where('order_ref', '=', String(orderId)).execute();

describe('the one-statement submit', () => {
  it("checks a contract's instrument tick again: a price off a tick changed since the last fixing is refused, nothing frozen", async () => {
    const who = await seedTenant(db);
    const c = await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 10 });
    await submitOrder(db, who, { contract_id: c, quantity: 1, price: 80_010 }); // remembers CU's tick 10
    await db.updateTable('instruments').set({ price_tick: 20 }).where('symbol', '=', CU).execute();
    try {
      const refused = submitOrder(db, who, { contract_id: c, quantity: 1, price: 80_010 });
      await expect(refused).rejects.toMatchObject({ field: 'price' });
      expect(await contractLots(c)).toEqual({ frozen_quantity: 1, remaining_quantity: 9 });
      const placed = await db.selectFrom('orders').select('id').where('contract_id', '=', c).execute();
      expect(placed).toHaveLength(1);
    } finally {
      await db.updateTable('instruments').set({ price_tick: 10 }).where('symbol', '=', CU).execute();
    }
  });

  it("takes the order for the tenant's gateway in its own statement when the router runs here, and the broker gets it once", async () => {
    const who = await seedTenant(db);
    const c = await seedContract(db, who, { symbol: AU, direction: 'BUY', total: 10 });
    const service = startService();
    await service.start();
    // The contract's first fixing takes the checked path: PENDING, claimed by the router.
    const first = await submitOrder(db, who, { contract_id: c, quantity: 1, price: 500 }, service.events);
    expect(first.status).toBe('PENDING');
    await service.idle();
    const second = await submitOrder(db, who, { contract_id: c, quantity: 2, price: 500 }, service.events);
    expect(second).toMatchObject({ status: 'ALIVE', last_msg: '已发送' });
    expect(await dispatch(second.id)).toMatchObject({ tenant_id: who.tenantId, gateway_key: 'sim' });
    await service.idle();
    await waitFor(async () => (await dispatch(second.id))?.accepted_at != null);
    expect(await atBroker(second.id)).toHaveLength(1);
    expect(await contractLots(c)).toEqual({ frozen_quantity: 3, remaining_quantity: 7 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('leaves the order PENDING, with no dispatch, when no router runs here', async () => {
    const who = await seedTenant(db);
    const c = await seedContract(db, who, { symbol: AU, direction: 'BUY', total: 10 });
    const created: number[] = [];
    const events: TradingPort = { claimFor: () => undefined, created: (id) => created.push(id), cancelRequested() {} };
    await submitOrder(db, who, { contract_id: c, quantity: 1, price: 500 }, events);
    const warm = await submitOrder(db, who, { contract_id: c, quantity: 1, price: 500 }, events);
    expect(warm).toMatchObject({ status: 'PENDING', last_msg: '等待发送' });
    expect(await dispatch(warm.id)).toBeUndefined();
    expect(created).toContain(warm.id);
  });

  it('an order taken at submit by a process that died before sending it is sent once by the next one', async () => {
    const who = await seedTenant(db);
    const c = await seedContract(db, who, { symbol: AU, direction: 'BUY', total: 10 });
    await submitOrder(db, who, { contract_id: c, quantity: 1, price: 500 }); // the contract's first fixing (checked path)
    // A process whose router would take it, dead right after the commit: nobody hears of the order.
    const dying: TradingPort = { claimFor: () => 'sim', created() {}, cancelRequested() {} };
    const taken = await submitOrder(db, who, { contract_id: c, quantity: 1, price: 500 }, dying);
    expect(taken.status).toBe('ALIVE');
    expect(await atBroker(taken.id)).toHaveLength(0);

    const service = startService(); // the next process: its start-up reconciliation finds it
    await service.start();
    await waitFor(async () => (await dispatch(taken.id))?.accepted_at != null);
    await service.idle();
    expect(await atBroker(taken.id)).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });
});
