import { zh } from '@pfp/i18n';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { every, type Periodic } from '../../platform/every';
import type { Logger } from '../../platform/logger';
import { beijingText } from '../../platform/time';
import { notify } from './notify';

const DAY_MS = 86_400_000;
const dayNumber = (ymd: string) => Date.UTC(+ymd.slice(0, 4), +ymd.slice(5, 7) - 1, +ymd.slice(8, 10)) / DAY_MS;

/** Which reminder a contract is due, `days` calendar days (Beijing) before its fixing deadline. */
export function reminderOf(days: number): 'deadline_t3' | 'deadline_t1' | 'deadline_today' | undefined {
  if (days === 0) return 'deadline_today';
  if (days === 1) return 'deadline_t1';
  if (days === 2 || days === 3) return 'deadline_t3';
  return undefined;
}

/**
 * The fixing-deadline reminders (T-3, T-1, the last day; calendar days in Beijing time) of every
 * active or paused contract with lots still to fix. Each reminder is recorded once per contract: its
 * ref (`deadline_t3:<contract>`) is unique, so two instances running this at once, or a restart,
 * write it once. A server that was down on T-3 sends the T-3 reminder on T-2 (with the days left).
 * Returns how many were recorded now.
 */
export async function remindDeadlines(db: Kysely<DB>, now: Date = new Date()): Promise<number> {
  const today = beijingText(now).slice(0, 10);
  const until = new Date((dayNumber(today) + 3) * DAY_MS).toISOString().slice(0, 10);
  const due = await db
    .selectFrom('contracts as c')
    .innerJoin('pricer_users as p', 'p.id', 'c.pricer_id')
    .select(['c.id', 'c.tenant_id', 'c.pricer_id', 'c.name', 'c.fixing_deadline', 'c.remaining_quantity', 'p.username'])
    .where('c.status', 'in', ['active', 'paused'])
    .where('c.remaining_quantity', '>', 0)
    .where('c.fixing_deadline', '>=', today)
    .where('c.fixing_deadline', '<=', until)
    .orderBy('c.id')
    .execute();
  let recorded = 0;
  for (const c of due) {
    const days = dayNumber(c.fixing_deadline!) - dayNumber(today);
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
