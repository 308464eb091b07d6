/**
 * Execution (issue "Markets and trading"): submit → accepted by the simulated broker and
 * submit → first fill for marketable orders, at 200 orders/s across 20 tenants, on PostgreSQL; issue 19
 * item 3: `--rate=1000 --tenants=100`.
 *
 *   npx tsx bench/trading.bench.ts [--seconds=15] [--warmup=2] [--rate=200] [--tenants=20] [--db-concurrency=5] [--pg-stats] [--no-margin]
 *   (--pg-stats: pg_stat_statements loaded, the statements that took the most time printed at the end)
 *   (TICK_MS, SWEEP_MS: market tick and outbox sweep periods)
 *
 * In process: a throwaway cluster, the server's migrations and catalogue, the simulated exchange
 * ticking every 500 ms, the trading service (outbox sweep + per-tenant routers + simulated broker),
 * and `submitOrder` — the same code path as POST /api/pricer/rpc/submit-order after validation.
 * Times: t0 = just before submitOrder; accepted = order_dispatch.accepted_at; fill = the order's
 * first trades row. At the end the books are checked: every submitted order stored and accepted, and every
 * contract's lots match its orders (executed = lots traded, frozen = the open rest of its live orders).
 * Issue 31 §7: every tenant also has a BUY and a SELL contract with a 10 % margin rate (its customer's
 * account holding enough): every other group of four submits goes to them, so they take the checked
 * transaction (freeze, lock the account, read what holds margin, insert, audit) while the others keep
 * the one-statement path; both are measured in the same run under the same load, and the ratio of
 * their p99 submit → accepted is printed against the goal ≤ 1.2.
 * Bounded by count and time; not part of CI.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { migrate, openDatabase } from '../src/platform/db/database';
import { SQL_OBJECTS } from '../src/modules';
import { submitOrder } from '../src/modules/orders/orders';
import { findInstrument, futuresWithOptions } from '../src/market/catalogue';
import { SimExchange } from '../src/market/simExchange';
import { seedCatalogue } from '../src/seed/catalogue';
import { createTradingService } from '../src/trading';
import { createDatabase, startPostgres } from '../test/postgres';
import { enableStatementStats, printStatementStats } from './lib/pg';
import { cpuLine, deadline, footer, header, latencyLine, machineCpu, summarize } from './lib/stats';
import { triggerConditional } from '../src/modules/conditional/conditional';
import { numberArg } from './lib/args';

const SECONDS = numberArg('seconds', 15);
const WARMUP = numberArg('warmup', 2);
const RATE = numberArg('rate', 200);
const TENANTS = numberArg('tenants', 20);
/** Order-router transactions at once (the server's TRADING_DB_CONCURRENCY; its default on PostgreSQL); 0 = unbounded. */
const DB_CONCURRENCY = numberArg('db-concurrency', 5);
const PG_STATS = process.argv.includes('--pg-stats');
/** --no-margin: every submit on the contracts without a rate (the bench as it was before issue 31). */
const WITH_MARGIN = !process.argv.includes('--no-margin');

header(
  `trading: ${RATE} orders/s for ${SECONDS} s across ${TENANTS} tenants (PostgreSQL, router transactions at once: ${DB_CONCURRENCY || 'unbounded'})`,
);
const guard = deadline(180_000, 'trading bench');
const pg = await startPostgres();
if (PG_STATS) await enableStatementStats(pg.url);
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
  // 20 tenants, each with one customer and a BUY and a SELL contract big enough never to run out.
  const future = futuresWithOptions('SHFE', 'cu')[2]!;
  const instrument = await db
    .selectFrom('instruments')
    .selectAll()
    .where('symbol', '=', future.symbol)
    .executeTakeFirstOrThrow();
  const who: {
    tenantId: number;
    pricerId: number;
    buy: number;
    sell: number;
    marginBuy: number;
    marginSell: number;
  }[] = [];
  for (let t = 0; t < TENANTS; t++) {
    const tenant = await db
      .insertInto('tenants')
      .values({ owner_sub: `bench-${t}`, company_name: `压测${t}`, is_sim: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pricer = await db
      .insertInto('pricer_users')
      .values({ tenant_id: tenant.id, username: `p${t}`, password_hash: 'x', phone: null, status: 'active' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const contract = (direction: 'BUY' | 'SELL', margin_rate = 0) =>
      db
        .insertInto('contracts')
        .values({
          tenant_id: tenant.id,
          name: `${direction}-${t}${margin_rate ? '-margin' : ''}`,
          margin_rate,
          pricer_id: pricer.id,
          product_name: instrument.product_name,
          instrument_id: instrument.symbol,
          direction,
          total_quantity: 1_000_000,
          remaining_quantity: 1_000_000,
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    who.push({
      tenantId: tenant.id,
      pricerId: pricer.id,
      buy: (await contract('BUY')).id,
      sell: (await contract('SELL')).id,
      marginBuy: (await contract('BUY', 0.1)).id,
      marginSell: (await contract('SELL', 0.1)).id,
    });
    await db
      .insertInto('pricer_accounts')
      .values({ pricer_id: pricer.id, tenant_id: tenant.id, balance: 1_000_000_000, credit_line: 0 })
      .execute();
  }

  const market = new SimExchange({ seed: 5, tickIntervalMs: Number(process.env.TICK_MS ?? 500) });
  market.start();
  const trading = createTradingService({
    trigger: triggerConditional,
    db,
    sweepMs: Number(process.env.SWEEP_MS ?? 1000),
    ...(DB_CONCURRENCY ? { dbConcurrency: DB_CONCURRENCY } : {}),
    quotes: {
      getQuote: (s) => market.getQuote(s),
      onTick: (cb) => market.onTick((q) => cb([...q])),
      priceTick: (s) => findInstrument(s)?.tick,
    },
  });
  await trading.start();

  // Paced submits: even orders marketable (2% through the market), odd ones resting 5% away. The
  // first WARMUP seconds (a cold process: JIT, first query plans) are reported on their own line.
  const t0 = new Map<number, number>();
  const marketable = new Set<number>();
  const warm = new Set<number>();
  const withMargin = new Set<number>();
  // submitOrder's own answer (the fixing's statement or transaction), timed to the microsecond.
  const answeredPlain: number[] = [];
  const answeredMargin: number[] = [];
  const lastPrice = (symbol: string) => market.getQuote(symbol)?.last_price;
  const warmupCount = RATE * WARMUP;
  const total = RATE * (WARMUP + SECONDS);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const start = performance.now();
  let cpuFrom = machineCpu();
  let nodeFrom = process.cpuUsage();
  const inflight: Promise<void>[] = [];
  let refused = 0;
  let firstRefusal: string | undefined;
  for (let i = 0; i < total; i++) {
    if (i === warmupCount) {
      cpuFrom = machineCpu();
      nodeFrom = process.cpuUsage();
    }
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const w = who[i % TENANTS]!;
    const buy = i % 4 < 2;
    const margined = WITH_MARGIN && i % 8 >= 4; // every combination of side and marketable, with and without margin
    const q = market.getQuote(future.symbol)!;
    const away = i % 2 === 0 ? 0.02 : -0.05;
    const raw = q.last_price * (1 + (buy ? away : -away));
    const price = Math.round(raw / future.tick) * future.tick;
    const sent = Date.now();
    const asked = performance.now();
    inflight.push(
      submitOrder(
        db,
        w,
        {
          contract_id: margined ? (buy ? w.marginBuy : w.marginSell) : buy ? w.buy : w.sell,
          quantity: 1,
          price,
        },
        trading.events,
        undefined,
        new Date(),
        lastPrice,
      ).then(
        (o) => {
          t0.set(o.id, sent);
          if (i >= warmupCount) (margined ? answeredMargin : answeredPlain).push(performance.now() - asked);
          if (margined) withMargin.add(o.id);
          if (i % 2 === 0) marketable.add(o.id);
          if (i < warmupCount) warm.add(o.id);
        },
        // Refused (e.g. no database connection within DB_CONNECT_TIMEOUT_MS): the customer is told, nothing stored.
        (e: Error) => {
          refused++;
          firstRefusal ??= `${e.name}: ${e.message}`;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const submitSeconds = (performance.now() - start) / 1000;
  const cpuTo = machineCpu();
  const node = process.cpuUsage(nodeFrom);
  loop.disable();
  // Let the last orders be accepted and filled.
  await new Promise((r) => setTimeout(r, 3000));

  const statuses = await sql<{ status: string; last_msg: string; n: number }>`
    select status, last_msg, count(*)::int as n from orders group by 1, 2 order by 3 desc`.execute(db);
  console.log('order states:', statuses.rows.map((r) => `${r.status}/${r.last_msg}: ${r.n}`).join(', '));
  const rows = await sql<{ id: number; accepted: Date | null; filled: Date | null }>`
    select o.id, d.accepted_at as accepted, (select min(t.created_at) from trades t where t.order_id = o.id) as filled
      from orders o left join order_dispatch d on d.order_id = o.id`.execute(db);
  const accepted: number[] = [];
  const filled: number[] = [];
  const coldAccepted: number[] = [];
  const acceptedPlain: number[] = [];
  const acceptedMargin: number[] = [];
  let notAccepted = 0;
  for (const r of rows.rows) {
    const id = Number(r.id);
    const sent = t0.get(id);
    if (sent === undefined) continue;
    if (!r.accepted) notAccepted++;
    else if (warm.has(id)) coldAccepted.push(new Date(r.accepted).getTime() - sent);
    else {
      const took = new Date(r.accepted).getTime() - sent;
      accepted.push(took);
      (withMargin.has(id) ? acceptedMargin : acceptedPlain).push(took);
    }
    if (!warm.has(id) && marketable.has(id) && r.filled) filled.push(new Date(r.filled).getTime() - sent);
  }
  console.log(
    `submitted ${total} orders in ${submitSeconds.toFixed(1)} s (${(total / submitSeconds).toFixed(0)}/s); not accepted: ${notAccepted}`,
  );
  const measured = submitSeconds - WARMUP;
  console.log(
    `after the warm-up: ${cpuLine(cpuFrom, cpuTo, measured)}; ${(((cpuTo.busy - cpuFrom.busy) / (total - warmupCount)) * 1000).toFixed(2)} ms of CPU per fixing (server, PostgreSQL and the load together), of which this Node process ${((node.user + node.system) / 1000 / (total - warmupCount)).toFixed(2)} ms`,
  );
  // Everything here shares one event loop, as in the server: a stall delays every order behind it.
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `event loop delay while submitting: p50 ${ms(loop.percentile(50))} ms  p99 ${ms(loop.percentile(99))} ms  max ${ms(loop.max)} ms`,
  );
  console.log(`first ${WARMUP} s after start, submit → accepted: ${latencyLine(summarize(coldAccepted))}`);
  console.log(`then ${SECONDS} s, submit → accepted by the simulated broker: ${latencyLine(summarize(accepted))}`);
  console.log(
    `then ${SECONDS} s, submit → first fill (marketable, ${filled.length}): ${latencyLine(summarize(filled))}`,
  );
  if (WITH_MARGIN) {
    const plain = summarize(acceptedPlain);
    const margin = summarize(acceptedMargin);
    console.log(`  without margin (one statement, ${plain.n}): ${latencyLine(plain)}`);
    console.log(`  with margin (10 % rate, ${margin.n}): ${latencyLine(margin)}`);
    const ratio = margin.p99 / plain.p99;
    console.log(
      `goal p99 with margin ≤ 1.2 × without (issue 31 §7): ${ratio <= 1.2 ? 'MET' : 'MISSED'} (${margin.p99.toFixed(1)} / ${plain.p99.toFixed(1)} ms = ${ratio.toFixed(2)})`,
    );
    const us = (s: ReturnType<typeof summarize>) =>
      `p50 ${s.p50.toFixed(2)} ms  p90 ${s.p90.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  max ${s.max.toFixed(2)} ms`;
    const aPlain = summarize(answeredPlain);
    const aMargin = summarize(answeredMargin);
    console.log(`submit → answered (submitOrder itself), without margin: ${us(aPlain)}`);
    console.log(`submit → answered (submitOrder itself), with margin:    ${us(aMargin)}`);
    console.log(
      `  ratio with ÷ without: p50 ${(aMargin.p50 / aPlain.p50).toFixed(2)}, p99 ${(aMargin.p99 / aPlain.p99).toFixed(2)}`,
    );
  }
  // The books: every order stored and accepted, and every contract's lots where its orders put them.
  const lots = await sql<{ contracts: number; wrong: number; orders: number }>`
    select count(*)::int as contracts,
           count(*) filter (where c.executed_quantity <> coalesce(o.traded, 0) or c.frozen_quantity <> coalesce(o.open, 0))::int as wrong,
           coalesce(sum(o.n), 0)::int as orders
      from contracts c
      left join (select contract_id, count(*) as n, sum(volume_traded) as traded,
                        sum(case when status in ('FINISHED', 'CANCELLED') then 0 else volume_orign - volume_traded end) as open
                   from orders group by contract_id) o on o.contract_id = c.id`.execute(db);
  const books = lots.rows[0]!;
  const lost = total - refused - books.orders;
  if (refused) console.log(`submits refused: ${refused} (first: ${firstRefusal})`);
  console.log(
    `books: ${books.orders} orders stored for ${total - refused} answered submits (${lost} lost or added), ${notAccepted} not accepted; contracts whose lots do not match their orders: ${books.wrong} of ${books.contracts}`,
  );
  const p99 = summarize(accepted).p99;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `goal p99 submit → accepted ≤ 20 ms at ${RATE}/s across ${TENANTS} tenants, no order or lot lost: ${p99 <= 20 && refused === 0 && lost === 0 && notAccepted === 0 && books.wrong === 0 ? 'MET' : 'MISSED'} (p99 ${p99.toFixed(1)} ms, ${refused} refused; load average ${load})`,
  );
  if (PG_STATS) await printStatementStats(pg.url);
  await trading.stop();
  market.stop();
  await db.destroy();
}
