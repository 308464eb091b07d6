import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ContractTable, DB } from '../../platform/db/schema';
import { tradingDaysIn } from '../../market/calendar';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { dayShare } from './terms';

export type DayOutcome =
  | { outcome: 'fixed'; orderId: number; tenantId: number; lots: number }
  /** Already fixed today (another run or instance), or nothing left. */
  | { outcome: 'done' }
  /** Not fixable now (paused, expired, customer 停用): the day's share moves on. */
  | { outcome: 'blocked' };

/** The contract as its day's booking reads it, locked. */
export type DayContract = Pick<
  Selectable<ContractTable>,
  'id' | 'tenant_id' | 'pricer_id' | 'instrument_id' | 'direction' | 'basis' | 'remaining_quantity'
>;

/** What a basis booked for the day's share: its order, the audit row's additions, what follows the row. */
export interface BookedDay {
  orderId: number;
  audit?: Record<string, unknown>;
  /** After the day's row and its audit, in the same transaction (the fills-booked hooks). */
  after?: () => Promise<void>;
}

/**
 * One average contract's day, for either 均价依据 (average.ts 成交价, settlement.ts 结算价), in ONE
 * transaction — the guard of exactly once: the contract locked first (the lock order of a submit), its
 * customer share-locked, the day's average_fixings row looked for; when absent and the contract can fix,
 * the day's share (lots left ÷ trading days left, all of it after the window) goes to `book`, then the
 * row (primary key (contract_id, day)) and the audit row are inserted. A second instance waits on the
 * lock and then finds the row; a crash before the commit leaves nothing, after it everything.
 *
 * `book` places the share as its basis does, or answers why the day waits (`W`, nothing written yet).
 */
export async function bookAverageDay<W = never>(
  db: Kysely<DB>,
  contractId: number,
  day: string,
  basis: 'fills' | 'settlement',
  book: (tx: Transaction<DB>, c: DayContract, lots: number) => Promise<BookedDay | W>,
): Promise<DayOutcome | W> {
  return db.transaction().execute(async (tx): Promise<DayOutcome | W> => {
    const c = await tx
      .selectFrom('contracts as c')
      .innerJoin('pricer_users as p', 'p.id', 'c.pricer_id')
      .select([
        'c.id',
        'c.tenant_id',
        'c.pricer_id',
        'c.instrument_id',
        'c.direction',
        'c.basis',
        'c.status',
        'c.remaining_quantity',
        'c.average_end',
        'c.fixing_deadline',
        'p.status as pricer_status',
      ])
      .where('c.id', '=', contractId)
      .where('c.pricing_mode', '=', 'average')
      .where('c.average_basis', '=', basis)
      .forUpdate('c')
      .forShare('p')
      .executeTakeFirst();
    if (!c) return { outcome: 'done' };
    const already = await tx
      .selectFrom('average_fixings')
      .select('day')
      .where('contract_id', '=', contractId)
      .where('day', '=', day)
      .executeTakeFirst();
    if (already || c.remaining_quantity <= 0) return { outcome: 'done' };
    if (c.status !== 'active' || c.pricer_status === 'inactive') return { outcome: 'blocked' };
    if (c.fixing_deadline && c.fixing_deadline < day) return { outcome: 'blocked' };
    const end = c.average_end!;
    const daysLeft = day > end ? 1 : tradingDaysIn(day, end).length;
    const lots = dayShare(c.remaining_quantity, daysLeft);
    const booked = await book(tx, c, lots);
    if (!isBooked(booked)) return booked;
    const { orderId } = booked;
    await tx
      .insertInto('average_fixings')
      .values({ contract_id: c.id, day, tenant_id: c.tenant_id, planned_lots: lots, order_id: orderId })
      .execute();
    await audit(tx, {
      tenantId: c.tenant_id,
      actor: SYSTEM_ACTOR,
      action: 'average-fixing',
      payload: { contract_id: c.id, day, lots, days_left: daysLeft, order_id: orderId, ...booked.audit },
    });
    await booked.after?.();
    return { outcome: 'fixed', orderId, tenantId: c.tenant_id, lots };
  });
}

const isBooked = (r: unknown): r is BookedDay =>
  typeof r === 'object' && r !== null && typeof (r as { orderId?: unknown }).orderId === 'number';

/** The average contracts of one 均价依据 with `day` still to book: active, lots left, started, no row for the day. */
export function dueAverageContracts(db: Kysely<DB>, basis: 'fills' | 'settlement', day: string) {
  return db
    .selectFrom('contracts as c')
    .select(['c.id', 'c.instrument_id'])
    .where('c.pricing_mode', '=', 'average')
    .where('c.average_basis', '=', basis)
    .where('c.status', '=', 'active')
    .where('c.remaining_quantity', '>', 0)
    .where('c.average_start', '<=', day)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('average_fixings as f')
            .select('f.day')
            .whereRef('f.contract_id', '=', 'c.id')
            .where('f.day', '=', day),
        ),
      ),
    )
    .orderBy('c.id')
    .execute();
}
