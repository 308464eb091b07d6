import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { shanghaiDate } from '../../platform/time';
import { createTradingService, type TradingService } from '../../trading/service';
import {
  bookProblems,
  FakeQuotes,
  withTradingTestDb,
  seedInstruments,
  seedTenant,
} from '../../../test/trading/testSupport';
import { contractsView } from '../contracts/views';
import { ordersView } from '../orders/views';
import { runView } from '../../platform/views/engine';
import { createContractInput } from '@pfp/contract';
import { createContract, updateContractStatus } from '../contracts/contracts';
import { DEADLINE_MESSAGE, expireDueContracts, type DeadlineRun } from '../controls/deadlines';
import { cancelOrder, submitOrder } from '../orders/orders';
import { triggerConditional } from '../conditional/conditional';

/*
 * The rules of docs/fixing.md on the real database (PGlite and PostgreSQL): basis on the tick grid,
 * fixed prices of partial fills, and the fixing deadline on a running service and across a restart.
 */

const CU = 'SHFE.cu2601'; // tick 10, multiplier 5
const AU = 'SHFE.au2602'; // tick 0.02, multiplier 1000
const FE = 'DCE.i2601'; // tick 0.5, multiplier 100

let db: Database;
withTradingTestDb((opened) => (db = opened));
beforeAll(() => seedInstruments(db, [CU, AU, FE]));

/** Monday 2026-01-05 10:00 in Beijing. */
const MONDAY_10 = shanghaiDate('2026-01-05 10:00');

let quotes: FakeQuotes;
let clock: Date;
const services: TradingService[] = [];

beforeEach(() => {
  clock = MONDAY_10;
  quotes = new FakeQuotes({ [CU]: 10 });
  quotes.set(CU, {
    last_price: 80_000,
    bid_price1: 79_990,
    ask_price1: 80_010,
    bid_volume1: 5,
    ask_volume1: 3,
    upper_limit: 85_600,
    lower_limit: 74_400,
  });
});

afterEach(async () => {
  for (const s of services.splice(0)) {
    await s.idle();
    await s.stop();
  }
});

function startService() {
  const service = createTradingService({
    trigger: triggerConditional,
    db,
    quotes,
    now: () => clock,
    simExpiryCheckMs: 0,
    sweepMs: 60_000,
  });
  services.push(service);
  return service;
}

const terms = (over: Record<string, unknown> = {}) =>
  createContractInput.parse({
    pricer_id: 0,
    product_name: '铜',
    instrument_id: CU,
    direction: 'BUY',
    total_quantity: 10,
    basis: 0,
    fixing_deadline: '2026-03-31',
    ...over,
  });

async function newContract(who: { tenantId: number; pricerId: number }, over: Record<string, unknown> = {}) {
  return createContract(db, who.tenantId, 'trader-sub', terms({ pricer_id: who.pricerId, ...over }), clock);
}

/** The part of a run that concerns these contracts and orders (the database is shared by the file's tests). */
function only(
  run: DeadlineRun,
  ids: { contracts: number[]; orders: number[] },
): Omit<DeadlineRun, 'conditionsExpired'> {
  return {
    expired: run.expired.filter((id) => ids.contracts.includes(id)),
    cancelled: run.cancelled.filter((id) => ids.orders.includes(id)),
    cancelRequested: run.cancelRequested.filter((id) => ids.orders.includes(id)),
  };
}

const order = (id: number) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const contract = (id: number) => db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lots = async (id: number) => {
  const c = await contract(id);
  return {
    executed: c.executed_quantity,
    frozen: c.frozen_quantity,
    remaining: c.remaining_quantity,
    status: c.status,
  };
};

describe('contract terms', () => {
  it('stores a basis in fen off the tick grid (negative too) and refuses a third decimal, storing nothing', async () => {
    const who = await seedTenant(db);
    const accepted: [string, string, number][] = [
      ['铜', CU, 185],
      ['铜', CU, -15.5],
      ['黄金', AU, 1.23],
      ['黄金', AU, -0.01],
      ['铁矿石', FE, 2.25],
    ];
    for (const [product_name, instrument_id, basis] of accepted) {
      const c = await newContract(who, { product_name, instrument_id, basis });
      expect(c.basis, `${instrument_id} ${basis}`).toBe(basis);
      expect(c.fixing_deadline).toBe('2026-03-31');
    }
    const refused: [string, string, number, string][] = [
      ['铜', CU, 35.001, '基差最多两位小数（精确到分）'],
      ['黄金', AU, -0.005, '基差最多两位小数（精确到分）'],
      ['铁矿石', FE, 2e6, '基差超出范围（绝对值不超过 1,000,000 元）'],
    ];
    for (const [product_name, instrument_id, basis, message] of refused) {
      // Past the wire schema (a caller of the domain): the domain keeps the rule itself.
      const input = { ...terms({ pricer_id: who.pricerId, product_name, instrument_id }), basis };
      await expect(createContract(db, who.tenantId, 'trader-sub', input, clock)).rejects.toMatchObject({
        kind: 'invalid',
        field: 'basis',
        message,
      });
    }
    await expect(newContract(who, { fixing_deadline: '2026-01-04' })).rejects.toMatchObject({
      field: 'fixing_deadline',
      message: '点价截止日不能早于今天',
    });
    const rows = await db
      .selectFrom('contracts')
      .select('basis')
      .where('tenant_id', '=', who.tenantId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.basis)).toEqual(accepted.map((a) => a[2]));
    const audit = await db
      .selectFrom('audit_log')
      .select('payload')
      .where('tenant_id', '=', who.tenantId)
      .where('action', '=', 'create-contract')
      .execute();
    expect(audit).toHaveLength(accepted.length);
    expect(audit[0]!.payload).toMatchObject({ basis: 185, fixing_deadline: '2026-03-31' });
  });

  it('shows basis, deadline, multiplier and (after a fill) the average fixed price in the contracts view', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { basis: -30 });
    const view = await runView(db, contractsView, {}, { tenant_id: who.tenantId });
    expect(view.items[0]).toMatchObject({
      id: c.id,
      basis: -30,
      fixing_deadline: '2026-03-31',
      multiplier: 5,
      avg_fixed_price: null,
    });
  });
});

describe('fixed price', () => {
  it('is the average futures fill price plus the basis, on partial fills, for the order and the contract', async () => {
    const who = await seedTenant(db);
    const service = startService();
    await service.start();
    const c = await newContract(who, { basis: -30 });
    const events = service.events;

    // 5 lots at 80,010 limit: 3 fill at once (the ask shows 3), 2 rest; then 1 fills at 80,000; the last is cancelled.
    const o1 = await submitOrder(db, who, { contract_id: c.id, quantity: 5, price: 80_010 }, events, undefined, clock);
    expect(o1.basis).toBe(-30);
    await service.idle();
    quotes.set(CU, { ask_price1: 80_000, ask_volume1: 1 });
    await service.idle();
    await cancelOrder(db, { ...who, actor: 'pricer' }, o1.id, events);
    await service.idle();

    const trades = await db.selectFrom('trades').selectAll().where('order_id', '=', o1.id).orderBy('id').execute();
    expect(trades.map((t) => [t.volume, t.price])).toEqual([
      [3, 80_010],
      [1, 80_000],
    ]);
    // Independent reference: (3 × 80,010 + 1 × 80,000) / 4 = 80,007.5; − 30 = 79,977.5; × 4 lots × 5 = 1,599,550.
    const rows = await runView(db, ordersView, { filter: `id = ${o1.id}` }, { tenant_id: who.tenantId });
    expect(rows.items[0]).toMatchObject({
      volume_traded: '4',
      trade_price: 80_007.5,
      basis: -30,
      fixed_price: 79_977.5,
      multiplier: 5,
      fixed_amount: 1_599_550,
      status: 'CANCELLED',
    });

    // A second order fills 2 at 80,020: the contract's average fixed price is lot-weighted over both.
    quotes.set(CU, { ask_price1: 80_020, ask_volume1: 2 });
    const o2 = await submitOrder(db, who, { contract_id: c.id, quantity: 2, price: 0 }, events, undefined, clock);
    await service.idle();
    expect(await order(o2.id)).toMatchObject({ status: 'FINISHED', trade_price: 80_020 });
    const fixedOfOrders = [
      { lots: 4, fixed: 79_977.5 },
      { lots: 2, fixed: 79_990 },
    ];
    const weighted = fixedOfOrders.reduce((s, o) => s + o.lots * o.fixed, 0) / 6; // 479,890 / 6
    const view = await runView(db, contractsView, { filter: `id = ${c.id}` }, { tenant_id: who.tenantId });
    expect(view.items[0]!.executed_quantity).toBe(6);
    expect(view.items[0]!.avg_fixed_price as number).toBeCloseTo(weighted, 4);
    expect(view.items[0]!.avg_fixed_price as number).toBeCloseTo(79_981.6667, 4);

    // An order with nothing filled has no fixed price yet.
    quotes.set(CU, { ask_price1: 80_100, ask_volume1: 5 });
    const o3 = await submitOrder(db, who, { contract_id: c.id, quantity: 1, price: 80_000 }, events, undefined, clock);
    await service.idle();
    const open = await runView(db, ordersView, { filter: `id = ${o3.id}` }, { tenant_id: who.tenantId });
    expect(open.items[0]).toMatchObject({ status: 'ALIVE', basis: -30, fixed_price: null, fixed_amount: null });
    await cancelOrder(db, { ...who, actor: 'pricer' }, o3.id, events);
    await service.idle();
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });
});

describe('fixing deadline', () => {
  it('expires the contract at the close of its deadline day, cancels its live orders and returns their lots', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { fixing_deadline: '2026-01-05' });
    const other = await newContract(who, { fixing_deadline: '2026-01-06' });
    // A resting ALIVE order at the broker (79,000 under the 80,010 ask), and a PENDING one the router
    // has not taken yet (submitted without telling it; its sweep runs only every minute here).
    const service = startService();
    await service.start();
    const resting = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 3, price: 79_000 },
      service.events,
      undefined,
      clock,
    );
    await service.idle();
    const pending = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 2, price: 79_000 },
      undefined,
      undefined,
      clock,
    );
    expect(await order(resting.id)).toMatchObject({ status: 'ALIVE', last_msg: '已报单' });
    expect((await order(pending.id)).status).toBe('PENDING');
    expect(await lots(c.id)).toMatchObject({ frozen: 5, remaining: 5 });

    const beforeClose = new Date(shanghaiDate('2026-01-05 15:00').getTime() - 1);
    const ids = { contracts: [c.id, other.id], orders: [resting.id, pending.id] };
    expect(only(await expireDueContracts(db, { now: beforeClose, events: service.events }), ids)).toEqual({
      expired: [],
      cancelled: [],
      cancelRequested: [],
    });
    expect((await lots(c.id)).status).toBe('active');

    clock = shanghaiDate('2026-01-05 15:00');
    const run = only(await expireDueContracts(db, { now: clock, events: service.events }), ids);
    expect(run).toEqual({ expired: [c.id], cancelled: [pending.id], cancelRequested: [resting.id] });
    await service.idle();
    for (const id of [pending.id, resting.id]) {
      expect(await order(id)).toMatchObject({ status: 'CANCELLED', last_msg: DEADLINE_MESSAGE, volume_traded: 0 });
    }
    expect(await lots(c.id)).toEqual({ executed: 0, frozen: 0, remaining: 10, status: 'expired' });
    expect((await lots(other.id)).status).toBe('active');
    expect(await bookProblems(db, who.tenantId)).toEqual([]);

    // Fixing is refused with the reason, and the trader cannot reopen it.
    await expect(
      submitOrder(db, who, { contract_id: c.id, quantity: 1, price: 0 }, undefined, undefined, clock),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message: '合同已过点价截止日（2026-01-05），不能下单',
    });
    await expect(
      updateContractStatus(db, who.tenantId, 'trader-sub', { contract_id: c.id, new_status: 'active' }, clock),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'contract_past_deadline' });

    // Idempotent: a second run (another instance, the next tick) changes nothing.
    expect(only(await expireDueContracts(db, { now: clock, events: service.events }), ids)).toEqual({
      expired: [],
      cancelled: [],
      cancelRequested: [],
    });
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'payload'])
      .where('tenant_id', '=', who.tenantId)
      .where('actor', '=', 'system')
      .orderBy('id')
      .execute();
    // The broker's cancel of the live order ends it: its lots back on the contract (订单结束, the replay's row). That
    // cancel runs on its own: it may end the live order before the pending one's cancel is written (the order of
    // rows across the two orders is not fixed; within each it is).
    const ofOrder = (id: number) =>
      audit.filter((a) => (a.payload as { order_id?: number }).order_id === id).map((a) => a.action);
    expect(audit.map((a) => a.action)[0]).toBe('expire-contract');
    expect(audit).toHaveLength(4);
    expect(ofOrder(resting.id)).toEqual(['cancel-order', 'order-ended']);
    expect(ofOrder(pending.id)).toEqual(['cancel-order']);
  });

  it('refuses a submit from the close on even before the expiry has run, and names paused and completed contracts', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { fixing_deadline: '2026-01-05' });
    await expect(
      submitOrder(
        db,
        who,
        { contract_id: c.id, quantity: 1, price: 0 },
        undefined,
        undefined,
        shanghaiDate('2026-01-05 15:00'),
      ),
    ).rejects.toMatchObject({ kind: 'conflict', message: '合同已过点价截止日（2026-01-05），不能下单' });
    expect(await lots(c.id)).toMatchObject({ frozen: 0, remaining: 10, status: 'active' });

    const paused = await newContract(who, { status: 'paused' });
    await expect(
      submitOrder(db, who, { contract_id: paused.id, quantity: 1, price: 0 }, undefined, undefined, clock),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message: '合同已暂停，不能下单',
    });
    const done = await newContract(who);
    await db.updateTable('contracts').set({ status: 'completed' }).where('id', '=', done.id).execute();
    await expect(
      submitOrder(db, who, { contract_id: done.id, quantity: 1, price: 0 }, undefined, undefined, clock),
    ).rejects.toMatchObject({
      message: '合同已完成，不能下单',
    });
  });

  it('expires across a restart: a deadline passed while the server was down is applied at start-up', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { fixing_deadline: '2026-01-05', total_quantity: 10 });
    const first = startService();
    await first.start();
    // 4 lots at 80,010: 3 fill, 1 rests at the broker; then 2 lots submitted just before the crash,
    // committed (PENDING) but never taken by the router.
    const resting = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 4, price: 80_010 },
      first.events,
      undefined,
      clock,
    );
    await first.idle();
    expect(await order(resting.id)).toMatchObject({ status: 'ALIVE', volume_traded: 3 });
    const pending = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 2, price: 80_010 },
      undefined,
      undefined,
      clock,
    );
    await first.stop();
    services.splice(services.indexOf(first), 1);
    expect(await lots(c.id)).toEqual({ executed: 3, frozen: 3, remaining: 4, status: 'active' });

    // Down over the close. At start-up, as main.ts does: the deadline run first (so that no order of
    // an expired contract is sent), then the trading service, whose reconcile finishes the cancel.
    clock = shanghaiDate('2026-01-06 09:00');
    const ids = { contracts: [c.id], orders: [resting.id, pending.id] };
    const run = only(await expireDueContracts(db, { now: clock }), ids);
    expect(run).toEqual({ expired: [c.id], cancelled: [pending.id], cancelRequested: [resting.id] });
    const second = startService();
    await second.start();
    await second.idle();
    expect(await order(pending.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: DEADLINE_MESSAGE,
      volume_traded: 0,
    });
    expect(await order(resting.id)).toMatchObject({
      status: 'CANCELLED',
      last_msg: DEADLINE_MESSAGE,
      volume_traded: 3,
    });
    expect(await lots(c.id)).toEqual({ executed: 3, frozen: 0, remaining: 7, status: 'expired' });
    // The exchange never saw the PENDING order, and the resting lot is dead there.
    const sim = await db
      .selectFrom('sim_orders')
      .select(['order_ref', 'status', 'volume_traded'])
      .where('tenant_id', '=', who.tenantId)
      .execute();
    expect(sim).toEqual([{ order_ref: String(resting.id), status: 'CANCELLED', volume_traded: 3 }]);
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('finishes a run that died between expiring the contract and cancelling its orders', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { fixing_deadline: '2026-01-05' });
    const o = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 2, price: 79_000 },
      undefined,
      undefined,
      clock,
    );
    // The first transaction committed, then the process died.
    await db.updateTable('contracts').set({ status: 'expired' }).where('id', '=', c.id).execute();
    clock = shanghaiDate('2026-01-05 16:00');
    const run = only(await expireDueContracts(db, { now: clock }), { contracts: [c.id], orders: [o.id] });
    expect(run).toEqual({ expired: [], cancelled: [o.id], cancelRequested: [] });
    expect(await order(o.id)).toMatchObject({ status: 'CANCELLED', last_msg: DEADLINE_MESSAGE });
    expect(await lots(c.id)).toMatchObject({ frozen: 0, remaining: 10 });
  });

  it('leaves the orders of a contract the trader expired by hand before its deadline alone', async () => {
    const who = await seedTenant(db);
    const c = await newContract(who, { fixing_deadline: '2026-02-27' });
    const o = await submitOrder(
      db,
      who,
      { contract_id: c.id, quantity: 2, price: 79_000 },
      undefined,
      undefined,
      clock,
    );
    await updateContractStatus(db, who.tenantId, 'trader-sub', { contract_id: c.id, new_status: 'expired' }, clock);
    const run = await expireDueContracts(db, { now: shanghaiDate('2026-01-06 10:00') });
    expect(run.cancelled).not.toContain(o.id);
    expect((await order(o.id)).status).toBe('PENDING');
    await cancelOrder(db, { tenantId: who.tenantId, actor: 'trader-sub' }, o.id);
  });
});
