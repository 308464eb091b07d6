/**
 * Conditional orders (issue 16, docs/conditional-orders.md): 10,000 waiting conditions over 100
 * instruments on PostgreSQL. Measures
 *   - the engine's cost per tick (ConditionEngine.onTick, synchronous part) for ticks that cross
 *     nothing, and for ticks that cross one condition (that includes starting its transaction);
 *   - crossing tick → the trigger transaction committed (condition TRIGGERED, PENDING order in the
 *     database), one crossing at a time and in bursts of 20 crossings in one tick.
 * Goal: p99 ≤ 1 ms per tick, crossing → PENDING order p99 ≤ 20 ms.
 *
 *   npx tsx bench/conditions.bench.ts [--ticks=20000] [--crossings=300]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { migrate, openDatabase } from '../src/platform/db/database';
import { SQL_OBJECTS } from '../src/modules';
import { seedCatalogue } from '../src/seed/catalogue';
import { ConditionEngine } from '../src/trading/conditions';
import { triggerConditional } from '../src/modules/conditional/conditional';
import type { Quote } from '../src/trading/quotes';
import { createDatabase, startPostgres } from '../test/postgres';
import { deadline, fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const TICKS = numberArg('ticks', 20_000);
const CROSSINGS = numberArg('crossings', 300);
const INSTRUMENTS = 100;
const PER_INSTRUMENT = 100;
const TENANTS = 10;
const BASE = 10_000;
const STEP = 10;

header(`conditional orders: ${INSTRUMENTS * PER_INSTRUMENT} waiting over ${INSTRUMENTS} instruments (PostgreSQL)`);
const guard = deadline(240_000, 'conditions bench');
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
  const symbols = (
    await db.selectFrom('instruments').select('symbol').orderBy('symbol').limit(INSTRUMENTS).execute()
  ).map((r) => r.symbol);
  if (symbols.length < INSTRUMENTS) throw new Error('not enough instruments in the catalogue');

  // TENANTS tenants, one customer each; one contract per (tenant, instrument) holding the lots.
  const tenants: { tenantId: number; pricerId: number }[] = [];
  for (let t = 0; t < TENANTS; t++) {
    const tenant = await db
      .insertInto('tenants')
      .values({ owner_sub: `bench-${t}`, company_name: `压测${t}`, is_sim: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pricer = await db
      .insertInto('pricer_users')
      .values({ tenant_id: tenant.id, username: `p${t}`, password_hash: 'x', status: 'active' })
      .returning('id')
      .executeTakeFirstOrThrow();
    tenants.push({ tenantId: tenant.id, pricerId: pricer.id });
  }
  const perContract = PER_INSTRUMENT / TENANTS;
  for (const [i, symbol] of symbols.entries()) {
    for (const [t, who] of tenants.entries()) {
      const c = await db
        .insertInto('contracts')
        .values({
          tenant_id: who.tenantId,
          name: `压测-${symbol}`,
          pricer_id: who.pricerId,
          product_name: (
            await db
              .selectFrom('instruments')
              .select('product_name')
              .where('symbol', '=', symbol)
              .executeTakeFirstOrThrow()
          ).product_name,
          instrument_id: symbol,
          direction: 'BUY',
          total_quantity: 1000,
          frozen_quantity: perContract,
          remaining_quantity: 1000 - perContract,
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Half '>=' above the market, half '<=' below, on distinct thresholds per instrument.
      const rows = Array.from({ length: perContract }, (_, j) => {
        const k = t * perContract + j; // 0..99 over the instrument
        const up = k % 2 === 0;
        const n = Math.floor(k / 2) + 1; // 1..50
        return {
          tenant_id: who.tenantId,
          contract_id: c.id,
          pricer_id: who.pricerId,
          instrument_id: symbol,
          direction: 'BUY' as const,
          quantity: 1,
          trigger_op: up ? ('>=' as const) : ('<=' as const),
          trigger_price: up ? BASE + n * 10 * STEP : BASE - n * 10 * STEP,
          order_price: 0,
          expires_at: new Date(Date.now() + 86_400_000),
          status: 'WAITING' as const,
        };
      });
      await db.insertInto('conditional_orders').values(rows).execute();
    }
    void i;
  }
  await sql`analyze`.execute(db);

  const committed = new Map<number, (t: number) => void>();
  const engine = new ConditionEngine({
    db,
    quotes: { getQuote: () => undefined, onTick: () => () => {}, priceTick: () => STEP },
    trigger: triggerConditional,
    onTriggered: () => {},
    onOutcome: (id, r) => {
      if (r.outcome === 'triggered') committed.get(id)?.(performance.now());
    },
  });
  const loadStart = performance.now();
  for (const who of tenants) await engine.watchTenant(who.tenantId);
  console.log(`loaded ${engine.size()} waiting conditions in ${fmt(performance.now() - loadStart)} ms`);

  // 1. Ticks that cross nothing: the market moves within ±9 ticks of BASE on random instruments.
  const quiet: number[] = [];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < TICKS; i++) {
    const changed: Quote[] = Array.from({ length: 5 }, () => ({
      symbol: symbols[Math.floor(rnd() * INSTRUMENTS)]!,
      last_price: BASE + Math.round((rnd() * 2 - 1) * 9) * STEP,
    }));
    const t0 = performance.now();
    engine.onTick(changed);
    quiet.push((performance.now() - t0) * 1000);
  }
  console.log(`tick of 5 quotes crossing nothing:   ${latencyLine(summarize(quiet), 'µs')}`);

  // 2. One crossing at a time: each tick crosses the next '>=' condition of one instrument.
  const crossTick: number[] = [];
  const toDb: number[] = [];
  const next = new Map<string, number>();
  const upIds = new Map<string, number[]>();
  for (const r of await db
    .selectFrom('conditional_orders')
    .select(['id', 'instrument_id', 'trigger_price'])
    .where('trigger_op', '=', '>=')
    .orderBy('trigger_price')
    .execute()) {
    upIds.set(r.instrument_id, [...(upIds.get(r.instrument_id) ?? []), r.id]);
  }
  for (let i = 0; i < CROSSINGS; i++) {
    const symbol = symbols[i % INSTRUMENTS]!;
    const n = (next.get(symbol) ?? 0) + 1;
    next.set(symbol, n);
    const id = upIds.get(symbol)![n - 1]!;
    const done = new Promise<number>((resolve) => committed.set(id, resolve));
    const t0 = performance.now();
    engine.onTick([{ symbol, last_price: BASE + n * 10 * STEP }]);
    crossTick.push((performance.now() - t0) * 1000);
    toDb.push((await done) - t0);
  }
  console.log(`tick crossing one condition:         ${latencyLine(summarize(crossTick), 'µs')}`);
  console.log(`crossing → PENDING order committed:   ${latencyLine(summarize(toDb))}`);

  // 3. Bursts: one tick crosses the first '<=' condition of 20 instruments at once (each instrument once).
  const burst: number[] = [];
  const downIds = new Map<string, number[]>();
  for (const r of await db
    .selectFrom('conditional_orders')
    .select(['id', 'instrument_id'])
    .where('trigger_op', '=', '<=')
    .orderBy('trigger_price', 'desc')
    .execute()) {
    downIds.set(r.instrument_id, [...(downIds.get(r.instrument_id) ?? []), r.id]);
  }
  for (let round = 0; round < 5; round++) {
    const changed: Quote[] = [];
    const waits: Promise<number>[] = [];
    for (let j = 0; j < 20; j++) {
      const symbol = symbols[round * 20 + j]!;
      const id = downIds.get(symbol)![0]!;
      waits.push(new Promise<number>((resolve) => committed.set(id, resolve)));
      changed.push({ symbol, last_price: BASE - 10 * STEP });
    }
    const t0 = performance.now();
    engine.onTick(changed);
    for (const t of await Promise.all(waits)) burst.push(t - t0);
  }
  console.log(`burst of 20 crossings in one tick:    ${latencyLine(summarize(burst))}`);
  const orders = await db
    .selectFrom('orders')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  console.log(`orders created: ${orders.n} (expected ${CROSSINGS + 100}); still watched: ${engine.size()}`);
  await engine.stop();
  await db.destroy();
}
