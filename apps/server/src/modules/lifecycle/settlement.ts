import type { Kysely } from 'kysely';
import { zh } from '@pfp/i18n';
import type { DB } from '../../platform/db/schema';
import type { Logger } from '../../platform/logger';
import { every, type Periodic } from '../../platform/every';
import { shanghaiInstant } from '../../platform/time';
import { addDays, dateKey, isTradingDate, shanghaiCivilDate } from '../../market/calendar';
import type { FillsBooked } from '../../trading/apply';
import type { SettlementPrice } from '../../market/settlementPrices';
import type { AppContext } from '../context';
import { moveLots } from '../../trading/lots';
import { FIXING_CLOSE_HOUR } from '../contracts/fixingTerms';
import { bookAverageDay, dueAverageContracts, type DayOutcome } from './bookAverageDay';

/**
 * 均价点价 on 结算价 (average_basis 'settlement', docs/fixing.md): after each trading day's close (15:00
 * Beijing) the day's share of every such contract — lots left ÷ trading days left, as for 成交价 — is
 * booked as fixed at the exchange's settlement price of the day. No order goes to the exchange: the
 * price is the exchange's, not a fill of ours; the booking is an order row already FINISHED with one
 * trade at that price, so the confirmation, the statement and the contract's average read it like any fix.
 *
 * 1. Publish: the market's settlement prices of the day go into settlement_prices (one row per
 *    instrument and day; the first published price stands, a second publication changes nothing).
 * 2. Book: per contract, ONE transaction locks the contract, looks for the day's average_fixings row and,
 *    when absent, inserts the order, its trade, the lots and the row (primary key (contract_id, day)):
 *    a crash before the commit leaves nothing, after it everything; a second run or instance finds the row.
 *
 * The day booked is the last closed trading day: from its close to the next trading day's close. A
 * server down at the close books it when it comes back within that time; a day whose next close has
 * passed is not made up (its share moves on, as with 成交价).
 */

export type SettlementOutcome = DayOutcome | { outcome: 'no-price' };

/** The last trading day whose close (15:00 Beijing) is at or before `now`. */
export function closedDay(now: Date): string {
  let day = shanghaiCivilDate(now);
  if (now.getTime() < shanghaiInstant(day.y, day.m, day.d, FIXING_CLOSE_HOUR)) day = addDays(day, -1);
  while (!isTradingDate(day)) day = addDays(day, -1);
  return dateKey(day);
}

export interface SettlementRunOptions {
  now?: Date;
  /** The market's settlement prices of a day (AppContext.settlementPrices); absent: only stored ones are used. */
  settlementPrices?: AppContext['settlementPrices'];
  fillsBooked?: FillsBooked | undefined;
  /** Tests: runs after the prices are published and before any booking (a crash between the two). */
  afterPublish?: () => void;
}

/** Stores the day's settlement prices (the first publication stands). Returns how many rows were new. */
export async function publishSettlementPrices(
  db: Kysely<DB>,
  day: string,
  prices: readonly SettlementPrice[],
): Promise<number> {
  const rows = prices.filter((p) => Number.isFinite(p.price) && p.price > 0);
  if (!rows.length) return 0;
  const r = await db
    .insertInto('settlement_prices')
    .values(
      rows.map((p) => ({ instrument_id: p.instrument_id, day, price: p.price, volume: p.volume, source: p.source })),
    )
    .onConflict((oc) => oc.columns(['instrument_id', 'day']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

/** One run: publishes the last closed day's settlement prices and books every 结算价 contract due that day. */
export async function runSettlementBookings(
  db: Kysely<DB>,
  opts: SettlementRunOptions = {},
): Promise<{ day: string; bookings: (SettlementOutcome & { contractId: number })[] }> {
  const now = opts.now ?? new Date();
  const day = closedDay(now);
  const due = await dueAverageContracts(db, 'settlement', day);
  if (!due.length) return { day, bookings: [] };
  const published = await db
    .selectFrom('settlement_prices')
    .select('instrument_id')
    .where('day', '=', day)
    .where(
      'instrument_id',
      'in',
      due.map((c) => c.instrument_id),
    )
    .execute();
  const wanted = [...new Set(due.map((c) => c.instrument_id))];
  if (published.length < wanted.length && opts.settlementPrices)
    await publishSettlementPrices(db, day, opts.settlementPrices(day, wanted));
  opts.afterPublish?.();
  const bookings: (SettlementOutcome & { contractId: number })[] = [];
  for (const c of due)
    bookings.push({ ...(await bookSettlementDay(db, c.id, day, now, opts.fillsBooked)), contractId: c.id });
  return { day, bookings };
}

/** The day's booking of one contract at the day's settlement price, in one transaction (exactly once: bookAverageDay). */
export function bookSettlementDay(
  db: Kysely<DB>,
  contractId: number,
  day: string,
  now: Date,
  fillsBooked?: FillsBooked,
): Promise<SettlementOutcome> {
  return bookAverageDay<{ outcome: 'no-price' }>(db, contractId, day, 'settlement', async (tx, c, lots) => {
    const settled = await tx
      .selectFrom('settlement_prices')
      .select('price')
      .where('instrument_id', '=', c.instrument_id)
      .where('day', '=', day)
      .executeTakeFirst();
    if (!settled) return { outcome: 'no-price' };
    const price = Number(settled.price);
    const order = await tx
      .insertInto('orders')
      .values({
        tenant_id: c.tenant_id,
        contract_id: c.id,
        pricer_id: c.pricer_id,
        instrument_id: c.instrument_id,
        direction: c.direction,
        volume_orign: lots,
        volume_traded: lots,
        limit_price: 0,
        trade_price: price,
        basis: c.basis,
        status: 'FINISHED',
        last_msg: zh.averageBasis.booked(day),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const orderId = Number(order.id);
    const tradeId = `JSJ-${day}`;
    await tx
      .insertInto('trades')
      .values({ tenant_id: c.tenant_id, order_id: orderId, trade_id: tradeId, volume: lots, price, created_at: now })
      .execute();
    // Straight from remaining to executed (nothing was frozen: no order went out), with the contract's running sum.
    await moveLots(tx, [
      { contractId: c.id, fromFrozen: 0, fromRemaining: lots, released: 0, amount: Math.round(price * 1e4) * lots },
    ]);
    return {
      orderId,
      audit: { average_basis: 'settlement', price },
      after: async () => {
        await fillsBooked?.(tx, [{ tenantId: c.tenant_id, orderId, tradeId, volume: lots, price }]);
      },
    };
  });
}

/** Runs {@link runSettlementBookings} now and every `everyMs` (default 20 s). `now` is the clock (tests). */
export function watchSettlementBookings(opts: {
  db: Kysely<DB>;
  settlementPrices?: SettlementRunOptions['settlementPrices'];
  fillsBooked?: FillsBooked | undefined;
  now?: () => Date;
  everyMs?: number;
  logger: Logger;
}): Periodic {
  const job = async () => {
    const run = await runSettlementBookings(opts.db, {
      now: opts.now?.() ?? new Date(),
      settlementPrices: opts.settlementPrices,
      fillsBooked: opts.fillsBooked,
    });
    const booked = run.bookings.filter((r) => r.outcome === 'fixed');
    if (booked.length) opts.logger.info({ day: run.day, booked }, 'settlement average bookings');
    const waiting = run.bookings.filter((r) => r.outcome === 'no-price');
    if (waiting.length) opts.logger.warn({ day: run.day, waiting }, 'settlement average: no settlement price yet');
  };
  return every('settlement average bookings', opts.everyMs ?? 20_000, job, opts.logger);
}
