import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/db/database';
import { shanghaiDate } from '../../platform/time';
import { applyAccepted, applyTrade } from '../../trading/apply';
import { seedInstruments, seedTenant, withTradingTestDb } from '../../../test/trading/testSupport';
import { runAverageFixings, type DayOutcome } from './average';
import { contractSchedule } from './views';
import { tradingDaysIn } from '../../market/calendar';
import { dayShare } from './terms';

/*
 * 均价点价 with an injected clock (docs/fixing.md): a whole month's window simulated in a second —
 * each trading day's market order at 14:50, filled through the real books (trading/apply.ts); the
 * exactly-once proofs: a crash between the order and the day's mark leaves neither, and two
 * instances running at the same instants fix each day once. The same on PGlite and PostgreSQL.
 */

let db: Database;
withTradingTestDb((opened) => (db = opened));

const SYMBOL = 'SHFE.cu2601';
let seq = 0;

async function averageContract(
  who: { tenantId: number; pricerId: number },
  window: { start: string; end: string },
  total: number,
  basis = 150,
  deadline = window.end,
) {
  const row = await db
    .insertInto('contracts')
    .values({
      tenant_id: who.tenantId,
      name: `均价合同-${++seq}`,
      pricer_id: who.pricerId,
      product_name: '铜',
      instrument_id: SYMBOL,
      direction: 'BUY',
      total_quantity: total,
      remaining_quantity: total,
      status: 'active',
      basis,
      fixing_deadline: deadline,
      pricing_mode: 'average',
      average_start: window.start,
      average_end: window.end,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The simulated futures price of a day: a deterministic walk around 80,000 on the tick (10). */
const priceOf = (day: string) => 80_000 + ((Number(day.slice(8, 10)) * 7919) % 61) * 10 - 300;

/** Every calendar day from `from` for `days` days, as 'YYYY-MM-DD'. */
function calendar(from: string, days: number): string[] {
  const out: string[] = [];
  const start = shanghaiDate(from).getTime();
  for (let i = 0; i < days; i++) out.push(new Date(start + i * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10));
  return out;
}

const TIMES = ['09:00', '14:49', '14:50', '14:53', '14:59', '15:00', '21:30'];

async function fill(o: Extract<DayOutcome, { outcome: 'fixed' }>, day: string) {
  await applyAccepted(db, o.tenantId, o.orderId);
  await applyTrade(db, o.tenantId, o.orderId, {
    tradeId: `T${o.orderId}`,
    volume: o.lots,
    price: priceOf(day),
    at: shanghaiDate(`${day} 14:50`),
  });
}

describe('average pricing over a simulated month (injected clock)', () => {
  it('schedules and fixes no day over 元旦: 1 and 2 January 2026 are skipped, the lots go to the trading days', async () => {
    await seedInstruments(db, [SYMBOL]);
    const who = await seedTenant(db);
    const window = { start: '2025-12-29', end: '2026-01-07' };
    const id = await averageContract(who, window, 50);
    const fixedOn: string[] = [];
    for (const day of calendar('2025-12-29', 10)) {
      for (const t of TIMES) {
        for (const o of await runAverageFixings(db, { now: shanghaiDate(`${day} ${t}`) })) {
          if (o.outcome !== 'fixed') continue;
          await fill(o, day);
          fixedOn.push(day);
        }
      }
    }
    const trading = ['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-05', '2026-01-06', '2026-01-07'];
    expect(fixedOn).toEqual(trading);
    const schedule = await contractSchedule(db, who, id, { hh: 14, mm: 50 }, shanghaiDate('2025-12-29 09:00'));
    expect(schedule.days.map((d) => d.date)).toEqual(trading);
    expect(schedule.days.map((d) => d.date)).not.toContain('2026-01-01');
  });

  it('fixes lots left ÷ days left each trading day at 14:50, exactly, with a missed day moved on', async () => {
    await seedInstruments(db, [SYMBOL]);
    const who = await seedTenant(db);
    const window = { start: '2026-12-01', end: '2026-12-31' };
    const id = await averageContract(who, window, 200);
    const down = '2026-12-15'; // the server is down all that day: its share moves to the days after
    const fills: { day: string; lots: number; price: number }[] = [];
    for (const day of calendar('2026-11-30', 40)) {
      if (day === down) continue;
      for (const t of TIMES) {
        const run = await runAverageFixings(db, { now: shanghaiDate(`${day} ${t}`) });
        for (const o of run) {
          if (o.outcome !== 'fixed') continue;
          expect(t >= '14:50' && t < '15:00', `${day} ${t}`).toBe(true);
          await fill(o, day);
          fills.push({ day, lots: o.lots, price: priceOf(day) });
        }
      }
    }
    const days = tradingDaysIn(window.start, window.end);
    expect(days).toHaveLength(23);
    expect(fills.map((f) => f.day)).toEqual(days.filter((d) => d !== down));
    const total = fills.reduce((s, f) => s + f.lots, 0);
    expect(total).toBe(200);
    // Equal parts: no day more than one lot above another, except the catch-up the missed day caused.
    const lots = fills.map((f) => f.lots);
    expect(Math.max(...lots) - Math.min(...lots)).toBeLessThanOrEqual(1);
    const c = await db.selectFrom('v_contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const average = fills.reduce((s, f) => s + f.lots * f.price, 0) / total;
    expect(c.status).toBe('completed');
    expect(c.executed_quantity).toBe(200);
    expect(Number(c.avg_price)).toBeCloseTo(average, 4);
    expect(Number(c.avg_fixed_price)).toBeCloseTo(average + 150, 4);

    const schedule = await contractSchedule(db, who, id, { hh: 14, mm: 50 }, shanghaiDate('2027-01-04 10:00'));
    expect(schedule.days.map((d) => d.date)).toEqual(days);
    expect(schedule.days.find((d) => d.date === down)).toMatchObject({ status: 'skipped', fixed_lots: 0 });
    expect(schedule.days.filter((d) => d.status === 'filled')).toHaveLength(22);
    expect(schedule.days.at(-1)!.average_so_far).toBeCloseTo(average, 4);

    // The closing note of issue 32: the simulated month, day by day.
    console.log(
      [
        `均价点价模拟：合同 #${id}，200 手，窗口 ${window.start} ~ ${window.end}（${days.length} 个交易日，${down} 服务停机）`,
        '日期        手数  成交价    累计均价',
        ...schedule.days.map(
          (d) =>
            `${d.date}  ${String(d.fixed_lots).padStart(3)}  ${d.price === null ? '   —    ' : String(d.price).padStart(8)}  ${d.average_so_far === null ? '—' : d.average_so_far.toFixed(2)}`,
        ),
        `合计 ${total} 手，期货均价 ${average.toFixed(4)}，基差 150，均价点价价格 ${(average + 150).toFixed(4)}`,
      ].join('\n'),
    );
  });

  it('moves a paused day on and fixes what is left after the window on the next trading day', async () => {
    const who = await seedTenant(db);
    const id = await averageContract(who, { start: '2027-01-04', end: '2027-01-06' }, 10, 150, '2027-01-29');
    const mine = async (at: string) =>
      (await runAverageFixings(db, { now: shanghaiDate(at) })).filter((r) => r.contractId === id);
    expect(await mine('2027-01-04 14:50')).toEqual([expect.objectContaining({ outcome: 'fixed', lots: 3 })]);
    await db.updateTable('contracts').set({ status: 'paused' }).where('id', '=', id).execute();
    for (const day of ['2027-01-05', '2027-01-06']) expect(await mine(`${day} 14:51`)).toEqual([]);
    await db.updateTable('contracts').set({ status: 'active' }).where('id', '=', id).execute();
    // Saturday and Sunday are no trading days; Monday after the window takes the 7 lots left.
    expect(await mine('2027-01-09 14:51')).toEqual([]);
    expect(await mine('2027-01-11 14:51')).toEqual([expect.objectContaining({ outcome: 'fixed', lots: 7 })]);
  });

  it('rounds so that the total comes out exactly', () => {
    for (const [lots, days] of [
      [200, 23],
      [7, 3],
      [1, 20],
      [1000, 21],
    ] as const) {
      let left: number = lots;
      const parts: number[] = [];
      for (let d = days; d >= 1; d--) {
        const share = dayShare(left, d);
        parts.push(share);
        left -= share;
      }
      expect(parts.reduce((s, p) => s + p, 0)).toBe(lots);
    }
  });
});

describe('exactly once per contract and day', () => {
  it('a crash between the order and the mark leaves neither; the next run fixes the day once', async () => {
    const who = await seedTenant(db);
    const id = await averageContract(who, { start: '2027-02-01', end: '2027-02-05' }, 10);
    const now = shanghaiDate('2027-02-01 14:50');
    await expect(
      runAverageFixings(db, {
        now,
        afterOrder: () => {
          throw new Error('进程崩溃');
        },
      }),
    ).rejects.toThrow('进程崩溃');
    const orders = () => db.selectFrom('orders').select(['id', 'volume_orign']).where('contract_id', '=', id).execute();
    expect(await orders()).toEqual([]);
    const c = await db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([c.remaining_quantity, c.frozen_quantity]).toEqual([10, 0]);
    // The restart: fixed once; every later run that day finds the day's row.
    const mine = async (at: Date) => (await runAverageFixings(db, { now: at })).filter((r) => r.contractId === id);
    expect(await mine(now)).toEqual([expect.objectContaining({ outcome: 'fixed', lots: 2 })]);
    expect(await mine(shanghaiDate('2027-02-01 14:55'))).toEqual([]);
    expect(await orders()).toHaveLength(1);
    const marks = await db.selectFrom('average_fixings').selectAll().where('contract_id', '=', id).execute();
    expect(marks).toEqual([expect.objectContaining({ day: '2027-02-01', planned_lots: 2 })]);
  });

  it('two instances running at the same instants fix each day once', async () => {
    const second = process.env.DATABASE_URL
      ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' })
      : db;
    try {
      const who = await seedTenant(db);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push(await averageContract(who, { start: '2027-03-01', end: '2027-03-05' }, 20));
      for (const day of tradingDaysIn('2027-03-01', '2027-03-05')) {
        const now = shanghaiDate(`${day} 14:50`);
        const runs = await Promise.all([
          runAverageFixings(db, { now }),
          runAverageFixings(second, { now }),
          runAverageFixings(db, { now }),
          runAverageFixings(second, { now }),
        ]);
        const fixed = runs.flat().filter((r) => r.outcome === 'fixed' && ids.includes(r.contractId));
        expect(fixed.map((r) => r.contractId).sort()).toEqual([...ids].sort());
      }
      const orders = await db
        .selectFrom('orders')
        .select((eb) => ['contract_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('volume_orign').as('lots')])
        .where('contract_id', 'in', ids)
        .groupBy('contract_id')
        .execute();
      expect(orders.map((o) => [Number(o.n), Number(o.lots)])).toEqual(ids.map(() => [5, 20]));
    } finally {
      if (second !== db) await second.destroy();
    }
  });
});
