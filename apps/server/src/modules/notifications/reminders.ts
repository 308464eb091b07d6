import { addTradingDays, exchangeOfSymbol, tradingDaysBetween } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { every, type Periodic } from '../../platform/every';
import type { Logger } from '../../platform/logger';
import { beijingText } from '../../platform/time';
import { notify } from './notify';

/** Which reminder a contract is due, `days` trading days before its fixing deadline. */
export function reminderOf(days: number): 'deadline_t3' | 'deadline_t1' | 'deadline_today' | undefined {
  if (days === 0) return 'deadline_today';
  if (days === 1) return 'deadline_t1';
  if (days === 2 || days === 3) return 'deadline_t3';
  return undefined;
}

/**
 * The fixing-deadline reminders (T-3, T-1, the last day; trading days of the contract's exchange,
 * docs/calendar.md: on a Friday a Wednesday deadline is T-3) of every
 * active or paused contract with lots still to fix. Each reminder is recorded once per contract: its
 * ref (`deadline_t3:<contract>`) is unique, so two instances running this at once, or a restart,
 * write it once. A server that was down on T-3 sends the T-3 reminder on T-2 (with the days left).
 * Returns how many were recorded now.
 */
export async function remindDeadlines(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const today = beijingText(now).slice(0, 10);
  // Three trading days ahead (all the exchanges keep one calendar); each contract counts its own below.
  const until = addTradingDays('SHFE', today, 3);
  const due = await db
    .selectFrom('contracts as c')
    .innerJoin('pricer_users as p', 'p.id', 'c.pricer_id')
    .select([
      'c.id',
      'c.tenant_id',
      'c.pricer_id',
      'c.name',
      'c.instrument_id',
      'c.fixing_deadline',
      'c.remaining_quantity',
      sql<string>`coalesce(nullif(btrim(p.full_name), ''), p.username)`.as('username'),
    ])
    .where('c.status', 'in', ['active', 'paused'])
    .where('c.remaining_quantity', '>', 0)
    .where('c.fixing_deadline', '>=', today)
    .where('c.fixing_deadline', '<=', until)
    .orderBy('c.id')
    .execute();
  let recorded = 0;
  for (const c of due) {
    const days = tradingDaysBetween(exchangeOfSymbol(c.instrument_id) ?? 'SHFE', today, c.fixing_deadline!);
    const kind = reminderOf(days);
    if (!kind) continue;
    const said = zh.notifications.texts.deadline({
      contract: c.name,
      pricer: c.username,
      deadline: c.fixing_deadline!,
      days,
      remaining: c.remaining_quantity,
    });
    const done = await db
      .transaction()
      .execute((tx) =>
        notify(tx, { tenantId: c.tenant_id, pricerId: c.pricer_id, kind, ...said, ref: `${kind}:${c.id}` }),
      );
    if (done) recorded++;
  }
  return recorded;
}

/** remindDeadlines now and every `everyMs` (default 10 min); stopped by the server's onClose. */
export function watchReminders(opts: { db: Kysely<DB>; everyMs?: number; logger: Logger }): Periodic {
  return every(
    'deadline reminders',
    opts.everyMs ?? 600_000,
    async () => void (await remindDeadlines(opts.db)),
    opts.logger,
  );
}
