import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import type { Logger } from '../../platform/logger';
import { every, type Periodic } from '../../platform/every';
import { shanghaiInstant } from '../../platform/time';
import { dateKey, isTradingDate, shanghaiCivilDate } from '../../market/calendar';
import { FIXING_CLOSE_HOUR } from '../contracts/fixingTerms';
import { ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { bookAverageDay, dueAverageContracts, type DayOutcome } from './bookAverageDay';

/**
 * 均价点价 on 成交价 (average_basis 'fills', docs/fixing.md; 结算价 is settlement.ts): on each trading day of an average contract's window, at the fixing time
 * (AVERAGE_FIXING_TIME, default 14:50 Beijing), the server fixes the lots left ÷ the trading days left
 * as a market order. Exactly once per (contract, day), across crashes, restarts and instances: the
 * contract row is locked, the day's average_fixings row is looked for and, when absent, inserted in
 * the SAME transaction as the PENDING order (its primary key refuses a second). A crash before the
 * commit leaves neither; after it, both.
 *
 * A day is fixed between the fixing time and the close (15:00): a day missed (the server down, the
 * contract paused, the market closed) is not made up that day; its share moves to the next trading
 * day, since every day takes the lots left over the days left. Lots left after the window's last day
 * are fixed on the next trading day.
 */

export interface FixingTime {
  hh: number;
  mm: number;
}

export const DEFAULT_FIXING_TIME: FixingTime = { hh: 14, mm: 50 };

/** 'HH:MM' → FixingTime; throws on anything else (a configuration error stops the start). */
export function parseFixingTime(text: string | undefined): FixingTime {
  if (!text) return DEFAULT_FIXING_TIME;
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  const hh = Number(m?.[1]);
  const mm = Number(m?.[2]);
  if (!m || hh > 23 || mm > 59 || hh * 60 + mm >= FIXING_CLOSE_HOUR * 60)
    throw new Error(`AVERAGE_FIXING_TIME must be HH:MM before ${FIXING_CLOSE_HOUR}:00 (got ${text})`);
  return { hh, mm };
}

/** The fixing time of this server: AVERAGE_FIXING_TIME, default 14:50 Beijing (throws on a bad setting). */
export const configuredFixingTime = () => parseFixingTime(process.env.AVERAGE_FIXING_TIME);

export const fixingTimeText = (t: FixingTime) => `${String(t.hh).padStart(2, '0')}:${String(t.mm).padStart(2, '0')}`;

export type { DayOutcome };

export interface AverageRunOptions {
  now?: Date;
  fixingTime?: FixingTime;
  events?: TradingPort | undefined;
  /** Tests: throws between the order's insert and the day's mark (a crash inside the transaction). */
  afterOrder?: (orderId: number) => void;
}

/** The trading day `now` may fix, or undefined outside [fixing time, close) of a trading day. */
export function fixingDay(now: Date, t: FixingTime): string | undefined {
  const today = shanghaiCivilDate(now);
  if (!isTradingDate(today)) return undefined;
  const from = shanghaiInstant(today.y, today.m, today.d, t.hh, t.mm);
  const close = shanghaiInstant(today.y, today.m, today.d, FIXING_CLOSE_HOUR);
  if (now.getTime() < from || now.getTime() >= close) return undefined;
  return dateKey(today);
}

/** One run: every average contract due today gets its day's order (at most one). */
export async function runAverageFixings(
  db: Kysely<DB>,
  opts: AverageRunOptions = {},
): Promise<(DayOutcome & { contractId: number })[]> {
  const now = opts.now ?? new Date();
  const day = fixingDay(now, opts.fixingTime ?? DEFAULT_FIXING_TIME);
  if (!day) return [];
  const due = await dueAverageContracts(db, 'fills', day);
  const out: (DayOutcome & { contractId: number })[] = [];
  for (const c of due) {
    const r = await fixDay(db, c.id, day, now, opts.afterOrder);
    if (r.outcome === 'fixed') opts.events?.created(r.orderId, r.tenantId);
    out.push({ ...r, contractId: c.id });
  }
  return out;
}

/** The day's order of one contract, in one transaction (the guard of exactly once: bookAverageDay). */
export function fixDay(
  db: Kysely<DB>,
  contractId: number,
  day: string,
  now: Date,
  afterOrder?: (orderId: number) => void,
): Promise<DayOutcome> {
  return bookAverageDay<never>(db, contractId, day, 'fills', async (tx, c, lots) => {
    await tx
      .updateTable('contracts')
      .set((eb) => ({
        frozen_quantity: eb('frozen_quantity', '+', lots),
        remaining_quantity: eb('remaining_quantity', '-', lots),
        updated_at: now,
      }))
      .where('id', '=', c.id)
      .execute();
    const order = await tx
      .insertInto('orders')
      .values({
        tenant_id: c.tenant_id,
        contract_id: c.id,
        pricer_id: c.pricer_id,
        instrument_id: c.instrument_id,
        direction: c.direction,
        volume_orign: lots,
        limit_price: 0, // a market order: the day's price is what the market gives at the fixing time
        basis: c.basis,
        status: 'PENDING',
        last_msg: ORDER_TEXTS.waiting,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const orderId = Number(order.id);
    afterOrder?.(orderId);
    return { orderId };
  });
}

/**
 * Runs {@link runAverageFixings} now and every `everyMs` (default 20 s: the window from the fixing
 * time to the close is 10 minutes by default). `now` is the clock (injected by tests).
 */
export function watchAverageFixings(opts: {
  db: Kysely<DB>;
  events?: TradingPort | undefined;
  fixingTime?: FixingTime;
  now?: () => Date;
  everyMs?: number;
  logger: Logger;
}): Periodic {
  const job = async () => {
    const run = await runAverageFixings(opts.db, {
      now: opts.now?.() ?? new Date(),
      events: opts.events,
      ...(opts.fixingTime ? { fixingTime: opts.fixingTime } : {}),
    });
    const fixed = run.filter((r) => r.outcome === 'fixed');
    if (fixed.length) opts.logger.info({ fixed }, 'average fixings');
  };
  return every('average fixings', opts.everyMs ?? 20_000, job, opts.logger);
}
