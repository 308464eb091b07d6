/**
 * A deadlock victim run once more (transaction.ts), on a real PostgreSQL: two transactions that take
 * two rows in opposite orders deadlock; PostgreSQL aborts one. Through inTransaction both commit.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from './database';
import { inTransaction, isDeadlockVictim } from './transaction';

let db: Kysely<any>;
beforeAll(async () => {
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: '' });
  await sql`create table lock_pair (id integer primary key, v integer not null)`.execute(db);
  await sql`insert into lock_pair values (1, 0), (2, 0)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
});

/** Two transactions, each holding its first row when the other asks for it. */
async function crossed(run: (db: Kysely<any>, work: (tx: Transaction<any>) => Promise<void>) => Promise<void>) {
  let attempts = 0;
  let arrived = 0;
  let bothHold!: () => void;
  const barrier = new Promise<void>((resolve) => (bothHold = resolve));
  const work = (first: number, second: number) => async (tx: Transaction<any>) => {
    attempts++;
    await sql`update lock_pair set v = v + 1 where id = ${first}`.execute(tx);
    if (++arrived === 2) bothHold();
    await barrier;
    await sql`update lock_pair set v = v + 1 where id = ${second}`.execute(tx);
  };
  const results = await Promise.allSettled([run(db, work(1, 2)), run(db, work(2, 1))]);
  return { attempts, results };
}

it('a plain transaction fails as the victim; inTransaction runs it once more and both commit', async () => {
  const plain = await crossed((d, work) => d.transaction().execute(work));
  const failed = plain.results.filter((r) => r.status === 'rejected');
  expect(failed).toHaveLength(1);
  expect(isDeadlockVictim((failed[0] as PromiseRejectedResult).reason)).toBe(true);

  await sql`update lock_pair set v = 0`.execute(db);
  const retried = await crossed((d, work) => inTransaction(d, work));
  expect(retried.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  expect(retried.attempts).toBe(3);
  const { rows } = await sql<{ v: number }>`select v from lock_pair order by id`.execute(db);
  expect(rows.map((r) => Number(r.v))).toEqual([2, 2]);
});
