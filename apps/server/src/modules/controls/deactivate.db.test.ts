import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { createConditional, triggerConditional } from '../conditional/conditional';
import { submitOrder } from '../orders/orders';
import { applyTrade, claimOrder } from '../../trading/apply';
import { createTradingService } from '../../trading/service';
import type { TradingPort } from '../../trading/orderLife';
import { changePricerStatus, finishStops, pricerDeactivatePreview } from './deactivate';
import {
  bookProblems,
  FakeQuotes,
  seedContract,
  seedTenant,
  withTradingTestDb,
} from '../../../test/trading/testSupport';

/*
 * 停用 means stop (issue 30, docs/security.md): a deactivated customer's working orders are cancelled,
 * their 条件单 cancelled, their tokens end for good; and a trigger racing the 停用 never leaves an order
 * working for them. Runs on PGlite and on PostgreSQL (real concurrency).
 */

const CU = 'SHFE.cu2601';
let db: Database;
withTradingTestDb((opened) => (db = opened));

const stoppers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

const book = (last: number) => ({
  last_price: last,
  bid_price1: last - 10,
  ask_price1: last + 10,
  bid_volume1: 100,
  ask_volume1: 100,
  upper_limit: 88_000,
  lower_limit: 72_000,
});

const order = (id: number) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const cond = (id: number) =>
  db.selectFrom('conditional_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const pricer = (id: number) => db.selectFrom('pricer_users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lots = async (id: number) => {
  const c = await db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { executed: c.executed_quantity, frozen: c.frozen_quantity, remaining: c.remaining_quantity };
};
/** The customer's orders still working and not being cancelled. */
const working = (pricerId: number) =>
  db
    .selectFrom('orders as o')
    .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
    .select(['o.id', 'o.status'])
    .where('o.pricer_id', '=', pricerId)
    .where((eb) =>
      eb.or([
        eb('o.status', '=', 'PENDING'),
        eb.and([eb('o.status', '=', 'ALIVE'), eb('d.cancel_requested_at', 'is', null)]),
      ]),
    )
    .execute();

async function setup(total = 50) {
  const who = await seedTenant(db);
  const contractId = await seedContract(db, who, { symbol: CU, direction: 'BUY', total });
  return { who, contractId };
}

const setStatus = (who: { tenantId: number; pricerId: number }, status: 'active' | 'inactive', events?: TradingPort) =>
  changePricerStatus(db, who.tenantId, 'trader-sub', { user_id: who.pricerId, new_status: status }, events);

const condition = (who: { tenantId: number; pricerId: number }, contractId: number, quantity = 1) =>
  createConditional(db, who, {
    contract_id: contractId,
    quantity,
    trigger_op: '>=',
    trigger_price: 80_500,
    order_price: 0,
  });

describe('停用: what it will do, then doing it', () => {
  it('counts, then cancels the working orders and 条件单 and ends every token issued before, for good', async () => {
    const { who, contractId } = await setup();
    const seen: number[] = [];
    const port: TradingPort = { created: () => {}, cancelRequested: (id) => seen.push(id) };
    const pending = await submitOrder(db, who, { contract_id: contractId, quantity: 2, price: 0 });
    const alive = await submitOrder(db, who, { contract_id: contractId, quantity: 3, price: 79_000 });
    await claimOrder(db, who.tenantId, alive.id, 'sim');
    const k = await condition(who, contractId, 4);
    expect(await pricerDeactivatePreview(db, who.tenantId, who.pricerId)).toEqual({
      user_id: who.pricerId,
      status: 'active',
      working_orders: 2,
      working_lots: 5,
      waiting_conditionals: 1,
      waiting_conditional_lots: 4,
    });
    const other = await seedTenant(db);
    await expect(pricerDeactivatePreview(db, other.tenantId, who.pricerId)).rejects.toMatchObject({
      kind: 'not_found',
      message: '客户不存在',
    });
    const before = (await pricer(who.pricerId)).token_version;

    expect(await setStatus(who, 'inactive', port)).toMatchObject({ status: 'inactive' });
    expect((await pricer(who.pricerId)).token_version).toBe(before + 1);
    expect(await order(pending.id)).toMatchObject({ status: 'CANCELLED', last_msg: '客户已停用，已撤单' });
    expect(seen).toEqual([alive.id]);
    expect(await cond(k.id)).toMatchObject({ status: 'CANCELLED', last_msg: '客户已停用，已撤销', order_id: null });
    expect(await triggerConditional(db, k.id, 81_000)).toEqual({ outcome: 'gone' });
    // Only the ALIVE order's lots are still frozen (until the broker answers the cancel).
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 3, remaining: 47 });
    expect(await working(who.pricerId)).toEqual([]);
    // A fill the exchange reports after the 停用 is booked and flagged.
    await applyTrade(db, who.tenantId, alive.id, { tradeId: 'late', volume: 1, price: 79_000, at: new Date() });
    expect((await order(alive.id)).last_msg).toBe('客户已停用，已撤单，但撤单前交易所又成交 1 手');

    // 启用 does not bring the old token version back.
    await setStatus(who, 'active');
    expect((await pricer(who.pricerId)).token_version).toBe(before + 1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a 条件单 that waits for a deactivated customer is never watched, never fires, and the deadline job cancels it', async () => {
    const { who, contractId } = await setup();
    const quotes = new FakeQuotes({ [CU]: 10 });
    quotes.set(CU, book(80_000));
    const s = createTradingService({
      trigger: triggerConditional,
      db,
      quotes,
      sweepMs: 60_000,
      simExpiryCheckMs: 0,
      conditionReloadMs: 0,
    });
    stoppers.push(() => s.stop());
    await s.start();
    const k = await condition(who, contractId, 2);
    // As if created in the instant the 停用 committed (its own transaction missed it).
    await db.updateTable('pricer_users').set({ status: 'inactive' }).where('id', '=', who.pricerId).execute();
    await s.sweep();
    expect(s.conditions.size(who.tenantId)).toBe(0);
    const attempts = s.conditions.attempts;
    quotes.set(CU, book(80_600));
    await s.idle();
    expect(s.conditions.attempts).toBe(attempts);
    expect(await triggerConditional(db, k.id, 80_600)).toEqual({ outcome: 'blocked' });
    const run = await finishStops(db, s.events);
    expect(run.conditions).toContain(k.id);
    expect(await cond(k.id)).toMatchObject({ status: 'CANCELLED', order_id: null });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 50 });
  });
});

describe('停用 racing a trigger', () => {
  it('deactivate and trigger at once: never an order left working for the deactivated customer', async () => {
    const { who, contractId } = await setup(100);
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const k = await condition(who, contractId);
      // Started in both orders (on PGlite, which runs one transaction at a time, that decides who wins).
      const doDeactivate = () => setStatus(who, 'inactive');
      const doTrigger = () => triggerConditional(db, k.id, 80_500);
      const [off, trigger] =
        i % 2
          ? await Promise.allSettled([doDeactivate(), doTrigger()])
          : await Promise.allSettled([doTrigger(), doDeactivate()]).then(([t, d]) => [d, t] as const);
      expect(off.status).toBe('fulfilled');
      expect(trigger.status).toBe('fulfilled');
      const row = await cond(k.id);
      if (row.status === 'TRIGGERED') {
        // The trigger committed first: its order is cancelled by the 停用, never sent.
        outcomes.add('triggered, then stopped');
        expect(await order(row.order_id!)).toMatchObject({ status: 'CANCELLED', last_msg: '客户已停用，已撤单' });
      } else {
        outcomes.add('cancelled');
        expect(row).toMatchObject({ status: 'CANCELLED', order_id: null });
        expect(trigger).toMatchObject({ value: { outcome: 'gone' } });
      }
      expect(await working(who.pricerId)).toEqual([]);
      expect((await pricer(who.pricerId)).status).toBe('inactive');
      await setStatus(who, 'active');
    }
    // PGlite runs one transaction at a time, so the start order decides: both outcomes happened. On
    // PostgreSQL both usually do too (they did in every run so far), but only the invariant is asserted.
    if (process.env.TEST_DB === 'pglite')
      expect([...outcomes].sort()).toEqual(['cancelled', 'triggered, then stopped']);
    else expect(outcomes.size).toBeGreaterThan(0);
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 100 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });
});
