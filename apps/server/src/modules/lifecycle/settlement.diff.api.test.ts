import { addTradingDays } from '@pfp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { FakeDiffServer, type FakeQuote } from '../../../test/diff/fakeServer';
import { waitFor } from '../../../test/diff/testSupport';
import { DiffMarketData } from '../../diff/marketData';
import { diffFeed, type MarketFeed } from '../../market/feed';
import { tradingDaysIn } from '../../market/calendar';
import { shanghaiDate } from '../../platform/time';
import { runSettlementBookings } from './settlement';

/*
 * 均价依据 结算价 on a DIFF feed (MARKET_SOURCE=diff, docs/fixing.md), PGlite and PostgreSQL: the real DIFF
 * client and feed against the fake DIFF server, the market's settlement prices given to the close job as
 * main.ts gives them (AppContext.settlementPrices = the feed's). A quote's `settlement` counts for the day
 * its time names after the close; a quote without one, or stamped on another day, in the session or in
 * the night, books nothing; the next morning's `pre_settlement` books the day before.
 */

let h: Harness;
let a: Tenant;
let server: FakeDiffServer;
let feed: MarketFeed;
const DEADLINE = tradingDayIn(30);
const DAY = tradingDayIn(2);
const END = tradingDaysIn(DAY, DEADLINE)[4]!;
const NEXT = addTradingDays('SHFE', DAY, 1);
const at = (day: string, hhmm: string) => shanghaiDate(`${day} ${hhmm}`);
const stamp = (day: string, hhmm: string) => `${day} ${hhmm}:00.000000`;

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'trader-settle-diff', '行情结算贸易', ['alice']);
  server = await FakeDiffServer.start({
    quotes: { [a.symbol]: { pre_settlement: 79_000, datetime: stamp(DAY, '10:00') } },
  });
  feed = diffFeed(new DiffMarketData({ url: server.url }));
  feed.start();
});
afterAll(async () => {
  feed?.stop();
  await server?.close();
  await h?.close();
});

/** The quote moves on the fake server; resolves once the feed has it. */
async function quote(fields: Partial<FakeQuote> & { datetime: string }) {
  server.setQuote(a.symbol, fields);
  await waitFor(() => feed.getQuote(a.symbol)?.datetime === fields.datetime, 10_000, `quote ${fields.datetime}`);
}

/** One run of the close job at `now`, with the feed's settlement prices (main.ts's AppContext.settlementPrices). */
const close = (now: Date) =>
  runSettlementBookings(h.db, { now, settlementPrices: (day, symbols) => feed.settlementPrices(day, symbols) });

describe('the 结算价 average on a DIFF feed', () => {
  it('books a day once at the quote’s settlement, and nothing from a quote without one or of another day', async () => {
    const id = (
      await createContract(h, a, 'alice', DEADLINE, {
        pricing_mode: 'average',
        average_basis: 'settlement',
        average_start: DAY,
        average_end: END,
        total_quantity: 10,
        margin_rate: 0,
      })
    ).id;
    const bookings = () =>
      h.db.selectFrom('average_fixings').select(['day', 'planned_lots']).where('contract_id', '=', id).execute();
    const prices = () =>
      h.db.selectFrom('settlement_prices').selectAll().where('instrument_id', '=', a.symbol).orderBy('day').execute();
    const noPrice = [{ outcome: 'no-price', contractId: id }];

    // The first run subscribes the instrument; the quote arrives.
    await close(at(DAY, '15:05'));
    await waitFor(() => feed.getQuote(a.symbol), 10_000, 'the first quote');

    // After the close, no settlement yet (its pre_settlement is the day before's): nothing.
    await quote({ datetime: stamp(DAY, '15:00'), last_price: 80_100 });
    expect((await close(at(DAY, '15:10'))).bookings).toEqual(noPrice);
    // A settlement stamped on the day before (a quote that has not moved since), in the session (not
    // reset), or in the night (the next trading day's session or not): not this day's, nothing.
    for (const [datetime, now] of [
      [stamp(addTradingDays('SHFE', DAY, -1), '15:30'), at(DAY, '15:15')],
      [stamp(DAY, '14:00'), at(DAY, '15:20')],
      [stamp(DAY, '21:05'), at(DAY, '21:10')],
    ] as const) {
      await quote({ datetime, settlement: 81_000 });
      expect((await close(now)).bookings, datetime).toEqual(noPrice);
    }
    expect(await bookings()).toEqual([]);
    expect(await prices()).toEqual([]);

    // The exchange publishes the day's settlement after the close: booked once at it.
    await quote({ datetime: stamp(DAY, '15:30'), settlement: 80_500, volume: 1_200 });
    const first = await close(at(DAY, '16:00'));
    expect(first.bookings).toEqual([expect.objectContaining({ contractId: id, outcome: 'fixed', lots: 2 })]);
    expect((await close(at(DAY, '16:05'))).bookings).toEqual([]);
    expect((await close(at(NEXT, '09:30'))).bookings).toEqual([]);
    expect((await bookings()).map((b) => [String(b.day), b.planned_lots])).toEqual([[DAY, 2]]);
    expect((await prices()).map((p) => [String(p.day), Number(p.price), Number(p.volume), p.source])).toEqual([
      [DAY, 80_500, 1_200, 'diff'],
    ]);
    const orders = await h.db.selectFrom('orders').selectAll().where('contract_id', '=', id).execute();
    expect(orders.map((o) => [o.status, o.volume_traded, Number(o.trade_price)])).toEqual([['FINISHED', 2, 80_500]]);

    // The next day's price missed in the evening: the morning after, the quote's pre_settlement books it.
    const after = addTradingDays('SHFE', NEXT, 1);
    await quote({ datetime: stamp(after, '09:05'), settlement: NaN, pre_settlement: 80_700 });
    const next = await close(at(after, '09:10'));
    expect(next.day).toBe(NEXT);
    expect(next.bookings).toEqual([expect.objectContaining({ contractId: id, outcome: 'fixed', lots: 2 })]);
    expect((await prices()).map((p) => [String(p.day), Number(p.price), p.source])).toEqual([
      [DAY, 80_500, 'diff'],
      [NEXT, 80_700, 'diff'],
    ]);
    expect((await bookings()).map((b) => String(b.day))).toEqual([DAY, NEXT]);
  });
});
