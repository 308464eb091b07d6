import pg from 'pg';
import { must, seedCompany } from '../bench/lib/company';
import { startTestIssuer, AUDIENCE } from './harness';
import { startHa } from './ha';
import { post, startServer, type RunningServer } from './server';

/**
 * Failover under load (issue 45 §3, docs/ha.md): customers fixing at `rate` per second across `customers`
 * customers on 2 server replicas over the HAProxy endpoint of scripts/ha-local.sh; the Patroni primary killed
 * with SIGKILL at `killAtMs` and never restarted (its machine is lost). Each fix is a desk that retries the same
 * client_order_id on the other replica until it gets an answer, as the apps do after a 503. 条件单 set to fire
 * at the moment of the kill (the market shifted on both replicas) must trigger exactly once.
 */
export interface FailoverOptions {
  rate: number;
  customers: number;
  seconds: number;
  killAtMs: number;
  conditionals: number;
  log?: (line: string) => void;
}

export interface FailoverFigures {
  sent: number;
  acknowledged: number;
  /** Acknowledged fixes with no order row afterwards. */
  lost: number;
  /** client_order_ids with more than one order. */
  doubled: number;
  /** Statuses of every answer while the primary was gone, counted. */
  statuses: Record<string, number>;
  /** From the kill to the first write through HAProxy on the new primary, ms. */
  noPrimaryMs: number;
  killed: string;
  newPrimary: string;
  /** Acknowledged fix latency (first try to the 200), ms: p50, p99, max. */
  latency: { p50: number; p99: number; max: number };
  conditionals: { triggered: number; orders: number; waiting: number };
  /** Orders still PENDING once the run settled. */
  pending: number;
  /** Both replicas still the same processes. */
  replicasAlive: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

export async function runFailover(opts: FailoverOptions): Promise<FailoverFigures> {
  const log = opts.log ?? (() => undefined);
  const ha = await startHa();
  const idp = await startTestIssuer();
  const servers: RunningServer[] = [];
  try {
    const env = {
      DATABASE_URL: ha.url,
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: AUDIENCE,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000000',
      SIM_MARKET_HOOKS: '1',
      DB_CONNECT_TIMEOUT_MS: '2000',
      // Every instance on one database has the same key (a customer's token is good on either replica).
      SECRET_KEY: 'failover-test-secret-key-0123456789abcdef',
    };
    // One after the other: the second finds the migrations applied.
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const a = servers[0]!;
    const trader = await idp.sign({}, { sub: 'failover-trader', exp: '2h' });
    const company = await seedCompany(a.base, trader, {
      name: '故障切换测试公司',
      customers: opts.customers,
      password: 'failover-123',
    });
    log(`  ${company.customers.length} customers on ${company.symbol}, primary ${await ha.primary()}`);

    // 条件单 that fire once the market is up 5 %: the shift comes with the kill.
    const snap = await must(a.base, '/api/pricer/view/my-data-snapshot', {}, company.customers[0]!.token);
    const last = snap.market_data[company.symbol].last_price as number;
    const tick = snap.contracts[0].price_tick as number;
    const trigger = Math.ceil((last * 1.04) / tick) * tick;
    const conditionalIds: number[] = [];
    for (const c of company.customers.slice(0, opts.conditionals)) {
      const created = await must(
        a.base,
        '/api/pricer/rpc/create-conditional-order',
        { contract_id: c.contract, quantity: 1, trigger_op: '>=', trigger_price: trigger, order_price: 0 },
        c.token,
      );
      conditionalIds.push(created.id);
    }

    const acknowledged = new Map<string, number>();
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let killedAt = 0;
    let recoveredAt = 0;
    let sent = 0;
    const fix = async (n: number) => {
      const customer = company.customers[n % company.customers.length]!;
      const key = `fo-${n}`;
      const t0 = performance.now();
      for (let attempt = 0; performance.now() - t0 < 90_000; attempt++) {
        const server = servers[(n + attempt) % 2]!;
        const answer = await post(
          server.base,
          '/api/pricer/rpc/submit-order',
          { contract_id: customer.contract, quantity: 1, client_order_id: key },
          customer.token,
          20_000,
        );
        if (killedAt && !recoveredAt) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === 200) {
          acknowledged.set(key, answer.body.data.id as number);
          latencies.push(performance.now() - t0);
          return;
        }
        if (answer.status !== 503 && answer.status !== 0)
          statuses[`${answer.status} ${answer.body.error?.code ?? ''}`.trim()] =
            (statuses[`${answer.status} ${answer.body.error?.code ?? ''}`.trim()] ?? 0) + 1;
        await sleep(300);
      }
    };

    // The probe: from the kill, a write through HAProxy every 100 ms until one succeeds on the new primary.
    const probe = async () => {
      for (;;) {
        const c = new pg.Client({ connectionString: ha.url, connectionTimeoutMillis: 1000 });
        try {
          await c.connect();
          const r = await c.query<{ ro: boolean }>('select pg_is_in_recovery() as ro');
          if (!r.rows[0]!.ro) {
            await c.query('create temp table probe(x int)');
            return Date.now();
          }
        } catch {
          // no primary yet
        } finally {
          await c.end().catch(() => undefined);
        }
        await sleep(100);
      }
    };

    const running = new Set<Promise<void>>();
    const start = performance.now();
    let killed = '';
    let newPrimary = '';
    let recovery: Promise<void> | undefined;
    while (performance.now() - start < opts.seconds * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * opts.rate);
      while (sent < due) {
        const p = fix(sent++).finally(() => running.delete(p));
        running.add(p);
      }
      if (!killedAt && performance.now() - start >= opts.killAtMs) {
        for (const s of servers)
          await post(s.base, '/api/test/market-shift', { symbol: company.symbol, percent: 8 }).catch(() => undefined);
        killedAt = Date.now();
        killed = await ha.killPrimary();
        log(`  killed ${killed} at ${((performance.now() - start) / 1000).toFixed(1)} s`);
        recovery = probe().then(async (at) => {
          recoveredAt = at;
          newPrimary = await ha.primary();
          log(`  new primary ${newPrimary} after ${((at - killedAt) / 1000).toFixed(1)} s`);
        });
      }
      await sleep(10);
    }
    await recovery;
    await Promise.all(running);

    // Settled: the routers took every order to its end and the 条件单 fired.
    const db = new pg.Client({ connectionString: ha.url });
    await db.connect();
    let pending = 0;
    let cond = { triggered: 0, orders: 0, waiting: 0 };
    try {
      for (let i = 0; i < 150; i++) {
        pending = Number(
          (await db.query(`select count(*) as n from orders where client_order_id like 'fo-%' and status = 'PENDING'`))
            .rows[0].n,
        );
        const c = (
          await db.query(
            `select count(*) filter (where status = 'TRIGGERED') as triggered,
                    count(*) filter (where status = 'WAITING') as waiting,
                    (select count(*) from orders
                      where contract_id = any($2) and coalesce(client_order_id, '') not like 'fo-%') as orders
               from conditional_orders where id = any($1)`,
            [conditionalIds, company.customers.slice(0, opts.conditionals).map((c) => c.contract)],
          )
        ).rows[0];
        cond = { triggered: Number(c.triggered), orders: Number(c.orders), waiting: Number(c.waiting) };
        if (pending === 0 && cond.waiting === 0) break;
        await sleep(200);
      }
      const rows = (
        await db.query<{ key: string; n: string; ids: number[] }>(
          `select client_order_id as key, count(*) as n, array_agg(id) as ids
             from orders where client_order_id like 'fo-%' group by 1`,
        )
      ).rows;
      const found = new Map(rows.map((r) => [r.key, r]));
      let lost = 0;
      for (const [key, id] of acknowledged) if (!found.get(key)?.ids.map(Number).includes(id)) lost++;
      return {
        sent,
        acknowledged: acknowledged.size,
        lost,
        doubled: rows.filter((r) => Number(r.n) > 1).length,
        statuses,
        noPrimaryMs: recoveredAt - killedAt,
        killed,
        newPrimary,
        latency: { p50: pct(latencies, 50), p99: pct(latencies, 99), max: pct(latencies, 100) },
        conditionals: cond,
        pending,
        replicasAlive: servers.every((s) => s.child.exitCode === null && s.child.signalCode === null),
      };
    } finally {
      await db.end();
    }
  } finally {
    for (const s of servers) await s.stop();
    await idp.close();
    await ha.stop();
  }
}
