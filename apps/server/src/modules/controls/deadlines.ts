import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import type { Logger } from '../../platform/logger';
import { every, type Periodic } from '../../platform/every';
import { audit, SYSTEM_ACTOR } from '../audit/audit';
import { expireDueConditionals } from '../conditional/conditional';
import { firstOpenDeadline } from '../contracts/fixingTerms';
import { stopOrder } from './stop';
import { finishStops } from './deactivate';
import { ORDER_TEXTS, type TradingPort } from '../../trading/orderLife';
import { notifyContract } from '../notifications/notify';

/** last_msg of an order cancelled because its contract's fixing deadline passed. */
export const DEADLINE_MESSAGE = ORDER_TEXTS.deadline;
export { SYSTEM_ACTOR };

export interface DeadlineRun {
  /** Contracts that became expired in this run. */
  expired: number[];
  /** PENDING orders cancelled here (their lots are back in remaining). */
  cancelled: number[];
  /** ALIVE orders whose cancel was recorded for the broker (the router applies the result). */
  cancelRequested: number[];
  /** Conditional orders that expired (validity or deadline); their lots are back in remaining. */
  conditionsExpired: number[];
}

/**
 * The fixing deadline (docs/fixing.md): every active or paused contract whose deadline's trading day
 * has closed becomes `expired`, and its live orders are cancelled with last_msg 已过点价截止日.
 *
 * Crash-safe and idempotent, so it runs at start-up, on a timer, and on every instance sharing a
 * PostgreSQL database: the status change is one conditional UPDATE (committed first, so no submit can
 * freeze lots on the contract afterwards), then each open order is handled in its own transaction
 * that locks the order row first (the lock order of the order router). A run interrupted between the
 * two is finished by the next one, which looks for open orders of every contract past its deadline.
 */
export async function expireDueContracts(
  db: Kysely<DB>,
  opts: { now?: Date; events?: TradingPort | undefined } = {},
): Promise<DeadlineRun> {
  const now = opts.now ?? new Date();
  const open = firstOpenDeadline(now);
  const expired = await db.transaction().execute(async (tx) => {
    const rows = await tx
      .updateTable('contracts')
      .set({ status: 'expired', updated_at: now })
      .where('status', 'in', ['active', 'paused'])
      .where('fixing_deadline', '<', open)
      .returning(['id', 'tenant_id', 'fixing_deadline', 'status'])
      .execute();
    for (const c of rows) {
      await audit(tx, {
        tenantId: c.tenant_id,
        actor: SYSTEM_ACTOR,
        action: 'expire-contract',
        payload: { contract_id: c.id, fixing_deadline: c.fixing_deadline, new_status: 'expired' },
      });
      await notifyContract(tx, 'contract_expired', c.id, `contract_expired:${c.id}`);
    }
    return rows.map((r) => r.id);
  });

  // Open orders of contracts past their deadline still owing a cancel (ALIVE ones whose deadline
  // cancel is already recorded are repeated by the router's sweep, not here).
  const due = await db
    .selectFrom('orders as o')
    .innerJoin('contracts as c', 'c.id', 'o.contract_id')
    .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
    .select(['o.id', 'o.tenant_id'])
    .where('c.status', '=', 'expired')
    .where('c.fixing_deadline', '<', open)
    .where((eb) =>
      eb.or([
        eb('o.status', '=', 'PENDING'),
        eb.and([eb('o.status', '=', 'ALIVE'), eb('d.cancel_reason', 'is', null)]),
      ]),
    )
    .orderBy('o.id')
    .execute();
  // Conditions past their validity or on a contract past its deadline give their lots back.
  const conditionsExpired = await expireDueConditionals(db, now);
  const run: DeadlineRun = { expired, cancelled: [], cancelRequested: [], conditionsExpired };
  for (const o of due) {
    const outcome = await stopOrder(db, o.tenant_id, o.id, DEADLINE_MESSAGE, SYSTEM_ACTOR);
    if (outcome === 'cancelled') run.cancelled.push(o.id);
    if (outcome === 'requested') {
      run.cancelRequested.push(o.id);
      opts.events?.cancelRequested(o.id, o.tenant_id);
    }
  }
  return run;
}

/**
 * Runs {@link expireDueContracts} now and then every `everyMs` (default 30 s: a deadline passes at a
 * close, and submits are refused from that instant on anyway; the run only has to catch up).
 */
export function watchDeadlines(opts: {
  db: Kysely<DB>;
  events?: TradingPort | undefined;
  everyMs?: number;
  /** A failed run (an error) and each run that changed anything (info). */
  logger: Logger;
}): Periodic {
  const job = async () => {
    const run = await expireDueContracts(opts.db, { events: opts.events });
    if (run.expired.length || run.cancelled.length || run.cancelRequested.length || run.conditionsExpired.length)
      opts.logger.info(run, 'fixing deadlines');
    // A pause or 停用 whose stop step did not finish (the process died in between) is finished here.
    await finishStops(opts.db, opts.events);
  };
  return every('fixing deadlines', opts.everyMs ?? 30_000, job, opts.logger);
}
