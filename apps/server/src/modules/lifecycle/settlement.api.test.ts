import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '@pfp/i18n';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { shanghaiDate } from '../../platform/time';
import { silentLogger } from '../../platform/logger';
import { SimExchange } from '../../market/simExchange';
import { tradingDaysIn } from '../../market/calendar';
import { runAverageFixings } from './average';
import { closedDay, runSettlementBookings, watchSettlementBookings } from './settlement';

/*
 * 均价依据 (issue 43 item 2, docs/fixing.md) over HTTP on the real app, PGlite and PostgreSQL: create-contract
 * takes average_basis (default 结算价), refuses a bad one with a Chinese 400 naming it; a 结算价 contract's
 * day is booked once after the close at the simulated exchange's settlement price (a real SimExchange),
 * twice-run and concurrent closes book once, a crash between the publication and the booking books on
 * the next run at the price first published, and a window over 国庆 books only the calendar's trading days.
 */

let h: Harness;
let a: Tenant;
const DEADLINE = tradingDayIn(30);
const START = tradingDayIn(2);
const END = tradingDaysIn(START, DEADLINE)[4]!;

/** A simulated exchange that has traded for a while (a volume-weighted settlement, not just the last price). */
function tradedSim(seed: number) {
  let t = Date.now();
  const sim = new SimExchange({ seed, now: () => new Date(t) });
  for (let i = 0; i < 200; i++) {
    t += 500;
    sim.step();
  }
  return sim;
}

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'trader-settle-a', '结算贸易', ['alice', 'bob']);
});
afterAll(async () => {
  await h?.close();
});

const averageContract = async (over: Record<string, unknown> = {}) =>
  (
    await createContract(h, a, 'alice', DEADLINE, {
      pricing_mode: 'average',
      average_start: START,
      average_end: END,
      total_quantity: 10,
      margin_rate: 0,
      ...over,
    })
  ).id;
const contractRow = (id: number) =>
  h.db.selectFrom('v_contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const bookingsOf = (id: number) =>
  h.db.selectFrom('average_fixings').selectAll().where('contract_id', '=', id).orderBy('day').execute();
const ordersOf = (id: number) =>
  h.db.selectFrom('orders').selectAll().where('contract_id', '=', id).orderBy('id').execute();
const at = (day: string, hhmm: string) => shanghaiDate(`${day} ${hhmm}`);

describe('average_basis on create-contract', () => {
  it('takes 结算价 or 成交价, defaults a new average contract to 结算价, and shows it in the views', async () => {
    const onSettlement = await averageContract({ average_basis: 'settlement' });
    const onFills = await averageContract({ average_basis: 'fills' });
    const byDefault = await averageContract();
    const point = (await createContract(h, a, 'alice', DEADLINE, { margin_rate: 0 })).id;
    expect((await contractRow(onSettlement)).average_basis).toBe('settlement');
    expect((await contractRow(onFills)).average_basis).toBe('fills');
    expect((await contractRow(byDefault)).average_basis).toBe('settlement');
    expect((await contractRow(point)).average_basis).toBeNull();

    // The trader's contracts view, the schedule (trader and customer) and the customer's snapshot say it.
    const list = await h.call('/api/trader/view/contracts', {}, a.token);
    const basisOf = (id: number) => list.body.data.items.find((c: { id: number }) => c.id === id)?.average_basis;
    expect([basisOf(onSettlement), basisOf(onFills), basisOf(point)]).toEqual(['settlement', 'fills', null]);
    const schedule = await h.call('/api/trader/view/contract-schedule', { contract_id: onSettlement }, a.token);
    expect(schedule.body.data).toMatchObject({ average_basis: 'settlement', fixing_time: '15:00' });
    const fillsSchedule = await h.call(
      '/api/pricer/view/contract-schedule',
      { contract_id: onFills },
      a.pricers.alice!.jwt,
    );
    expect(fillsSchedule.body.data).toMatchObject({ average_basis: 'fills', fixing_time: '14:50' });
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    const mine = (id: number) => snap.body.data.contracts.find((c: { id: number }) => c.id === id);
    expect(mine(onSettlement).average_basis).toBe('settlement');
    expect(mine(point).average_basis).toBeNull();
  });

  it('refuses a bad average_basis with a Chinese 400 naming the field, and creates nothing', async () => {
    const count = async () => (await h.db.selectFrom('contracts').select('id').execute()).length;
    const before = await count();
    for (const [over, message] of [
      [{ average_basis: 'close' }, '均价依据 average_basis 应为 settlement（结算价）或 fills（成交价）'],
      [{ average_basis: 3 }, '均价依据 average_basis 应为 settlement（结算价）或 fills（成交价）'],
      [
        { pricing_mode: 'point', average_start: undefined, average_end: undefined, average_basis: 'fills' },
        '点价合同不需要均价依据（average_basis）',
      ],
    ] as const) {
      const res = await h.call(
        '/api/trader/rpc/create-contract',
        {
          pricer_id: a.pricers.alice!.id,
          product_name: '铜',
          instrument_id: a.symbol,
          direction: 'BUY',
          total_quantity: 10,
          basis: 100,
          fixing_deadline: DEADLINE,
          pricing_mode: 'average',
          average_start: START,
          average_end: END,
          ...over,
        },
        a.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ field: 'average_basis', message });
    }
    expect(await count()).toBe(before);
  });
});

describe('the 结算价 average booked at the close', () => {
  it('books each day once after the close at the settlement price, however often the close runs', async () => {
    const id = await averageContract({ average_basis: 'settlement', total_quantity: 10 });
    const fills = await averageContract({ average_basis: 'fills', total_quantity: 10 });
    const sim = tradedSim(5);
    const expected = sim.settlementPrices(START).find((p) => p.instrument_id === a.symbol)!;
    expect(expected.volume).toBeGreaterThan(0);
    const prices = (day: string) => sim.settlementPrices(day);

    // Before the close nothing is booked; the 14:50 job leaves a 结算价 contract alone.
    expect((await runSettlementBookings(h.db, { now: at(START, '14:59'), settlementPrices: prices })).bookings).toEqual(
      [],
    );
    const fixed = await runAverageFixings(h.db, { now: at(START, '14:50') });
    expect(fixed.map((f) => f.contractId)).not.toContain(id);
    expect(fixed.map((f) => f.contractId)).toContain(fills);

    // The close, run three times and twice at once: one booking.
    const first = await runSettlementBookings(h.db, { now: at(START, '15:00'), settlementPrices: prices });
    expect(first.day).toBe(START);
    expect(first.bookings.filter((b) => b.contractId === id)).toEqual([
      expect.objectContaining({ outcome: 'fixed', lots: 2 }),
    ]);
    await runSettlementBookings(h.db, { now: at(START, '15:05'), settlementPrices: prices });
    await Promise.all([
      runSettlementBookings(h.db, { now: at(START, '16:00'), settlementPrices: prices }),
      runSettlementBookings(h.db, { now: at(START, '16:00'), settlementPrices: prices }),
    ]);
    expect((await bookingsOf(id)).map((b) => [String(b.day), b.planned_lots])).toEqual([[START, 2]]);
    const [order] = await ordersOf(id);
    expect(await ordersOf(id)).toHaveLength(1);
    expect(order).toMatchObject({ status: 'FINISHED', volume_traded: 2, last_msg: `按 ${START} 结算价点价` });
    expect(Number(order!.trade_price)).toBe(expected.price);
    // The 成交价 contract's own 14:50 order is not touched by the close.
    expect((await bookingsOf(fills)).map((b) => String(b.day))).toEqual([START]);

    // The contract's lots and average; the confirmation names the basis; the schedule shows the day.
    expect(await contractRow(id)).toMatchObject({ executed_quantity: 2, remaining_quantity: 8, frozen_quantity: 0 });
    expect(Number((await contractRow(id)).avg_price)).toBe(expected.price);
    const conf = await h.call('/api/pricer/view/confirmation', { order_id: Number(order!.id) }, a.pricers.alice!.jwt);
    expect(conf.status, JSON.stringify(conf.body)).toBe(200);
    expect(conf.body.data).toMatchObject({ average_basis: 'settlement', lots: 2, futures_price: expected.price });
    const history = await h.call('/api/pricer/view/contract-history', { contract_id: id }, a.pricers.alice!.jwt);
    expect(history.body.data.items.map((e: { text: string }) => e.text)).toContain(
      `均价点价 2 手，按 ${START} 结算价 ${formatNumber(expected.price, 2)} 元/吨`,
    );
    const schedule = await h.call('/api/trader/view/contract-schedule', { contract_id: id }, a.token);
    expect(schedule.body.data.days[0]).toMatchObject({
      date: START,
      fixed_lots: 2,
      price: expected.price,
      status: 'filled',
    });
    const published = await h.db
      .selectFrom('settlement_prices')
      .selectAll()
      .where('instrument_id', '=', a.symbol)
      .where('day', '=', START)
      .execute();
    expect(published.map((p) => Number(p.price))).toEqual([expected.price]);
  });

  it('a crash between the close and the booking: the next run books the day once, at the price first published', async () => {
    const id = await averageContract({ average_basis: 'settlement', total_quantity: 6 });
    const day = tradingDaysIn(START, END)[1]!;
    const before = tradedSim(7).settlementPrices(day);
    const crashed = runSettlementBookings(h.db, {
      now: at(day, '15:01'),
      settlementPrices: () => before,
      afterPublish: () => {
        throw new Error('killed after the close');
      },
    });
    await expect(crashed).rejects.toThrow('killed after the close');
    expect(await bookingsOf(id)).toEqual([]);
    // "Restarted": another process's simulation (another seed, another average) and the job's own timer,
    // whose clock is the next morning: it books the day closed before, at the stored price.
    const after = tradedSim(8).settlementPrices(day);
    const stored = before.find((p) => p.instrument_id === a.symbol)!.price;
    expect(after.find((p) => p.instrument_id === a.symbol)!.price).not.toBe(stored);
    const next = tradingDaysIn(day, END)[1]!;
    expect(closedDay(at(next, '09:30'))).toBe(day);
    const job = watchSettlementBookings({
      db: h.db,
      settlementPrices: () => after,
      now: () => at(next, '09:30'),
      everyMs: 60_000,
      logger: silentLogger,
    });
    await job.runOnce();
    await job.stop();
    await runSettlementBookings(h.db, { now: at(next, '10:00'), settlementPrices: () => after });
    const days = await bookingsOf(id);
    expect(days.map((b) => String(b.day))).toEqual([day]);
    const orders = await ordersOf(id);
    expect(orders).toHaveLength(1);
    expect(Number(orders[0]!.trade_price)).toBe(stored);
  });
});

describe('a 结算价 window over a holiday (the exchange calendar)', () => {
  it('books only the trading days of a window over 国庆 2026, each once', async () => {
    const window = { start: '2026-09-28', end: '2026-10-12' };
    const row = await h.db
      .insertInto('contracts')
      .values({
        tenant_id: a.tenantId,
        name: '结算价均价-国庆',
        pricer_id: a.pricers.bob!.id,
        product_name: '铜',
        instrument_id: a.symbol,
        direction: 'SELL',
        total_quantity: 12,
        remaining_quantity: 12,
        status: 'active',
        basis: 100,
        fixing_deadline: '2026-10-16',
        pricing_mode: 'average',
        average_start: window.start,
        average_end: window.end,
        average_basis: 'settlement',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sim = tradedSim(9);
    // The close of every calendar day of the window and a morning run: a holiday's close books nothing new.
    for (let t = Date.parse('2026-09-28T00:00:00Z'); t <= Date.parse('2026-10-13T00:00:00Z'); t += 86_400_000) {
      const d = new Date(t).toISOString().slice(0, 10);
      for (const hhmm of ['09:30', '15:05'])
        await runSettlementBookings(h.db, { now: at(d, hhmm), settlementPrices: (x) => sim.settlementPrices(x) });
    }
    const booked = (await bookingsOf(row.id)).map((b) => String(b.day));
    expect(booked).toEqual(['2026-09-28', '2026-09-29', '2026-09-30', '2026-10-08', '2026-10-09', '2026-10-12']);
    expect(booked).toEqual(tradingDaysIn(window.start, window.end));
    expect((await bookingsOf(row.id)).reduce((s, b) => s + b.planned_lots, 0)).toBe(12);
    expect(await ordersOf(row.id)).toHaveLength(6);
  });
});
