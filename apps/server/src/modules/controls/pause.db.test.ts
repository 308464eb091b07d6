import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database';
import { createConditional, triggerConditional } from '../conditional/conditional';
import { submitOrder } from '../orders/orders';
import { applyEnded, applyTrade, claimOrder } from '../../trading/apply';
import { createTradingService } from '../../trading/service';
import type { TradingPort } from '../../trading/orderLife';
import { finishStops } from './deactivate';
import { changeContractStatus, contractPausePreview, stopPausedContract } from './pause';
import { updateContractStatus } from '../contracts/contracts';
import {
  bookProblems,
  FakeQuotes,
  seedContract,
  seedTenant,
  waitFor,
  withTradingTestDb,
} from '../../../test/trading/testSupport';

/*
 * 暂停 means stop (issue 30, docs/fixing.md "Pause and 停用"): a paused contract's working orders are
 * cancelled (PENDING here, ALIVE at the broker), its 条件单 never fire while paused and fire again
 * after 恢复, and a fill the exchange reports after the pause is booked and flagged.
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

function service(quotes: FakeQuotes) {
  const s = createTradingService({
    trigger: triggerConditional,
    db,
    quotes,
    sweepMs: 60_000,
    simExpiryCheckMs: 0,
    conditionReloadMs: 0,
  });
  stoppers.push(async () => {
    await s.expireSimOrders(new Date('2100-01-01T00:00:00Z'));
    await s.idle();
    await s.stop();
  });
  return s;
}

/** A port that only records what it is told (no router runs). */
function recordingPort() {
  const seen = { cancelRequested: [] as number[], conditionChanged: [] as number[] };
  const port: TradingPort = {
    created: () => {},
    cancelRequested: (id) => seen.cancelRequested.push(id),
    conditionChanged: (id) => seen.conditionChanged.push(id),
  };
  return { port, seen };
}

const order = (id: number) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const cond = (id: number) =>
  db.selectFrom('conditional_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const ordersOf = (contractId: number) =>
  db.selectFrom('orders').selectAll().where('contract_id', '=', contractId).orderBy('id').execute();
const lots = async (id: number) => {
  const c = await db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { executed: c.executed_quantity, frozen: c.frozen_quantity, remaining: c.remaining_quantity };
};
const dispatch = (orderId: number) =>
  db.selectFrom('order_dispatch').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
const auditOf = (tenantId: number, action: string) =>
  db
    .selectFrom('audit_log')
    .select(['actor', 'payload'])
    .where('tenant_id', '=', tenantId)
    .where('action', '=', action)
    .orderBy('id')
    .execute();

async function setup(total = 20) {
  const who = await seedTenant(db);
  const contractId = await seedContract(db, who, { symbol: CU, direction: 'BUY', total });
  return { who, contractId };
}

const pause = (tenantId: number, contractId: number, events?: TradingPort) =>
  changeContractStatus(db, tenantId, 'trader-sub', { contract_id: contractId, new_status: 'paused' }, events);
const resume = (tenantId: number, contractId: number, events?: TradingPort) =>
  changeContractStatus(db, tenantId, 'trader-sub', { contract_id: contractId, new_status: 'active' }, events);

describe('暂停: what it will do, then doing it', () => {
  it('the preview counts the working orders and waiting 条件单; the pause cancels and suspends exactly those', async () => {
    const { who, contractId } = await setup();
    const { port, seen } = recordingPort();
    const pending = await submitOrder(db, who, { contract_id: contractId, quantity: 2, price: 0 });
    const alive = await submitOrder(db, who, { contract_id: contractId, quantity: 3, price: 79_000 });
    expect(await claimOrder(db, who.tenantId, alive.id, 'sim')).toBeDefined(); // at the broker now
    const k = await createConditional(db, who, {
      contract_id: contractId,
      quantity: 4,
      trigger_op: '>=',
      trigger_price: 80_500,
      order_price: 0,
    });
    expect(await contractPausePreview(db, who.tenantId, contractId)).toEqual({
      contract_id: contractId,
      status: 'active',
      working_orders: 2,
      working_lots: 5,
      waiting_conditionals: 1,
      waiting_conditional_lots: 4,
    });
    // Another tenant's contract is not there.
    const other = await seedTenant(db);
    await expect(contractPausePreview(db, other.tenantId, contractId)).rejects.toMatchObject({ kind: 'not_found' });

    const row = await pause(who.tenantId, contractId, port);
    expect(row.status).toBe('paused');
    // PENDING: cancelled here, never sent; its lots are back.
    expect(await order(pending.id)).toMatchObject({ status: 'CANCELLED', last_msg: '合同已暂停，已撤单' });
    // ALIVE: the cancel is recorded with its reason and handed to the router.
    expect((await order(alive.id)).status).toBe('ALIVE');
    expect(await dispatch(alive.id)).toMatchObject({ cancel_reason: '合同已暂停，已撤单' });
    expect((await dispatch(alive.id)).cancel_requested_at).not.toBeNull();
    expect(seen.cancelRequested).toEqual([alive.id]);
    // The 条件单 still holds its lots, suspended: it cannot fire.
    expect(await cond(k.id)).toMatchObject({ status: 'WAITING', last_msg: '合同已暂停，暂停触发' });
    expect(seen.conditionChanged).toEqual([k.id]);
    expect(await triggerConditional(db, k.id, 81_000)).toEqual({ outcome: 'blocked' });
    expect(await lots(contractId)).toEqual({ executed: 0, frozen: 7, remaining: 13 });
    // The broker ends the ALIVE one: with the pause's reason.
    await applyEnded(db, who.tenantId, alive.id, '已撤单');
    expect(await order(alive.id)).toMatchObject({ status: 'CANCELLED', last_msg: '合同已暂停，已撤单' });
    expect(await contractPausePreview(db, who.tenantId, contractId)).toMatchObject({
      status: 'paused',
      working_orders: 0,
      waiting_conditionals: 1,
    });
    const cancels = await auditOf(who.tenantId, 'cancel-order');
    expect(cancels.map((a) => a.actor)).toEqual(['trader-sub', 'trader-sub']);
    // Pausing again changes nothing more.
    const again = recordingPort();
    await pause(who.tenantId, contractId, again.port);
    expect(again.seen).toEqual({ cancelRequested: [], conditionChanged: [] });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);

    // 恢复: the 条件单 is armed again.
    await resume(who.tenantId, contractId, port);
    expect(await cond(k.id)).toMatchObject({ status: 'WAITING', last_msg: '等待行情触发' });
    expect(await triggerConditional(db, k.id, 81_000)).toMatchObject({ outcome: 'triggered' });
  });

  it('on the running service: the resting order is cancelled at the broker, the 条件单 never fires while paused, and fires after 恢复', async () => {
    const { who, contractId } = await setup();
    const quotes = new FakeQuotes({ [CU]: 10 });
    quotes.set(CU, book(80_000));
    const s = service(quotes);
    await s.start();
    const resting = await submitOrder(db, who, { contract_id: contractId, quantity: 2, price: 79_000 }, s.events);
    const k = await createConditional(
      db,
      who,
      { contract_id: contractId, quantity: 3, trigger_op: '>=', trigger_price: 80_500, order_price: 0 },
      s.events,
    );
    await s.idle();
    expect((await order(resting.id)).status).toBe('ALIVE');
    expect(s.conditions.size(who.tenantId)).toBe(1);

    await pause(who.tenantId, contractId, s.events);
    await waitFor(async () => (await order(resting.id)).status === 'CANCELLED');
    expect(await order(resting.id)).toMatchObject({ last_msg: '合同已暂停，已撤单', volume_traded: 0 });
    await waitFor(() => s.conditions.size(who.tenantId) === 0); // not watched while paused
    const attempts = s.conditions.attempts;
    quotes.set(CU, book(80_600));
    quotes.set(CU, book(80_700));
    await s.sweep(); // a reload does not arm it either
    quotes.set(CU, book(80_800));
    await s.idle();
    expect(s.conditions.attempts).toBe(attempts); // never even tried
    expect((await ordersOf(contractId)).map((o) => o.id)).toEqual([resting.id]);
    expect((await cond(k.id)).status).toBe('WAITING');

    await resume(who.tenantId, contractId, s.events);
    await waitFor(() => s.conditions.size(who.tenantId) === 1);
    quotes.set(CU, book(80_600));
    await waitFor(async () => (await cond(k.id)).status === 'TRIGGERED');
    await waitFor(async () => (await ordersOf(contractId)).length === 2);
    await s.idle();
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a fill the exchange reports after the pause is booked and flagged to the trader', async () => {
    const { who, contractId } = await setup();
    const o = await submitOrder(db, who, { contract_id: contractId, quantity: 5, price: 79_000 });
    await claimOrder(db, who.tenantId, o.id, 'sim');
    await applyTrade(db, who.tenantId, o.id, { tradeId: 'before', volume: 1, price: 79_000, at: new Date() });
    await pause(who.tenantId, contractId);
    // The exchange filled 2 more lots before our cancel reached it: it happened, it is booked.
    await applyTrade(db, who.tenantId, o.id, { tradeId: 't1', volume: 2, price: 79_000, at: new Date() });
    expect(await order(o.id)).toMatchObject({
      status: 'ALIVE',
      volume_traded: 3,
      last_msg: '合同已暂停，已撤单，但撤单前交易所又成交 2 手',
    });
    expect((await dispatch(o.id)).late_fill_volume).toBe(2);
    await applyEnded(db, who.tenantId, o.id, '已撤单');
    expect(await order(o.id)).toMatchObject({
      status: 'CANCELLED',
      volume_traded: 3,
      last_msg: '合同已暂停，已撤单，但撤单前交易所又成交 2 手',
    });
    const flagged = await auditOf(who.tenantId, 'fill-after-stop');
    expect(flagged).toEqual([
      { actor: 'system', payload: { order_id: o.id, volume: 2, reason: '合同已暂停，已撤单' } },
    ]);
    expect(await lots(contractId)).toEqual({ executed: 3, frozen: 0, remaining: 17 });
    expect(await bookProblems(db, who.tenantId)).toEqual([]);
  });

  it('a pause whose stop step never ran (the process died) is finished by the deadline job', async () => {
    const { who, contractId } = await setup();
    const { port, seen } = recordingPort();
    const pending = await submitOrder(db, who, { contract_id: contractId, quantity: 2, price: 0 });
    const alive = await submitOrder(db, who, { contract_id: contractId, quantity: 1, price: 79_000 });
    await claimOrder(db, who.tenantId, alive.id, 'sim');
    // Only the status change committed.
    await updateContractStatus(db, who.tenantId, 'trader-sub', { contract_id: contractId, new_status: 'paused' });
    const run = await finishStops(db, port);
    expect(run.cancelled).toContain(pending.id);
    expect(run.cancelRequested).toContain(alive.id);
    expect(seen.cancelRequested).toEqual([alive.id]);
    expect(await order(pending.id)).toMatchObject({ status: 'CANCELLED', last_msg: '合同已暂停，已撤单' });
    // Idempotent.
    expect(await stopPausedContract(db, who.tenantId, contractId, 'trader-sub')).toMatchObject({
      cancelled: [],
      cancelRequested: [],
    });
  });
});
