import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { must, seedCompany, type BenchCustomer } from '../bench/lib/company';
import { tradingDayIn } from './days';
import { startGateway } from './gateway';
import { startHa } from './ha';
import { startTestIssuer, AUDIENCE } from './harness';
import { compareBooks, type BooksComparison } from './chaosBooks';
import { exited, freePort, post, startServer, type RunningServer } from './server';

/**
 * An hour of business under random faults (issue 45 item 4, docs/ha.md): 2 server replicas behind an HTTP
 * gateway on scripts/ha-local.sh's HA PostgreSQL; customers fixing, 条件单 and 均价 fixings firing, margin
 * calls and deposits, rolls; one fault a minute from FAULT_KINDS (a seeded shuffle of the five in every five
 * minutes: each kind once per five minutes, in a random order). At the end every acknowledged fix is found
 * once, and the books equal a replay of the audit log (test/replay/auditReplay.ts).
 */
export const FAULT_KINDS = ['server-kill', 'pg-kill', 'pg-stop', 'replica-out', 'gateway-cut'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ChaosOptions {
  minutes: number;
  seed: number;
  /** Fixes a second across the customers. */
  rate: number;
  customers: number;
  log?: (line: string) => void;
}

export interface ChaosFigures {
  seed: number;
  minutes: number;
  faults: Record<FaultKind, number>;
  schedule: string[];
  sent: number;
  acknowledged: number;
  refused: number;
  lost: number;
  doubled: number;
  pending: number;
  /** Acknowledged fixes (first try → 200) per the fault of the minute they were sent in ('none' before the first). */
  latency: Record<string, { n: number; p50: number; p99: number; max: number }>;
  statuses: Record<string, number>;
  business: Record<string, number>;
  books: BooksComparison;
  /** Replicas that exited on their own, with their last output. */
  crashes: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
/** mulberry32: a small seeded RNG, so a run can be repeated from its printed seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** One fault a minute: each block of five minutes a shuffle of the five kinds. */
export function faultSchedule(minutes: number, random: () => number): FaultKind[] {
  const out: FaultKind[] = [];
  while (out.length < minutes) {
    const block = [...FAULT_KINDS];
    for (let i = block.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [block[i], block[j]] = [block[j]!, block[i]!];
    }
    out.push(...block);
  }
  return out.slice(0, minutes);
}

/** The coordinator's advisory locks (trading/coordinator.ts LOCK_SPACE): the tenant's gateway owner holds one. */
const LOCK_SPACE = 0x7066_7001;
const FIRST_FAULT_MS = 30_000;

export async function runChaos(opts: ChaosOptions): Promise<ChaosFigures> {
  const log = opts.log ?? (() => undefined);
  const random = rng(opts.seed);
  const schedule = faultSchedule(opts.minutes, random);
  log(`  seed ${opts.seed}; faults: ${schedule.join(', ')}`);
  const ha = await startHa();
  const idp = await startTestIssuer();
  const portBase = Number(process.env.CHAOS_SERVER_PORT || 0);
  const ports = portBase ? [portBase, portBase + 1] : [await freePort(), await freePort()];
  const dirs = ports.map(() => mkdtempSync(path.join(tmpdir(), 'pfp-chaos-')));
  const env = {
    DATABASE_URL: ha.url,
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: AUDIENCE,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT: '1000000',
    SIM_MARKET_HOOKS: '1',
    DB_CONNECT_TIMEOUT_MS: '2000',
    SECRET_KEY: 'chaos-test-secret-key-0123456789abcdef0',
  };
  const servers: RunningServer[] = [];
  /** Replicas that exited on their own (not our SIGKILL): what they printed last; each started again. */
  const crashes: string[] = [];
  const killing = new Set<number>();
  let over = false;
  const start = async (i: number): Promise<RunningServer> => {
    const s = await startServer(env, { port: ports[i], dataDir: dirs[i] });
    s.child.once('exit', (code, signal) => {
      if (over || killing.has(i)) return;
      // Its whole output kept in a file; the error it went down with (close-with-grace logs it) in the report.
      const file = path.join(tmpdir(), `chaos-replica${i}-${Date.now()}.log`);
      writeFileSync(file, s.output());
      const why =
        s
          .output()
          .split('\n')
          .find((l) => l.includes('shutting down after an error')) ?? s.output().slice(-800);
      crashes.push(`replica ${i} exited (${code ?? signal}), output in ${file}: ${why.slice(0, 1500)}`);
      log(`  ! replica ${i} exited by itself (${code ?? signal}), output in ${file}:\n${why.slice(0, 3000)}`);
      void start(i).then(
        (again) => (servers[i] = again),
        (err: unknown) => log(`  ! replica ${i} did not start again: ${String(err).slice(0, 300)}`),
      );
    });
    return s;
  };
  const gateway = await startGateway(ports, portBase ? portBase + 2 : 0);
  const db = new pg.Pool({ connectionString: ha.url, max: 3, connectionTimeoutMillis: 3000 });
  db.on('error', () => undefined);
  try {
    servers.push(await start(0));
    servers.push(await start(1));
    const gw = gateway.base;
    const trader = await idp.sign({}, { sub: 'chaos-trader', exp: '6h' });
    const company = await seedCompany(gw, trader, {
      name: '故障演练公司',
      customers: opts.customers,
      password: 'chaos-123',
    });
    const { tenant, symbol } = company;
    const items = (await must(gw, '/api/trader/view/instruments', { product_name: '铜' }, trader)).items as {
      symbol: string;
    }[];
    const far = items.map((i) => i.symbol).find((s) => s > symbol)!;
    const days = [...new Set(Array.from({ length: 29 }, (_, i) => tradingDayIn(i + 1)))];
    const contract = (pricerId: number, extra: Record<string, unknown>) =>
      must(
        gw,
        '/api/trader/rpc/create-contract',
        { pricer_id: pricerId, product_name: '铜', instrument_id: symbol, direction: 'BUY', basis: 0, ...extra },
        trader,
      );
    const pricers = (
      await db.query<{ id: number; username: string }>('select id, username from pricer_users where tenant_id = $1', [
        tenant,
      ])
    ).rows;
    const pricerOf = (c: BenchCustomer) => Number(pricers.find((p) => p.username === c.username)!.id);
    // 均价: two customers' average contracts over the next 15 trading days; one roll contract; margined customers.
    for (const c of company.customers.slice(0, 2))
      await contract(pricerOf(c), {
        total_quantity: 400,
        pricing_mode: 'average',
        // 成交价: the 14:50 job sends orders the faults act on (a 结算价 day is booked at the close, docs/fixing.md).
        average_basis: 'fills',
        average_start: days[0],
        average_end: days[14],
        fixing_deadline: days[16],
        margin_rate: 0,
      });
    const rollFrom = await contract(pricerOf(company.customers[2]!), {
      total_quantity: 10_000,
      fixing_deadline: days[17],
      margin_rate: 0,
    });
    const margined = company.customers.slice(-3);
    const marginedContract = new Map<string, number>();
    for (const c of margined) {
      const m = await contract(pricerOf(c), { total_quantity: 10_000, fixing_deadline: days[17], margin_rate: 0.1 });
      marginedContract.set(c.username, m.id);
      await must(
        gw,
        '/api/trader/rpc/record-funds',
        { pricer_id: pricerOf(c), kind: 'deposit', amount: 1_500_000, note: '初始保证金' },
        trader,
      );
    }
    log(
      `  ${company.customers.length} customers on ${symbol} (tenant ${tenant}), gateway ${gw}, primary ${await ha.primary()}`,
    );

    const t0 = performance.now();
    const endAt = t0 + opts.minutes * 60_000 + FIRST_FAULT_MS;
    const elapsed = () => performance.now() - t0;
    /** The fault of the minute `at` falls in ('none' before the first fault). */
    const windowOf = (at: number) => {
      const k = Math.floor((at - FIRST_FAULT_MS) / 60_000);
      return k < 0 ? 'none' : (schedule[Math.min(k, schedule.length - 1)] ?? 'none');
    };
    const business: Record<string, number> = {};
    const count = (what: string) => (business[what] = (business[what] ?? 0) + 1);
    const statuses: Record<string, number> = {};
    const acknowledged = new Map<string, number>();
    const latencies: Record<string, number[]> = {};
    let refused = 0;
    let sent = 0;

    // A desk's fix: the same client_order_id sent again after every 503 / 502 / no answer, as the apps do.
    const fix = async (n: number) => {
      const all = [...company.customers.slice(3, -3), ...margined];
      const customer = all[n % all.length]!;
      const contractId = marginedContract.get(customer.username) ?? customer.contract;
      const key = `cx-${n}`;
      const first = performance.now();
      const kind = windowOf(first - t0);
      while (performance.now() - first < 180_000) {
        const a = await post(
          gw,
          '/api/pricer/rpc/submit-order',
          { contract_id: contractId, quantity: 1, client_order_id: key },
          customer.token,
          20_000,
        );
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        if (a.status === 200) {
          acknowledged.set(key, a.body.data.id as number);
          (latencies[kind] ??= []).push(performance.now() - first);
          return;
        }
        if (a.status >= 400 && a.status < 500) {
          // A refusal (e.g. not enough margin): nothing fixed; counted by its code.
          const code = `${a.status} ${a.body.error?.code ?? ''}`;
          statuses[code] = (statuses[code] ?? 0) + 1;
          return void refused++;
        }
        await sleep(300);
      }
    };
    const running = new Set<Promise<unknown>>();
    const spawn = (p: Promise<unknown>) => {
      const q = p.catch((err: unknown) => log(`  ! ${String(err).slice(0, 200)}`)).finally(() => running.delete(q));
      running.add(q);
    };
    const every = async (ms: number, what: () => Promise<void>) => {
      while (performance.now() + ms < endAt) {
        await sleep(ms);
        spawn(what());
      }
    };
    const tryCall = async (url: string, body: unknown, token: string, what: string) => {
      for (let i = 0; i < 40; i++) {
        const a = await post(gw, url, body, token, 20_000);
        if (a.status === 200) return void count(what);
        if (a.status >= 400 && a.status < 500) return void count(`${what} refused`);
        // 503: refused before any change. A cut answer (0/502) may have been done: not sent again.
        if (a.status !== 503) return void count(`${what} unanswered`);
        await sleep(1000);
      }
    };
    let marketMove = 0;
    const shift = async (percent: number) => {
      for (const s of servers) await post(s.base, '/api/test/market-shift', { symbol, percent }, undefined, 5_000);
    };
    const loops = [
      // 条件单 0.5 % above the market; the market moves ±1 % every 15 s (so they fire), a quarter cancelled.
      every(8_000, async () => {
        const c = company.customers[3 + Math.floor(random() * (company.customers.length - 6))]!;
        const snap = await must(gw, '/api/pricer/view/my-data-snapshot', {}, c.token);
        const tick = snap.contracts.find((x: { id: number }) => x.id === c.contract).price_tick as number;
        const trigger = Math.ceil((snap.market_data[symbol].last_price * 1.005) / tick) * tick;
        const a = await post(
          gw,
          '/api/pricer/rpc/create-conditional-order',
          { contract_id: c.contract, quantity: 1, trigger_op: '>=', trigger_price: trigger, order_price: 0 },
          c.token,
          20_000,
        );
        if (a.status !== 200) return void count('条件单 not created');
        count('条件单 created');
        if (random() < 0.25) {
          await sleep(3000);
          await tryCall('/api/pricer/rpc/cancel-conditional-order', { id: a.body.data.id }, c.token, '条件单 cancel');
        }
      }),
      every(15_000, async () => {
        // A random walk held within ±6 % of the start.
        const up = marketMove < -5 ? true : marketMove > 5 ? false : random() < 0.55;
        marketMove += up ? 1 : -1;
        await shift(up ? 1 : -1);
      }),
      // 均价: the day's job as its clock would run it at 14:50 on the next trading day of the window.
      every(60_000, async () => {
        const day = days[Math.min(14, business['均价 runs'] ?? 0)]!;
        count('均价 runs');
        await tryCall('/api/test/average-fixings', { at: `${day}T14:50:00+08:00` }, '', '均价 job');
      }),
      // Deposits to the margined customers (their margin calls come from the market moves).
      every(20_000, async () => {
        const c = margined[Math.floor(random() * margined.length)]!;
        await tryCall(
          '/api/trader/rpc/record-funds',
          { pricer_id: pricerOf(c), kind: 'deposit', amount: 100_000, note: '追加保证金' },
          trader,
          'deposit',
        );
      }),
      every(45_000, async () => {
        await tryCall(
          '/api/trader/rpc/roll-contract',
          {
            contract_id: rollFrom.id,
            to_instrument_id: far,
            quantity: 1,
            spread: 0,
            fee_per_unit: 0,
            agreed_via: 'phone',
          },
          trader,
          'roll',
        );
      }),
    ];

    // The faults, one a minute from 30 s.
    const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
    const primaryBack = async (not?: string) => {
      for (let i = 0; i < 600; i++) {
        const p = await ha.primary().catch(() => '');
        if (p && p !== not) return p;
        await sleep(200);
      }
      throw new Error('no primary after 120 s');
    };
    const syncStandby = async () => {
      for (let i = 0; i < 300; i++) {
        const r = await db
          .query(`select count(*)::int as n from pg_stat_replication where sync_state = 'sync'`)
          .catch(() => undefined);
        // PostgreSQL's view first, then Patroni's: a failover needs the standby named in Patroni's /sync key too.
        if (r?.rows[0]?.n === 1 && (await ha.syncStandbyNamed())) return;
        await sleep(500);
      }
      log('  ! no synchronous standby after 150 s');
    };
    const inject = async (kind: FaultKind) => {
      faults[kind]++;
      const at = (elapsed() / 1000).toFixed(0);
      switch (kind) {
        case 'server-kill': {
          const i = Math.floor(random() * 2);
          killing.add(i);
          servers[i]!.child.kill('SIGKILL');
          await exited(servers[i]!.child);
          killing.delete(i);
          servers[i] = await start(i);
          if (marketMove)
            await post(servers[i]!.base, '/api/test/market-shift', { symbol, percent: marketMove }, undefined, 5_000);
          return log(`  ${at} s: replica ${i} SIGKILLed and started again`);
        }
        case 'pg-kill': {
          const killed = await ha.killPrimary();
          const now = await primaryBack(killed);
          await ha.revive(killed);
          await syncStandby();
          return log(`  ${at} s: ${killed} SIGKILLed → ${now} primary; ${killed} back as standby`);
        }
        case 'pg-stop': {
          const frozen = await ha.freezePrimary();
          await sleep(20_000);
          await ha.thaw();
          const now = await primaryBack();
          await syncStandby();
          return log(`  ${at} s: ${frozen} SIGSTOPped 20 s → ${now} primary`);
        }
        case 'replica-out': {
          const i = Math.floor(random() * 2);
          gateway.remove(ports[i]!);
          await sleep(20_000);
          gateway.putBack(ports[i]!);
          return log(`  ${at} s: replica ${i} out of the gateway 20 s, put back`);
        }
        case 'gateway-cut': {
          // The owner's session (just after a database fault the gateway may still be on its way back: waited for).
          for (let i = 0; i < 60; i++) {
            const r = await db
              .query(
                `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and classid = $1 and objid = $2`,
                [LOCK_SPACE, tenant],
              )
              .catch(() => undefined);
            if (r?.rowCount) return log(`  ${at} s: the trading gateway's lock connection cut (${r.rowCount} session)`);
            await sleep(500);
          }
          return log(`  ${at} s: ! no trading gateway owner to cut for 30 s`);
        }
      }
    };
    const faultLoop = (async () => {
      for (let k = 0; k < schedule.length; k++) {
        const due = FIRST_FAULT_MS + k * 60_000;
        if (elapsed() < due) await sleep(due - elapsed());
        await inject(schedule[k]!).catch((err: unknown) =>
          log(`  ! fault ${schedule[k]}: ${String(err).slice(0, 300)}`),
        );
      }
    })();

    while (performance.now() < endAt) {
      const due = Math.floor((elapsed() / 1000) * opts.rate);
      while (sent < due) spawn(fix(sent++));
      await sleep(20);
    }
    await faultLoop;
    await Promise.all(loops);
    await Promise.all(running);
    await ha.thaw();
    await primaryBack();
    log(`  load over at ${(elapsed() / 1000).toFixed(0)} s; settling`);

    const books = await compareBooks(db, tenant);
    const rows = (
      await db.query<{ key: string; n: number; ids: string[] }>(
        `select client_order_id as key, count(*)::int as n, array_agg(id) as ids from orders where client_order_id like 'cx-%' group by 1`,
      )
    ).rows;
    const found = new Map(rows.map((r) => [r.key, r.ids.map(Number)]));
    let lost = 0;
    for (const [key, id] of acknowledged) if (!found.get(key)?.includes(id)) lost++;
    business['margin calls'] = books.actions['margin-call'] ?? 0;
    business['条件单 fired'] = books.actions['trigger-conditional-order'] ?? 0;
    business['均价 fixings'] = books.actions['average-fixing'] ?? 0;
    business.fills = books.actions['book-fill'] ?? 0;
    const latency = Object.fromEntries(
      Object.entries(latencies).map(([k, xs]) => [
        k,
        { n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: pct(xs, 100) },
      ]),
    );
    return {
      seed: opts.seed,
      minutes: opts.minutes,
      faults,
      schedule,
      sent,
      acknowledged: acknowledged.size,
      refused,
      lost,
      doubled: rows.filter((r) => r.n > 1).length,
      pending: books.pending,
      latency,
      statuses,
      business,
      books,
      crashes,
    };
  } finally {
    await ha.thaw().catch(() => undefined);
    await db.end().catch(() => undefined);
    await gateway.close();
    over = true;
    for (const s of servers) await s.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await idp.close();
    await ha.stop();
  }
}
