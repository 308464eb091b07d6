/**
 * The fixing's margin check alone (issue 31 §7, migration 021 margin_check), on PostgreSQL, against the
 * driver-level floor (`select 1` through the same pool): what the check adds to a fixing's one
 * statement, for a contract without a rate and for one with a rate while the customer has 0, 40 and 80
 * open orders (the trading bench's resting orders pile up to about that).
 *
 *   npx tsx bench/marginCheck.bench.ts [--calls=3000]
 *
 * Each call is its own statement (the check locks the account and commits at once). Not part of CI.
 */
import { sql } from 'kysely';
import { migrate, openDatabase } from '../src/platform/db/database';
import { SQL_OBJECTS } from '../src/modules';
import { futuresWithOptions } from '../src/market/catalogue';
import { seedCatalogue } from '../src/seed/catalogue';
import { createDatabase, startPostgres } from '../test/postgres';
import { deadline, fmt, footer, header, summarize, type Summary } from './lib/stats';

const CALLS = Number(process.argv.find((a) => a.startsWith('--calls='))?.split('=')[1] ?? 3000);

header(`the margin check of a fixing, ${CALLS} calls each, against select 1 (PostgreSQL)`);
const guard = deadline(180_000, 'margin check bench');
const pg = await startPostgres();
try {
  await Promise.race([run(), guard.promise]);
} finally {
  guard.cancel();
  pg.stop();
}
footer();

async function run() {
  const db = await openDatabase({ databaseUrl: await createDatabase(pg.url, 'bench'), dataDir: '' });
  await migrate(db, { sqlObjects: SQL_OBJECTS });
  await seedCatalogue(db);
  const symbol = futuresWithOptions('SHFE', 'cu')[2]!.symbol;
  const tenant = await db
    .insertInto('tenants')
    .values({ owner_sub: 'bench-margin', company_name: '压测', is_sim: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pricer = await db
    .insertInto('pricer_users')
    .values({ tenant_id: tenant.id, username: 'p', password_hash: 'x', phone: null, status: 'active' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const contract = async (margin_rate: number) =>
    (
      await db
        .insertInto('contracts')
        .values({
          tenant_id: tenant.id,
          name: `c${margin_rate}`,
          margin_rate,
          pricer_id: pricer.id,
          product_name: '铜',
          instrument_id: symbol,
          direction: 'BUY',
          total_quantity: 1_000_000,
          remaining_quantity: 1_000_000,
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const plain = await contract(0);
  const margined = await contract(0.1);
  await db
    .insertInto('pricer_accounts')
    .values({ pricer_id: pricer.id, tenant_id: tenant.id, balance: 1e12, credit_line: 0 })
    .execute();
  const prices = JSON.stringify({ [symbol]: 75_000 });
  const check = (contractId: number) => () =>
    sql`select margin_check(${tenant.id}::integer, ${pricer.id}::integer, ${contractId}::integer, 1, 75000::numeric,
                            ${prices}::jsonb)`.execute(db);
  let open = 0;
  const openOrders = async (n: number) => {
    for (; open < n; open++)
      await db
        .insertInto('orders')
        .values({
          tenant_id: tenant.id,
          contract_id: margined,
          pricer_id: pricer.id,
          instrument_id: symbol,
          direction: 'BUY',
          volume_orign: 1,
          limit_price: 70_000,
          basis: 0,
          status: 'ALIVE',
          last_msg: '',
        })
        .execute();
  };
  const floor = await time(() => sql`select 1`.execute(db));
  const line = (label: string, s: Summary) =>
    console.log(
      `${label.padEnd(38)} p50 ${fmt(s.p50, 3)} ms  p99 ${fmt(s.p99, 3)} ms   ÷ select 1: p50 ${fmt(s.p50 / floor.p50, 2)}×, adds ${fmt(s.p50 - floor.p50, 3)} ms`,
    );
  line('select 1 (the driver-level floor)', floor);
  line('check, contract without a rate', await time(check(plain)));
  for (const n of [0, 40, 80]) {
    await openOrders(n);
    line(`check, rate 10 %, ${n} open orders`, await time(check(margined)));
  }
  await db.destroy();
}

async function time(call: () => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < 200; i++) await call();
  const took: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await call();
    took.push(performance.now() - t0);
  }
  return summarize(took);
}
