import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { seedInstruments, seedTenant } from '../../../test/trading/testSupport';

/** The end-to-end suites' hooks exist only when the server is given them (SIM_MARKET_HOOKS=1). */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the end-to-end hooks', () => {
  it('do not exist by default', async () => {
    h = await startHarness();
    const res = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: -5 });
    expect(res.status).toBe(404);
    const run = await h.call('/api/test/average-fixings', { at: '2026-12-01T14:50:00+08:00' });
    expect(run.status).toBe(404);
    const close = await h.call('/api/test/settlement-close', { at: '2026-12-01T15:05:00+08:00' });
    expect(close.status).toBe(404);
  });
});

describe('POST /api/test/market-shift', () => {
  it('with the hook: moves the market by the percentage; bad input is a Chinese 400, an unknown symbol 404', async () => {
    const moves: [string, number][] = [];
    h = await startHarness({
      shiftMarket: (symbol, factor) => {
        if (symbol !== 'SHFE.cu2601') return undefined;
        moves.push([symbol, factor]);
        return { last_price: 80_000 * factor };
      },
    });
    const ok = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: -5 });
    expect(ok.status).toBe(200);
    expect(moves).toEqual([['SHFE.cu2601', 0.95]]);
    const bad = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: 50 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/需要合约代码和 −20 至 20 之间的涨跌百分比/);
    expect((await h.call('/api/test/market-shift', { symbol: 'SHFE.xx', percent: 1 })).status).toBe(404);
    expect(moves).toHaveLength(1);
  });
});

interface FixingsRun {
  day: string;
  fixings: { contract_id: number; outcome: string; order_id: number | null; lots: number }[];
}
const runOf = (res: { body: unknown }) => res.body as FixingsRun;

describe('POST /api/test/average-fixings', () => {
  it('runs the average-fixing job once as if the clock said `at`: the day’s share, once, whatever the calls', async () => {
    const created: number[] = [];
    h = await startHarness({
      simAverageFixings: true,
      tradingPort: { created: (orderId) => created.push(orderId), cancelRequested: () => undefined },
    });
    const db = h.db;
    await seedInstruments(db, ['SHFE.cu2601']);
    const who = await seedTenant(db);
    // Tuesday 1 … Friday 4 December 2026: four trading days, 8 lots → 2 a day.
    const contract = await db
      .insertInto('contracts')
      .values({
        tenant_id: who.tenantId,
        name: '均价合同',
        pricer_id: who.pricerId,
        product_name: '铜',
        instrument_id: 'SHFE.cu2601',
        direction: 'BUY',
        total_quantity: 8,
        remaining_quantity: 8,
        status: 'active',
        basis: 150,
        fixing_deadline: '2026-12-04',
        pricing_mode: 'average',
        average_start: '2026-12-01',
        average_end: '2026-12-04',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const orders = () => db.selectFrom('orders').select('id').where('contract_id', '=', contract.id).execute();
    const remaining = async () =>
      (
        await db
          .selectFrom('contracts')
          .select('remaining_quantity')
          .where('id', '=', contract.id)
          .executeTakeFirstOrThrow()
      ).remaining_quantity;

    // Bad input: a Chinese 400 naming `at`, nothing fixed.
    for (const at of [undefined, '明天', '2026-12-01 14:50', '2026-12-01T14:50:00', 1_764_571_800_000]) {
      const bad = await h.call('/api/test/average-fixings', at === undefined ? {} : { at });
      expect(bad.status, String(at)).toBe(400);
      expect(bad.body.error).toMatchObject({ field: 'at' });
      expect(bad.body.error.message).toMatch(/时间 at 须为带时区的 ISO 时间/);
    }
    // Outside the fixing time of a trading day: before 14:50, at the close, on a Saturday.
    for (const at of ['2026-12-01T14:49:59+08:00', '2026-12-01T07:00:00Z', '2026-12-05T14:50:00+08:00']) {
      const bad = await h.call('/api/test/average-fixings', { at });
      expect(bad.status, at).toBe(400);
      expect(bad.body.error.message).toBe('时间 at 不在交易日的均价点价时段内（北京时间 14:50 至 15:00）');
    }
    expect(await orders()).toHaveLength(0);
    expect(await remaining()).toBe(8);

    // 14:50 Beijing written in UTC is the same instant; two calls at once and a third later: one order.
    const [a, b] = await Promise.all([
      h.call('/api/test/average-fixings', { at: '2026-12-01T06:50:00Z' }),
      h.call('/api/test/average-fixings', { at: '2026-12-01T14:50:00+08:00' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The second waits on the contract's lock (PostgreSQL) and finds the day done, or runs after it.
    const ours = [...runOf(a).fixings, ...runOf(b).fixings].filter((f) => f.contract_id === contract.id);
    expect(runOf(a).day).toBe('2026-12-01');
    expect(ours.filter((f) => f.outcome === 'fixed')).toEqual([
      { contract_id: contract.id, outcome: 'fixed', order_id: expect.any(Number), lots: 2 },
    ]);
    expect(ours.filter((f) => f.outcome !== 'fixed').every((f) => f.outcome === 'done')).toBe(true);
    const again = await h.call('/api/test/average-fixings', { at: '2026-12-01T14:55:00+08:00' });
    expect(again.status).toBe(200);
    expect(runOf(again)).toEqual({ day: '2026-12-01', fixings: [] });
    const rows = await orders();
    expect(rows).toHaveLength(1);
    expect(created).toEqual([Number(rows[0]!.id)]);
    expect(await remaining()).toBe(6);
    const days = await db.selectFrom('average_fixings').select(['day', 'planned_lots']).execute();
    expect(days.map((d) => [String(d.day), d.planned_lots])).toEqual([['2026-12-01', 2]]);
  });
});
