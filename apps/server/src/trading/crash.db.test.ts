import { describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { cancelOrder, submitOrder } from '../modules/orders/orders';
import { createTradingService } from './service';
import {
  bookProblems,
  exchangeProblems,
  FakeQuotes,
  killSwitch,
  withTradingTestDb,
  prng,
  seedContract,
  seedTenant,
} from '../../test/trading/testSupport';
import { triggerConditional } from '../modules/conditional/conditional';

const CU = 'SHFE.cu2601';
const AU = 'SHFE.au2602';
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

let db: Database;
withTradingTestDb((opened) => (db = opened));

const stats = { trades: 0, openAtCrash: 0, orders: 0, divergedAtCrash: 0 };

/**
 * A server dies in the middle of a flow of orders, cancels and ticks: from one query on, its
 * database handle fails (what was committed stays, a transaction in progress is rolled back,
 * nothing it still holds in memory reaches the database). A new service on the same database
 * must then bring every order in line with the simulated exchange's persisted book.
 */
describe('crash and restart', () => {
  it.each([3, 11, 25, 48, 90, 160, 320, 640, 100_000])(
    'a service killed after %i queries is repaired by the next one',
    async (killAt) => {
      const clock = new Date('2026-01-05T02:00:00Z');
      const quotes = new FakeQuotes({ [CU]: 10, [AU]: 0.02 });
      const cu = (mid: number, vol: number) => ({
        bid_price1: mid - 10,
        ask_price1: mid + 10,
        bid_volume1: vol,
        ask_volume1: vol,
        upper_limit: 85_600,
        lower_limit: 74_400,
      });
      const au = (mid: number, vol: number) => ({
        bid_price1: mid - 0.02,
        ask_price1: mid + 0.02,
        bid_volume1: vol,
        ask_volume1: vol,
        upper_limit: 642,
        lower_limit: 558,
      });
      quotes.set(CU, cu(80_000, 3));
      quotes.set(AU, au(600, 3));
      const who = await seedTenant(db);
      const contracts = [
        { id: await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 40 }), symbol: CU },
        { id: await seedContract(db, who, { symbol: CU, direction: 'SELL', total: 40 }), symbol: CU },
        { id: await seedContract(db, who, { symbol: AU, direction: 'BUY', total: 30 }), symbol: AU },
      ];

      // --- the first life ------------------------------------------------------------------------
      const ks = killSwitch(db);
      const first = createTradingService({
        trigger: triggerConditional,
        db: ks.db,
        quotes,
        now: () => clock,
        simExpiryCheckMs: 0,
        sweepMs: 15,
        resendAfterMs: 30,
      });
      await first.start();
      ks.killAfter(killAt);
      const rnd = prng(killAt);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const inFlight: Promise<unknown>[] = [];
      const submitted: number[] = [];
      let cuMid = 80_000;
      let auMid = 600;
      for (let step = 0; step < 150 && !ks.dead; step++) {
        const r = rnd();
        if (r < 0.45) {
          const c = pick(contracts);
          const mid = c.symbol === CU ? cuMid : auMid;
          const tick = c.symbol === CU ? 10 : 0.02;
          const market = rnd() < 0.3;
          const price = market ? 0 : Math.round((mid + (Math.floor(rnd() * 7) - 3) * tick) / tick) * tick;
          inFlight.push(
            submitOrder(
              ks.db,
              who,
              { contract_id: c.id, quantity: 1 + Math.floor(rnd() * 4), price: Number(price.toFixed(2)) },
              first.events,
            ).then(
              (o) => submitted.push(o.id),
              () => {},
            ),
          );
        } else if (r < 0.85) {
          if (rnd() < 0.5) quotes.set(CU, cu((cuMid += (Math.floor(rnd() * 5) - 2) * 10), 1 + Math.floor(rnd() * 4)));
          else
            quotes.set(
              AU,
              au((auMid = Number((auMid + (Math.floor(rnd() * 5) - 2) * 0.02).toFixed(2))), 1 + Math.floor(rnd() * 4)),
            );
        } else if (submitted.length) {
          inFlight.push(
            cancelOrder(ks.db, { tenantId: who.tenantId, actor: 'trader' }, pick(submitted), first.events).catch(
              () => {},
            ),
          );
        }
        if (rnd() < 0.4) await new Promise((res) => setTimeout(res, Math.floor(rnd() * 4)));
      }
      ks.kill(); // the process is gone
      await Promise.allSettled(inFlight);
      await first.stop(); // only lets its (failing) in-memory work run out: nothing more reaches the database
      stats.openAtCrash += (
        await db
          .selectFrom('orders')
          .select('id')
          .where('tenant_id', '=', who.tenantId)
          .where('status', 'in', ['PENDING', 'ALIVE'])
          .execute()
      ).length;
      // What the dead server left behind: the exchange knows more than our books.
      stats.divergedAtCrash += (await exchangeProblems(db, who.tenantId)).length;

      // --- the second life -----------------------------------------------------------------------
      const second = createTradingService({
        trigger: triggerConditional,
        db,
        quotes,
        now: () => clock,
        simExpiryCheckMs: 0,
        sweepMs: 60_000,
      });
      await second.start(); // reconcile
      await second.idle();
      expect(second.status(who.tenantId)).toEqual({ status: 'ok' });
      const pending = await db
        .selectFrom('orders')
        .select('id')
        .where('tenant_id', '=', who.tenantId)
        .where('status', '=', 'PENDING')
        .execute();
      expect(pending).toEqual([]);
      // Right after the restart the books already agree with the exchange (ALIVE ones included).
      expect(await bookProblems(db, who.tenantId)).toEqual([]);
      expect(await exchangeProblems(db, who.tenantId)).toEqual([]);

      // The market goes on, resting orders fill; then the close ends the day.
      for (let i = 0; i < 5; i++) {
        quotes.set(CU, cu((cuMid += i % 2 ? 20 : -20), 3));
        quotes.set(AU, au((auMid = Number((auMid + (i % 2 ? 0.04 : -0.04)).toFixed(2))), 3));
        await second.idle();
      }
      await second.expireSimOrders(FAR_FUTURE);
      await second.idle();
      const open = await db
        .selectFrom('orders')
        .select('id')
        .where('tenant_id', '=', who.tenantId)
        .where('status', 'in', ['PENDING', 'ALIVE'])
        .execute();
      expect(open).toEqual([]);
      expect(await bookProblems(db, who.tenantId)).toEqual([]);
      expect(await exchangeProblems(db, who.tenantId)).toEqual([]);
      for (const c of contracts) {
        const row = await db.selectFrom('contracts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
        expect(row.frozen_quantity).toBe(0);
        expect(row.executed_quantity + row.remaining_quantity).toBe(row.total_quantity);
      }
      const dupes = await db
        .selectFrom('trades')
        .select(['trade_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('tenant_id', '=', who.tenantId)
        .groupBy('trade_id')
        .having((eb) => eb.fn.countAll(), '>', 1)
        .execute();
      expect(dupes).toEqual([]);
      stats.trades += (
        await db.selectFrom('trades').select('id').where('tenant_id', '=', who.tenantId).execute()
      ).length;
      stats.orders += (
        await db.selectFrom('orders').select('id').where('tenant_id', '=', who.tenantId).execute()
      ).length;
      await second.stop();
    },
  );

  it('exercised real crashes (orders open at the crash, trades on both sides of it)', () => {
    expect(stats.orders).toBeGreaterThan(50);
    expect(stats.trades).toBeGreaterThan(20);
    expect(stats.openAtCrash).toBeGreaterThan(5);
    expect(stats.divergedAtCrash).toBeGreaterThan(0);
    console.log(stats);
  });
});
