/**
 * The trader's accounts view (资金与保证金, issue 31 §7: p99 ≤ 50 ms with 1,000 customers) and the
 * exposure view of the same company, on PGlite and on PostgreSQL.
 *
 *   npx tsx bench/accounts.bench.ts [--reads=200]
 *
 * One company of 1,000 customers, each with an account, a contract with a 10 % margin rate, 5 fixed
 * lots and an open limit order; 100 of them a waiting 条件单 too. The rules the route calls
 * (readAccounts: one statement, marked to a live price; tenantExposure with the simulated positions)
 * are read `reads` times one after the other, after 10 unmeasured reads. A throwaway cluster for
 * PostgreSQL, removed at the end; PGlite in memory. Not part of CI.
 */
import { sql } from 'kysely';
import { tenantExposure, simPositions } from '../src/modules/fixing/exposure';
import { readAccounts } from '../src/modules/margin/accounts';
import { migrate, openDatabase, type Database } from '../src/platform/db/database';
import { SQL_OBJECTS } from '../src/modules';
import { createDatabase, startPostgres } from '../test/postgres';
import { seedMarginBook } from '../test/trading/marginBook';
import { deadline, fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const READS = numberArg('reads', 200);
const CUSTOMERS = 1000;
const GOAL_MS = 50;
const CU = 'SHFE.cu2601';

async function seed(db: Database): Promise<number> {
  await migrate(db, { sqlObjects: SQL_OBJECTS });
  await sql`insert into products (exchange_id, product_id, name) values ('SHFE', 'cu', '铜') on conflict do nothing`.execute(
    db,
  );
  await sql`insert into instruments (symbol, name, exchange_id, product_id, product_name, price_tick, volume_multiple)
            values (${CU}, '沪铜2601', 'SHFE', 'cu', '铜', 10, 5) on conflict do nothing`.execute(db);
  const { id: tenantId } = await db
    .insertInto('tenants')
    .values({ owner_sub: 'bench-accounts', company_name: '压测公司', is_sim: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  await seedMarginBook(db, tenantId, CU, CUSTOMERS);
  return tenantId;
}

async function measure(name: string, read: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await read();
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  const s = summarize(times);
  const verdict = s.p99 <= GOAL_MS ? 'meets' : 'MISSES';
  console.log(
    `  ${name.padEnd(10)} ${latencyLine(s)}  — goal p99 ≤ ${GOAL_MS} ms: ${verdict} (${fmt(s.p99 / GOAL_MS, 2)} of it)`,
  );
}

async function run(label: string, db: Database) {
  const tenantId = await seed(db);
  const lastPrice = () => 78_000;
  const items = await readAccounts(db, { tenantId }, lastPrice);
  if (items.length !== CUSTOMERS) throw new Error(`expected ${CUSTOMERS} accounts, got ${items.length}`);
  console.log(`${label}: ${CUSTOMERS} customers, ${READS} reads each`);
  await measure('accounts', () => readAccounts(db, { tenantId }, lastPrice));
  await measure('exposure', async () =>
    tenantExposure(db, tenantId, { source: 'sim', positions: await simPositions(db, tenantId) }),
  );
}

header(`the accounts and exposure views with ${CUSTOMERS} customers (PGlite, PostgreSQL)`);
const guard = deadline(300_000, 'accounts bench');
const pglite = await openDatabase({ dataDir: 'memory://' });
let pg: Awaited<ReturnType<typeof startPostgres>> | undefined;
try {
  await Promise.race([run('PGlite', pglite), guard.promise]);
  pg = await startPostgres();
  const db = await openDatabase({ databaseUrl: await createDatabase(pg.url, 'bench'), dataDir: '' });
  try {
    await Promise.race([run('PostgreSQL', db), guard.promise]);
  } finally {
    await db.destroy();
  }
} finally {
  guard.cancel();
  await pglite.destroy();
  pg?.stop();
}
footer();
