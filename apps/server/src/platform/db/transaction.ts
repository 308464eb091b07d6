import type { Kysely, Transaction } from 'kysely';

/**
 * SQLSTATEs of a transaction PostgreSQL chose to abort so that others could go on: a deadlock victim
 * (40P01) and a serialization failure (40001). Everything it did is rolled back: running it once more
 * is safe, and usually succeeds (the other transaction has committed meanwhile).
 */
const VICTIM = new Set(['40P01', '40001']);

export function isDeadlockVictim(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && VICTIM.has(code)) return true;
  }
  return false;
}

/**
 * The wait before a victim runs again, random in [5, 25) ms: the transaction that won wakes, takes the rows it waited
 * for and commits first. Run at once, the victim could take one of those rows before it and cross it again — seen on
 * a loaded machine (CI): both transactions of the crossed pair ran twice.
 */
const RETRY_AFTER_MS = { least: 5, spread: 20 };

/**
 * Runs `run` (one statement, or a whole transaction) again once when PostgreSQL aborted it as a
 * deadlock victim, after a short wait (RETRY_AFTER_MS). The paths of the money keep one lock order (docs/margin.md
 * "Lock order"), so a deadlock is not expected; this keeps one that slips through (a new path, an order no one saw)
 * from becoming a 500 for a call that has no key to retry with (a 条件单, a 转月, a 延期).
 */
export async function retryDeadlockVictim<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isDeadlockVictim(err)) throw err;
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS.least + Math.random() * RETRY_AFTER_MS.spread));
    return run();
  }
}

/**
 * A transaction (Kysely's), run once more when it was a deadlock victim (retryDeadlockVictim). Given a
 * transaction, `run` joins it: an approved call (issue 42) applies in the transaction that claims its
 * approval, so the claim and the change commit together or not at all.
 */
export function inTransaction<DB, T>(db: Kysely<DB>, run: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return run(db as Transaction<DB>);
  return retryDeadlockVictim(() => db.transaction().execute(run));
}
