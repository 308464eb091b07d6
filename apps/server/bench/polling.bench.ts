/**
 * Customer polling at scale (issue 19, item 1): the whole server (src/main.ts, a child process: its own event
 * loop and CPU figure) on loopback, on the embedded database (PGlite in a fresh DATA_DIR) and on PostgreSQL.
 *
 *   npx tsx bench/polling.bench.ts [--seconds=60] [--warmup=10] [--flood-seconds=15] [--db=pglite,postgres]
 *     [--polls=5,1] [--cpu-prof=<dir>]
 *
 * 20 tenants, each with 10 customers and one trader. As the apps do it (apps/pricer, apps/trader queries.ts):
 *   - every customer polls my-data-snapshot and my-orders (its contract, newest 50) every P, and fixes (submits a
 *     1-lot limit order at the last price, with a client_order_id) every 5 s;
 *   - every trader's dashboard polls the orders stats (group by status: count, sum(trade_amount)) every P and the
 *     order table (page of 20, newest first, total_count) every 2P.
 * P = 5 s (the spec's interval), then P = 1 s; each after a warm-up. Like TanStack Query's refetchInterval, a
 * poll is not sent again while the previous one is unanswered. Then a flood past capacity (P = 0.1 s, 4× the
 * customers' fixing rate) shows what overload does: 503 + Retry-After (http/overload.ts) instead of a long wait.
 * Customers sign in with pricer-login (the real argon2 check); traders carry RS256 access tokens of a test issuer
 * whose keys the server fetches over HTTP (OIDC_ISSUER), as from Keycloak. No part of the server is replaced.
 *
 * Printed per phase: p50/p99 per call, errors, the server's CPU (and PostgreSQL's), the load average, and the
 * goals met or missed (P = 5 s: p99 ≤ 50 ms, 0 errors; P = 1 s: p99 ≤ 100 ms, 0 errors). After the flood, every
 * customer's order count is compared with its 200-answered submits: a 503 must come before acceptance, never
 * after, and no accepted order may be lost. Bounded: fixed phases, a wall-clock guard. Not part of CI.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AUDIENCE, startTestIssuer } from '../test/harness';
import { createDatabase, startPostgres } from '../test/postgres';
import { startServer, type RunningServer } from '../test/server';
import { cpuSeconds, deadline, fmt, footer, header, summarize } from './lib/stats';
import { numberArg } from './lib/args';
import { must, seedCompany } from './lib/company';

const DBS = (process.argv.find((a) => a.startsWith('--db='))?.split('=')[1] ?? 'pglite,postgres').split(',');
const SECONDS = numberArg('seconds', 60);
const WARMUP = numberArg('warmup', 10);
const FLOOD_SECONDS = numberArg('flood-seconds', 15);
const POLLS = (process.argv.find((a) => a.startsWith('--polls='))?.split('=')[1] ?? '5,1')
  .split(',')
  .map((s) => Number(s) * 1000);
/** --cpu-prof=<dir>: the server writes a V8 CPU profile there when it stops (docs/performance.md). */
const CPU_PROF = process.argv.find((a) => a.startsWith('--cpu-prof='))?.split('=')[1];
const TENANTS = 20;
const PER_TENANT = 10;
const FIX_MS = 5000;
const PASSWORD = 'poll-bench-123';
const REQUEST_TIMEOUT_MS = 30_000;
const GOALS: Record<number, number> = { 5000: 50, 1000: 100 };
const CALLS = ['snapshot', 'my-orders', 'submit', 'stats', 'table'] as const;
type CallName = (typeof CALLS)[number];

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Customer {
  tenant: number;
  token: string;
  contract: number;
  symbol: string;
  price?: number;
  /** Submits answered 200 (accepted), and those with no clear answer (timeout, network). */
  accepted: number;
  unknown: number;
  seq: number;
}
interface Trader {
  token: string;
}

/** Latencies and outcomes of one phase, per call. */
class Recorder {
  readonly lat = new Map<CallName, number[]>(CALLS.map((c) => [c, []]));
  readonly errors = new Map<CallName, Record<string, number>>(CALLS.map((c) => [c, {}]));
  firstError: string | undefined;
  skipped = 0;
  record(call: CallName, ms: number, status: number | string, detail?: string) {
    this.lat.get(call)!.push(ms);
    if (status !== 200) {
      const e = this.errors.get(call)!;
      e[status] = (e[status] ?? 0) + 1;
      this.firstError ??= `${call}: ${status} ${detail ?? ''}`.slice(0, 300);
    }
  }
  errorCount(call?: CallName) {
    let n = 0;
    for (const [c, e] of this.errors) if (!call || c === call) for (const v of Object.values(e)) n += v;
    return n;
  }
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
}

async function setup(base: string, sign: (sub: string) => Promise<string>) {
  const customers: Customer[] = [];
  const traders: Trader[] = [];
  for (let t = 0; t < TENANTS; t++) {
    const token = await sign(`poll-trader-${t}`);
    const company = await seedCompany(base, token, {
      name: `轮询压测公司${t}`,
      customers: PER_TENANT,
      password: PASSWORD,
    });
    for (const c of company.customers)
      customers.push({
        token: c.token,
        contract: c.contract,
        tenant: company.tenant,
        symbol: company.symbol,
        accepted: 0,
        unknown: 0,
        seq: 0,
      });
    traders.push({ token });
  }
  return { customers, traders };
}

/**
 * One phase: every poller on its own timer with a random phase; a request is timed from its send to the last byte.
 * Returns when `ms` have passed and every request sent has been answered.
 */
async function phase(
  base: string,
  who: { customers: Customer[]; traders: Trader[] },
  pollMs: number,
  ms: number,
  rec: Recorder | null,
) {
  const until = performance.now() + ms;
  const pending = new Set<Promise<void>>();
  const timed = (call: CallName, path: string, body: unknown, token: string, then?: (data: any) => void) => {
    const t0 = performance.now();
    const p = post(base, path, body, token).then(
      (r) => {
        // A 503 by its reason: shed (overloaded), the request deadline, or the database.
        const code = r.status === 503 ? /"code":"(\w+)"/.exec(r.text)?.[1] : undefined;
        rec?.record(call, performance.now() - t0, code ? `503 ${code}` : r.status, r.text);
        if (r.status === 200) then?.((JSON.parse(r.text) as { data: unknown }).data);
        return r.status;
      },
      (e: Error) => {
        rec?.record(call, performance.now() - t0, e.name, e.message);
        return 0;
      },
    );
    const done = p.then(() => undefined);
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return p;
  };
  /** A timer like refetchInterval: skipped while the previous call of this poller is unanswered. */
  const every = async (interval: number, task: () => Promise<unknown>) => {
    let busy = false;
    let next = performance.now() + Math.random() * interval;
    while (next < until) {
      await sleep(next - performance.now());
      if (busy) {
        if (rec) rec.skipped++;
      } else {
        busy = true;
        void task().finally(() => (busy = false));
      }
      next += interval;
    }
  };
  const loops: Promise<void>[] = [];
  for (const c of who.customers) {
    loops.push(
      every(pollMs, () =>
        Promise.all([
          timed('snapshot', '/api/pricer/view/my-data-snapshot', {}, c.token, (d) => {
            const m = d.market_data?.[c.symbol];
            if (m?.last_price && m.price_tick) c.price = Math.round(m.last_price / m.price_tick) * m.price_tick;
          }),
          timed(
            'my-orders',
            '/api/pricer/view/my-orders',
            {
              contract_id: c.contract,
              sort_fields: [{ field: 'id', ascending: false }],
              slice_start: 0,
              slice_end: 50,
            },
            c.token,
          ),
        ]),
      ),
    );
    // Fixing: every 5 s at polling, 4× as often in the flood (a rush of customers fixing at once).
    loops.push(
      every(pollMs < 1000 ? FIX_MS / 4 : FIX_MS, async () => {
        if (c.price === undefined) return;
        const status = await timed(
          'submit',
          '/api/pricer/rpc/submit-order',
          {
            contract_id: c.contract,
            quantity: 1,
            price: c.price,
            client_order_id: `b${c.tenant}-${c.contract}-${c.seq++}`,
          },
          c.token,
        );
        if (status === 200) c.accepted++;
        else if (status === 0) c.unknown++;
      }),
    );
  }
  for (const t of who.traders) {
    loops.push(
      every(pollMs, () =>
        timed(
          'stats',
          '/api/trader/view/orders',
          {
            group_by_fields: ['status'],
            aggregate_fields: [
              { field: 'id', op: 'count' },
              { field: 'trade_amount', op: 'sum' },
            ],
          },
          t.token,
        ),
      ),
    );
    loops.push(
      every(2 * pollMs, () =>
        timed(
          'table',
          '/api/trader/view/orders',
          { sort_fields: [{ field: 'id', ascending: false }], slice_start: 0, slice_end: 20 },
          t.token,
        ),
      ),
    );
  }
  await Promise.all(loops);
  while (pending.size) await Promise.all([...pending]);
}

interface PhaseResult {
  label: string;
  rec: Recorder;
  seconds: number;
  serverCpu: number;
  pgCpu: number | null;
  load: string;
  /** The load generator's own event-loop delay: what of a latency is the client's wait for a core. */
  clientLagP99: number;
}

function report(r: PhaseResult, goal: number | null) {
  const requests = CALLS.reduce((n, c) => n + r.rec.lat.get(c)!.length, 0);
  console.log(
    `\n  ${r.label}: ${requests} requests in ${r.seconds.toFixed(0)} s (${(requests / r.seconds).toFixed(0)}/s), server CPU ${((100 * r.serverCpu) / r.seconds).toFixed(0)} % of a core${r.pgCpu === null ? '' : `, PostgreSQL ${((100 * r.pgCpu) / r.seconds).toFixed(0)} %`}; load average ${r.load}`,
  );
  let worst = 0;
  for (const call of CALLS) {
    const s = summarize(r.rec.lat.get(call)!);
    const errors = r.rec.errors.get(call)!;
    worst = Math.max(worst, s.n ? s.p99 : 0);
    const errText = Object.keys(errors).length
      ? Object.entries(errors)
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')
      : '0';
    console.log(
      `    ${call.padEnd(10)} n ${String(s.n).padStart(6)}  p50 ${fmt(s.p50).padStart(7)} ms  p99 ${fmt(s.p99).padStart(7)} ms  max ${fmt(s.max).padStart(7)} ms  errors ${errText}`,
    );
  }
  console.log(`    load generator's event-loop delay p99 ${fmt(r.clientLagP99)} ms (part of every figure above)`);
  if (r.rec.skipped) console.log(`    polls skipped (previous one unanswered): ${r.rec.skipped}`);
  if (r.rec.firstError) console.log(`    first error: ${r.rec.firstError}`);
  if (goal !== null) {
    const errors = r.rec.errorCount();
    const met = worst <= goal && errors === 0;
    console.log(
      `    goal p99 ≤ ${goal} ms for every call, 0 errors: ${met ? 'MET' : 'MISSED'} (worst p99 ${fmt(worst)} ms, errors ${errors}; load average ${r.load})`,
    );
  }
  return { worst, errors: r.rec.errorCount() };
}

async function runOn(db: string) {
  const pg = db === 'postgres' ? await startPostgres() : null;
  const idp = await startTestIssuer();
  let server: RunningServer | undefined;
  const summary: string[] = [];
  try {
    server = await startServer({
      ...(pg ? { DATABASE_URL: await createDatabase(pg.url, 'bench_polling') } : {}),
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: AUDIENCE,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000000',
      ...(CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` } : {}),
    });
    const base = server.base;
    const pid = server.child.pid!;
    const t0 = performance.now();
    const who = await setup(base, (sub) => idp.sign({}, { sub, exp: '2h' }));
    console.log(
      `\n-- ${db}: ${who.customers.length} customers, ${who.traders.length} traders set up through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${load()}`,
    );
    const measure = async (label: string, pollMs: number, seconds: number) => {
      const rec = new Recorder();
      const cpu0 = cpuSeconds([pid]);
      const pg0 = pg ? cpuSeconds(pg.pids()) : 0;
      const w0 = performance.now();
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      await phase(base, who, pollMs, seconds * 1000, rec);
      lag.disable();
      const wall = (performance.now() - w0) / 1000;
      return {
        label,
        rec,
        seconds: wall,
        serverCpu: cpuSeconds([pid]) - cpu0,
        pgCpu: pg ? cpuSeconds(pg.pids()) - pg0 : null,
        load: load(),
        clientLagP99: lag.percentile(99) / 1e6,
      };
    };
    for (const pollMs of POLLS) {
      await phase(base, who, pollMs, WARMUP * 1000, null);
      const r = await measure(`${db}, polling every ${pollMs / 1000} s, ${SECONDS} s`, pollMs, SECONDS);
      const { worst, errors } = report(r, GOALS[pollMs]!);
      summary.push(
        `  ${db.padEnd(8)} every ${pollMs / 1000} s: worst p99 ${fmt(worst).padStart(7)} ms, errors ${errors}, server CPU ${((100 * r.serverCpu) / r.seconds).toFixed(0)} %${r.pgCpu === null ? '' : `, PostgreSQL ${((100 * r.pgCpu) / r.seconds).toFixed(0)} %`} → ${worst <= GOALS[pollMs]! && errors === 0 ? 'met' : 'MISSED'} (goal ${GOALS[pollMs]} ms; load ${r.load})`,
      );
    }
    if (FLOOD_SECONDS <= 0) return summary;
    // Past capacity: what a customer gets is a quick answer or a quick 503, not a 15 s wait.
    const flood = await measure(`${db}, flood: polling every 0.1 s, fixing every 1.25 s`, 100, FLOOD_SECONDS);
    report(flood, null);
    let shed = 0;
    for (const e of flood.rec.errors.values()) shed += e['503 overloaded'] ?? 0;
    const all = CALLS.flatMap((c) => flood.rec.lat.get(c)!);
    const s = summarize(all);
    // The books: every customer's orders are exactly its accepted submits (a 503 never came after acceptance).
    await sleep(5000);
    let orders = 0;
    let accepted = 0;
    let unknown = 0;
    let mismatched = 0;
    for (const c of who.customers) {
      const d = await must(base, '/api/pricer/view/my-orders', { slice_start: 0, slice_end: 1 }, c.token);
      orders += d.total_count as number;
      accepted += c.accepted;
      unknown += c.unknown;
      if (d.total_count !== c.accepted && c.unknown === 0) mismatched++;
    }
    console.log(
      `    flood: ${shed} answers were 503 overloaded (Retry-After), all answers p50 ${fmt(s.p50)} ms p99 ${fmt(s.p99)} ms max ${fmt(s.max)} ms`,
    );
    console.log(
      `    books: ${orders} orders stored, ${accepted} submits answered 200, ${unknown} without an answer; customers whose orders ≠ accepted submits: ${mismatched} → ${mismatched === 0 && unknown === 0 && orders === accepted ? 'no order lost or added' : 'CHECK'}`,
    );
    summary.push(
      `  ${db.padEnd(8)} flood 0.1 s: ${shed} × 503 overloaded, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms; orders ${orders} = accepted ${accepted}: ${orders === accepted ? 'yes' : 'NO'} (load ${flood.load})`,
    );
  } finally {
    await server?.stop();
    await idp.close();
    pg?.stop();
  }
  return summary;
}

header(
  `polling: ${TENANTS * PER_TENANT} customers over ${TENANTS} tenants + ${TENANTS} trader dashboards, ${SECONDS} s per phase after ${WARMUP} s of warm-up (${DBS.join(', ')})`,
);
const guard = deadline(DBS.length * (90 + 2 * (WARMUP + SECONDS + 15) + FLOOD_SECONDS + 60) * 1000, 'polling bench');
try {
  const lines: string[] = [];
  for (const db of DBS) lines.push(...(await Promise.race([runOn(db), guard.promise])));
  console.log('\nsummary (goals: every 5 s p99 ≤ 50 ms, every 1 s p99 ≤ 100 ms, 0 errors):');
  for (const l of lines) console.log(l);
} finally {
  guard.cancel();
}
footer();
process.exit(0);
