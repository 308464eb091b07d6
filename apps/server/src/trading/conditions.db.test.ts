import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import {
  cancelConditional,
  createConditional,
  expireDueConditionals,
  triggerConditional,
} from '../modules/conditional/conditional';
import { expireDueContracts } from '../modules/controls/deadlines';
import { submitOrder } from '../modules/orders/orders';
import { shanghaiDate } from '../platform/time';
import { ConditionEngine, type TriggerOutcome } from './conditions';
import { createTradingService, type TradingService } from './service';
import {
  bookProblems,
  FakeQuotes,
  killSwitch,
  withTradingTestDb,
  seedContract,
  seedInstruments,
  seedTenant,
  waitFor,
} from '../../test/trading/testSupport';

/*
 * Conditional fixing orders (docs/conditional-orders.md) on the real database (PGlite and
 * PostgreSQL), the real trading service and its simulated broker: each way a condition could fire
 * twice, or never, is its own test.
 */

const CU = 'SHFE.cu2601';

let db: Database;
withTradingTestDb((opened) => (db = opened));

const stoppers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

/** A market at `last` with liquidity on both sides (a market order fills at once). */
function quotesAt(last: number) {
  const quotes = new FakeQuotes({ [CU]: 10 });
  quotes.set(CU, book(last));
  return quotes;
}
const book = (last: number) => ({
  last_price: last,
  bid_price1: last - 10,
  ask_price1: last + 10,
  bid_volume1: 100,
  ask_volume1: 100,
  upper_limit: 88_000,
  lower_limit: 72_000,
});

function service(quotes: FakeQuotes, over: Partial<Parameters<typeof createTradingService>[0]> = {}) {
  const s = createTradingService({
    trigger: triggerConditional,
    db,
    quotes,
    sweepMs: 60_000,
    simExpiryCheckMs: 0,
    ...over,
  });
  stoppers.push(() => s.stop());
  return s;
}

async function setup(total = 10) {
  const who = await seedTenant(db);
  const contractId = await seedContract(db, who, { symbol: CU, direction: 'BUY', total });
  return { who, contractId };
}

const cond = (id: number) =>
  db.selectFrom('conditional_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ordersOf = (contractId: number) =>
  db.selectFrom('orders').selectAll().where('contract_id', '=', contractId).orderBy('id').execute();
const lots = async (contractId: number) => {
  const c = await db.selectFrom('contracts').selectAll().where('id', '=', contractId).executeTakeFirstOrThrow();
  return { executed: c.executed_quantity, frozen: c.frozen_quantity, remaining: c.remaining_quantity };
};

const create = (
  who: { tenantId: number; pricerId: number },
  contractId: number,
  over: Partial<{
    quantity: number;
    trigger_op: '>=' | '<=';
    trigger_price: number;
    order_price: number;
    expires_at: string;
  }> = {},
  events?: TradingService['events'],
  now?: Date,
) =>
  createConditional(
    db,
    who,
    { contract_id: contractId, quantity: 3, trigger_op: '>=', trigger_price: 80_500, order_price: 0, ...over },
    events,
    now,
  );

describe('conditional orders: the order and its lots', () => {
  it('holds its lots from creation, so a manual fixing cannot take them; a cancel gives them back', async () => {
    const { who, contractId } = await setup(10);
    const k = await create(who, contractId, { quantity: 6 });
    expect(k).toMatchObject({ status: 'WAITING', quantity: 6, order_id: null });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 6, remaining: 4 });
    await expect(submitOrder(db, who, { contract_id: contractId, quantity: 5, price: 0 })).rejects.toMatchObject({
      kind: 'invalid',
      field: 'quantity',
      message: '成交数量不能超过剩余数量（剩余 4 手）',
    });
    // A second condition cannot take them either.
    await expect(create(who, contractId, { quantity: 5 })).rejects.toMatchObject({ field: 'quantity' });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);

    const cancelled = await cancelConditional(db, { ...who, actor: 'pricer' }, k.id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', order_id: null });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    // Cancelling again is refused and changes nothing.
    await expect(cancelConditional(db, { ...who, actor: 'pricer' }, k.id)).rejects.toMatchObject({ kind: 'conflict' });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('a crossing tick creates exactly one fixing order, which fills; its lots move from held to executed', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const s = service(quotes);
    await s.start();
    const up = await create(who, contractId, { quantity: 3, trigger_op: '>=', trigger_price: 80_500 }, s.events);
    const down = await create(who, contractId, { quantity: 2, trigger_op: '<=', trigger_price: 79_000 }, s.events);
    await s.idle();
    expect(s.conditions.size(who.tenantId)).toBe(2);

    quotes.set(CU, book(80_490)); // below the trigger: nothing
    await s.idle();
    expect(await ordersOf(contractId)).toEqual([]);

    quotes.set(CU, book(80_500)); // '>=' is met at the threshold itself
    await waitFor(async () => (await ordersOf(contractId))[0]?.status === 'FINISHED');
    await s.idle();
    const [o] = await ordersOf(contractId);
    expect(o).toMatchObject({ volume_orign: 3, volume_traded: 3, limit_price: 0, status: 'FINISHED' });
    expect(await cond(up.id)).toMatchObject({ status: 'TRIGGERED', order_id: o!.id, trigger_last_price: 80_500 });
    expect((await cond(down.id)).status).toBe('WAITING');
    expect(await lots(contractId)).toEqual({ executed: 3, frozen: 2, remaining: 5 });

    quotes.set(CU, book(80_600)); // further ticks past the trigger fire nothing again
    await s.idle();
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a limit order price is sent as a limit order; an off-grid price is refused naming the field', async () => {
    const { who, contractId } = await setup(10);
    await seedInstruments(db, [CU]);
    await expect(create(who, contractId, { trigger_price: 80_505 })).rejects.toMatchObject({
      kind: 'invalid',
      field: 'trigger_price',
    });
    await expect(create(who, contractId, { order_price: 80_001 })).rejects.toMatchObject({
      kind: 'invalid',
      field: 'order_price',
    });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    const k = await create(who, contractId, { order_price: 80_510 });
    const r = await triggerConditional(db, k.id, 80_500);
    expect(r.outcome).toBe('triggered');
    expect((await ordersOf(contractId))[0]).toMatchObject({ limit_price: 80_510, status: 'PENDING' });
  });
});

describe('conditional orders: exactly once', () => {
  it('two triggers of one condition at the same instant: one order', async () => {
    const { who, contractId } = await setup(10);
    const k = await create(who, contractId);
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => triggerConditional(db, k.id, 80_500)));
    expect(outcomes.filter((o) => o.outcome === 'triggered')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'gone')).toHaveLength(3);
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 3, remaining: 7 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('two ticks at the same instant, seen by two engines watching the tenant: one order', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const k = await create(who, contractId);
    const outcomes: (TriggerOutcome['outcome'] | 'error')[] = [];
    const engines = [0, 1].map(
      () =>
        new ConditionEngine({
          trigger: triggerConditional,
          db,
          quotes,
          onTriggered: () => {},
          onOutcome: (_id, r) => outcomes.push(r.outcome),
        }),
    );
    for (const e of engines) {
      stoppers.push(() => e.stop());
      await e.watchTenant(who.tenantId);
    }
    quotes.set(CU, book(80_500));
    quotes.set(CU, book(80_510));
    await Promise.all(engines.map((e) => e.idle()));
    expect(engines.map((e) => e.attempts)).toEqual([1, 1]);
    expect(outcomes.sort()).toEqual(['gone', 'triggered']);
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect((await cond(k.id)).status).toBe('TRIGGERED');
  });

  it('a cancel racing the trigger: cancelled with no order, or triggered with one order, never both', async () => {
    const { who, contractId } = await setup(100);
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const k = await create(who, contractId, { quantity: 1 });
      // Started in both orders (on PGlite, which runs one transaction at a time, that decides who wins).
      const doCancel = () => cancelConditional(db, { ...who, actor: 'pricer' }, k.id);
      const doTrigger = () => triggerConditional(db, k.id, 80_500);
      const [cancel, trigger] =
        i % 2
          ? await Promise.allSettled([doCancel(), doTrigger()])
          : await Promise.allSettled([doTrigger(), doCancel()]).then(([t, c]) => [c, t] as const);
      const row = await cond(k.id);
      const orders = (await ordersOf(contractId)).filter((o) => o.id === row.order_id);
      if (row.status === 'CANCELLED') {
        expect(cancel.status).toBe('fulfilled');
        expect(trigger).toMatchObject({ status: 'fulfilled', value: { outcome: 'gone' } });
        expect(row.order_id).toBeNull();
      } else {
        expect(row.status).toBe('TRIGGERED');
        expect(cancel).toMatchObject({ status: 'rejected', reason: { kind: 'conflict' } });
        expect(trigger).toMatchObject({ status: 'fulfilled', value: { outcome: 'triggered' } });
        expect(orders).toHaveLength(1);
      }
      seen.add(row.status);
    }
    // Every lot is in exactly one place: held by nothing, frozen by the triggered orders, or back.
    const all = await ordersOf(contractId);
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: all.length, remaining: 100 - all.length });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a crash between the trigger and the send: the restarted service sends the order once, the condition does not fire again', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const k = await create(who, contractId);
    // The first life: its engine commits the trigger, and dies before handing the order to a router.
    const dying = new ConditionEngine({ db, quotes, trigger: triggerConditional, onTriggered: () => {} });
    await dying.watchTenant(who.tenantId);
    quotes.set(CU, book(80_500));
    await dying.idle();
    await dying.stop();
    expect(await ordersOf(contractId)).toMatchObject([{ status: 'PENDING' }]);

    // The next life: the outbox sends the PENDING order; the engine finds nothing waiting.
    const s = service(quotes);
    await s.start();
    expect(s.conditions.size(who.tenantId)).toBe(0);
    quotes.set(CU, book(80_520));
    await waitFor(async () => (await ordersOf(contractId))[0]?.status === 'FINISHED');
    await s.idle();
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect(await cond(k.id)).toMatchObject({ status: 'TRIGGERED', order_id: (await ordersOf(contractId))[0]!.id });
    expect(await lots(contractId)).toEqual({ executed: 3, frozen: 0, remaining: 7 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a crash inside the trigger transaction: nothing committed, the restarted service fires it once', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const k = await create(who, contractId);
    const ks = killSwitch(db);
    const dying = new ConditionEngine({ db: ks.db, quotes, trigger: triggerConditional, onTriggered: () => {} });
    await dying.watchTenant(who.tenantId);
    ks.killAfter(2); // the lock and the order insert pass; the transaction dies before its commit
    quotes.set(CU, book(80_500));
    await dying.idle();
    await dying.stop();
    expect(await ordersOf(contractId)).toEqual([]);
    expect((await cond(k.id)).status).toBe('WAITING');

    const s = service(quotes);
    await s.start();
    expect(s.conditions.size(who.tenantId)).toBe(1);
    quotes.set(CU, book(80_500)); // evaluated again from the first tick
    await waitFor(async () => (await ordersOf(contractId))[0]?.status === 'FINISHED');
    await s.idle();
    quotes.set(CU, book(80_520));
    await s.idle();
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a restart: the next service loads the waiting conditions and evaluates them from the first tick', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const first = service(quotes);
    await first.start();
    const k = await create(who, contractId, { trigger_op: '<=', trigger_price: 79_500 }, first.events);
    await first.idle();
    expect(first.conditions.size(who.tenantId)).toBe(1);
    await first.stop();

    // The price crossed while no server ran: nothing fired.
    quotes.set(CU, book(79_000));
    expect(await ordersOf(contractId)).toEqual([]);

    const second = service(quotes);
    await second.start();
    expect(second.conditions.size(who.tenantId)).toBe(1);
    quotes.set(CU, book(79_000)); // the first tick after the start
    await waitFor(async () => (await ordersOf(contractId))[0]?.status === 'FINISHED');
    await second.idle();
    expect(await cond(k.id)).toMatchObject({ status: 'TRIGGERED' });
    expect(await ordersOf(contractId)).toHaveLength(1);
  });

  it('a cancelled condition never fires', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const s = service(quotes);
    await s.start();
    const k = await create(who, contractId, {}, s.events);
    await s.idle();
    await cancelConditional(db, { ...who, actor: 'pricer' }, k.id, s.events);
    await s.idle();
    expect(s.conditions.size(who.tenantId)).toBe(0);
    quotes.set(CU, book(81_000));
    await s.idle();
    expect(await ordersOf(contractId)).toEqual([]);
    // Even an engine that still had it in memory cannot fire it: the transaction finds it cancelled.
    expect(await triggerConditional(db, k.id, 81_000)).toEqual({ outcome: 'gone' });
    expect(await ordersOf(contractId)).toEqual([]);
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });
});

describe('conditional orders: expiry and the contract', () => {
  it('expires at expires_at and gives the lots back; after it, a crossing fires nothing', async () => {
    const { who, contractId } = await setup(10);
    const clock = new Date('2026-03-02T02:00:00Z');
    const k = await create(who, contractId, { expires_at: '2026-03-02T03:00:00Z' }, undefined, clock);
    expect(k.expires_at.toISOString()).toBe('2026-03-02T03:00:00.000Z');
    expect(await expireDueConditionals(db, new Date('2026-03-02T02:59:59Z'))).not.toContain(k.id);
    expect(await triggerConditional(db, k.id, 81_000, new Date('2026-03-02T03:00:00Z'))).toEqual({ outcome: 'gone' });
    expect(await expireDueConditionals(db, new Date('2026-03-02T03:00:00Z'))).toContain(k.id);
    expect(await cond(k.id)).toMatchObject({ status: 'EXPIRED', last_msg: '已到有效期', order_id: null });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    // Idempotent: a second run (another instance) changes nothing.
    expect(await expireDueConditionals(db, new Date('2026-03-02T03:00:01Z'))).not.toContain(k.id);
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
    expect(await ordersOf(contractId)).toEqual([]);
  });

  it("defaults to the contract's fixing deadline close, refuses later or past times naming expires_at", async () => {
    const { who, contractId } = await setup(10);
    await db.updateTable('contracts').set({ fixing_deadline: '2026-03-06' }).where('id', '=', contractId).execute();
    const clock = shanghaiDate('2026-03-02 10:00');
    const k = await create(who, contractId, {}, undefined, clock);
    expect(k.expires_at.getTime()).toBe(shanghaiDate('2026-03-06 15:00').getTime());
    await expect(
      create(who, contractId, { expires_at: '2026-03-06T07:00:01Z' }, undefined, clock),
    ).rejects.toMatchObject({
      kind: 'invalid',
      field: 'expires_at',
      message: '有效期不能晚于点价截止日（2026-03-06 15:00）',
    });
    await expect(
      create(who, contractId, { expires_at: '2026-03-02T01:59:59Z' }, undefined, clock),
    ).rejects.toMatchObject({ kind: 'invalid', field: 'expires_at', message: '有效期必须晚于当前时间' });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 3, remaining: 7 });

    // The deadline passes: the contract expires and the condition with it, its lots back.
    const run = await expireDueContracts(db, { now: shanghaiDate('2026-03-06 15:00') });
    expect(run.expired).toContain(contractId);
    expect(run.conditionsExpired).toContain(k.id);
    expect(await cond(k.id)).toMatchObject({ status: 'EXPIRED', order_id: null });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 0, remaining: 10 });
  });

  it('a paused contract holds its conditions without firing; active again, the next crossing fires', async () => {
    const { who, contractId } = await setup(10);
    const quotes = quotesAt(80_000);
    const s = service(quotes, { conditionReloadMs: 0 });
    await s.start();
    const k = await create(who, contractId, {}, s.events);
    await s.idle();
    await db.updateTable('contracts').set({ status: 'paused' }).where('id', '=', contractId).execute();
    quotes.set(CU, book(80_600));
    await s.idle();
    expect(await ordersOf(contractId)).toEqual([]);
    expect((await cond(k.id)).status).toBe('WAITING');

    await db.updateTable('contracts').set({ status: 'active' }).where('id', '=', contractId).execute();
    await s.sweep(); // reads the waiting conditions again
    quotes.set(CU, book(80_600));
    await waitFor(async () => (await ordersOf(contractId))[0]?.status === 'FINISHED');
    await s.idle();
    expect(await ordersOf(contractId)).toHaveLength(1);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });
});
