/**
 * The live desk at scale (issue 33 item 4): the whole server (src/main.ts, a child process) on the embedded default
 * (PGlite in a fresh DATA_DIR) on loopback, its simulated market ticking (every 500 ms).
 *
 *   npx tsx bench/push.bench.ts [--customers=200] [--desks=2000] [--seconds=20] [--compare-seconds=15]
 *
 * 1. DESKS WebSocket desks (docs/live.md: `pricer_desk` on /ws, a held peek always waiting, as ws-core does), spread
 *    over CUSTOMERS customers (a customer's desk on several screens; each customer is a real argon2 login). While
 *    the market ticks, one customer fixes a 1-lot market order every 250 ms. Measured: market tick → desk (the
 *    patch's tick_time, the server's clock, to its arrival), submit → the order on the desk, and submit → its fill on
 *    the desk (an upper bound of fill → desk: it includes the simulated broker's fill), and the server's CPU.
 * 2. 200 desks at 1 s freshness: by push (200 of the desks above) vs by polling (my-data-snapshot and the contract's
 *    my-orders every 1 s, as the desk does while its socket is down), the server's CPU over the same time.
 *
 * Goals: tick → desk p99 ≤ 100 ms, fill → desk p99 ≤ 200 ms, server ≤ 50 % of one core; push ≤ 1/5 of polling's
 * CPU. Bounded in count and time (a wall-clock guard), loopback only. Not part of CI.
 */
import WebSocket from 'ws';
import { AUDIENCE, startTestIssuer } from '../test/harness';
import { startServer, type RunningServer } from '../test/server';
import { cpuSeconds, deadline, fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';
import { must, seedCompany } from './lib/company';

const CUSTOMERS = numberArg('customers', 200);
const DESKS = numberArg('desks', 2000);
const SECONDS = numberArg('seconds', 20);
const COMPARE_SECONDS = numberArg('compare-seconds', 15);
const COMPARE_DESKS = 200;
const FIX_EVERY_MS = 250;
const PER_TENANT = 20;
const PASSWORD = 'push-bench-123';
const GOALS = { tick: 100, fill: 200, cpu: 50, ratio: 0.2 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Customer {
  token: string;
  contract: number;
  desks: Desk[];
  /** The newest order id its desks have seen. */
  maxId: number;
  /**
   * The order under way: sent at, and the newest id before it (one order at a time per customer: the first newer
   * one is it — its push may come before the submit's answer).
   */
  sent?: { at: number; after: number; seen: Set<Desk>; filled: Set<Desk> };
}

interface Meter {
  tick: number[];
  order: number[];
  fill: number[];
}

/** One desk: a socket, the desk view subscribed, a peek always held at the server. */
class Desk {
  private ws!: WebSocket;
  private n = 0;
  meter: Meter | null = null;
  constructor(
    private readonly url: string,
    readonly customer: Customer,
  ) {}

  async open() {
    this.ws = new WebSocket(`${this.url}/ws?token=${this.customer.token}`);
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    const subscribed = new Promise<void>((resolve, reject) => {
      this.ws.on('message', (raw: Buffer) => {
        const at = Date.now();
        const m = JSON.parse(raw.toString()) as { aid: string; result: string; data?: any; error?: unknown };
        if (m.aid === 'subscribe_view') return m.result === 'ok' ? resolve() : reject(new Error(JSON.stringify(m)));
        if (m.aid !== 'peek_message') return;
        this.peek();
        const patch = m.data?.desk;
        if (patch) this.onPatch(patch, at);
      });
    });
    this.ws.send(
      JSON.stringify({
        aid: 'subscribe_view',
        req_id: 's',
        view_id: 'desk',
        view_name: 'pricer_desk',
        // The desk's open contract: its orders come with every change (docs/live.md).
        contract_id: this.customer.contract,
      }),
    );
    await subscribed;
    this.peek();
  }

  private peek() {
    if (this.ws.readyState === this.ws.OPEN)
      this.ws.send(JSON.stringify({ aid: 'peek_message', req_id: `p${++this.n}` }));
  }

  private onPatch(patch: any, at: number) {
    const m = this.meter;
    if (!m) {
      for (const o of (patch.orders?.items ?? []) as { id: number }[])
        this.customer.maxId = Math.max(this.customer.maxId, o.id);
      return;
    }
    for (const q of Object.values(patch.quotes ?? {}) as { tick_time: number }[]) m.tick.push(at - q.tick_time);
    const sent = this.customer.sent;
    const orders = (patch.orders?.items ?? []) as { id: number; status: string }[];
    for (const o of orders) this.customer.maxId = Math.max(this.customer.maxId, o.id);
    if (patch.orders && sent) {
      const order = orders.find((o) => o.id > sent.after);
      if (order && !sent.seen.has(this)) {
        sent.seen.add(this);
        m.order.push(at - sent.at);
      }
      if (order?.status === 'FINISHED' && !sent.filled.has(this)) {
        sent.filled.add(this);
        m.fill.push(at - sent.at);
      }
    }
  }

  close() {
    this.ws.close();
  }
}

async function setup(base: string, sign: (sub: string) => Promise<string>) {
  const customers: Customer[] = [];
  for (let t = 0; t < CUSTOMERS / PER_TENANT; t++) {
    const token = await sign(`push-trader-${t}`);
    const company = await seedCompany(base, token, {
      name: `推送压测公司${t}`,
      customers: PER_TENANT,
      password: PASSWORD,
    });
    for (const c of company.customers) customers.push({ token: c.token, contract: c.contract, desks: [], maxId: 0 });
  }
  return customers;
}

function goalLine(label: string, value: number, goal: number, unit: string, lower = true) {
  const met = lower ? value <= goal : value >= goal;
  return `  ${label.padEnd(44)} ${fmt(value, unit === '×' ? 3 : 1)} ${unit}   goal ≤ ${goal} ${unit}: ${met ? 'MET' : 'MISSED'}`;
}

async function main() {
  header(`push.bench: ${DESKS} live desks over ${CUSTOMERS} customers on the embedded default`);
  const idp = await startTestIssuer();
  let server: RunningServer | undefined;
  const desks: Desk[] = [];
  const guard = deadline(600_000, 'push.bench');
  try {
    await Promise.race([
      guard.promise,
      (async () => {
        server = await startServer({
          OIDC_ISSUER: idp.issuer,
          OIDC_AUDIENCE: AUDIENCE,
          SEED_DEMO: '0',
          LOG_LEVEL: 'warn',
          LOGIN_RATE_LIMIT: '1000000',
          WS_MAX_CONNECTIONS_PER_ADDRESS: String(DESKS + 10),
          WS_MAX_CONNECTIONS: String(DESKS + 10),
        });
        const base = server.base;
        const pid = server.child.pid!;
        const url = base.replace('http', 'ws');
        let t0 = performance.now();
        const customers = await setup(base, (sub) => idp.sign({}, { sub, exp: '2h' }));
        console.log(
          `  ${customers.length} customers set up through the API in ${fmt((performance.now() - t0) / 1000)} s`,
        );
        t0 = performance.now();
        for (let i = 0; i < DESKS; i += 50) {
          await Promise.all(
            Array.from({ length: Math.min(50, DESKS - i) }, async (_, k) => {
              const customer = customers[(i + k) % customers.length]!;
              const desk = new Desk(url, customer);
              await desk.open();
              customer.desks.push(desk);
              desks.push(desk);
            }),
          );
        }
        console.log(`  ${desks.length} desks connected and subscribed in ${fmt((performance.now() - t0) / 1000)} s`);
        await sleep(3000);

        // ---- 1. DESKS desks, the market ticking, a fix every FIX_EVERY_MS.
        const meter: Meter = { tick: [], order: [], fill: [] };
        for (const d of desks) d.meter = meter;
        const cpu0 = cpuSeconds([pid]);
        const w0 = performance.now();
        let fixes = 0;
        let next = 0;
        const pending = new Set<Promise<void>>();
        while (performance.now() - w0 < SECONDS * 1000) {
          const customer = customers[next++ % customers.length]!;
          if (!customer.sent) {
            const sent: NonNullable<Customer['sent']> = {
              at: Date.now(),
              after: customer.maxId,
              seen: new Set(),
              filled: new Set(),
            };
            customer.sent = sent;
            fixes++;
            const p = must(
              base,
              '/api/pricer/rpc/submit-order',
              { contract_id: customer.contract, quantity: 1 },
              customer.token,
            )
              .catch((e: unknown) => console.log(`  submit failed: ${String(e).slice(0, 200)}`))
              .finally(() => {
                // Free for the next round once every desk saw the fill, or after 5 s.
                const t = setInterval(() => {
                  if (sent.filled.size >= customer.desks.length || Date.now() - sent.at > 5000) {
                    clearInterval(t);
                    if (customer.sent === sent) customer.sent = undefined;
                  }
                }, 20);
              });
            pending.add(p);
            void p.finally(() => pending.delete(p));
          }
          await sleep(FIX_EVERY_MS);
        }
        const seconds = (performance.now() - w0) / 1000;
        const cpu = ((cpuSeconds([pid]) - cpu0) / seconds) * 100;
        await Promise.all(pending);
        await sleep(1000);
        const tick = summarize(meter.tick);
        const order = summarize(meter.order);
        const fill = summarize(meter.fill);
        console.log(`\n-- ${desks.length} desks, ${fmt(seconds)} s, ${fixes} fixes`);
        console.log(`  market tick → desk:          ${latencyLine(tick)}  (n=${tick.n})`);
        console.log(`  submit → the order on desk:  ${latencyLine(order)}  (n=${order.n})`);
        console.log(`  submit → its fill on desk:   ${latencyLine(fill)}  (n=${fill.n})`);
        console.log(`  server CPU: ${fmt(cpu)} % of one core`);
        const summary = [
          goalLine(`tick → desk p99 (${desks.length} desks)`, tick.p99, GOALS.tick, 'ms'),
          goalLine(`fill → desk p99 (submit → fill seen, upper bound)`, fill.p99, GOALS.fill, 'ms'),
          goalLine(`server CPU with ${desks.length} desks`, cpu, GOALS.cpu, '% of a core'),
        ];
        for (const d of desks) d.meter = null;

        // ---- 2. 200 desks at 1 s freshness: push vs polling.
        for (const d of desks.splice(COMPARE_DESKS)) d.close();
        const few = customers.slice(0, COMPARE_DESKS);
        await sleep(2000);
        const c0 = cpuSeconds([pid]);
        const p0 = performance.now();
        await sleep(COMPARE_SECONDS * 1000);
        const pushCpu = (cpuSeconds([pid]) - c0) / ((performance.now() - p0) / 1000);
        for (const d of desks.splice(0)) d.close();
        await sleep(2000);
        // Polling: per desk my-data-snapshot and the contract's newest orders every 1 s, not resent while unanswered.
        const pollers = few.length > 0 ? Array.from({ length: COMPARE_DESKS }, (_, i) => few[i % few.length]!) : [];
        let stop = false;
        let polls = 0;
        const poll = async (c: Customer) => {
          await sleep(Math.random() * 1000);
          while (!stop) {
            const s = performance.now();
            await Promise.all([
              must(base, '/api/pricer/view/my-data-snapshot', {}, c.token),
              must(
                base,
                '/api/pricer/view/my-orders',
                {
                  contract_id: c.contract,
                  sort_fields: [{ field: 'id', ascending: false }],
                  slice_start: 0,
                  slice_end: 20,
                },
                c.token,
              ),
            ]).catch(() => {});
            polls++;
            await sleep(1000 - (performance.now() - s));
          }
        };
        const running = pollers.map(poll);
        await sleep(3000);
        const c1 = cpuSeconds([pid]);
        const q0 = performance.now();
        await sleep(COMPARE_SECONDS * 1000);
        const pollCpu = (cpuSeconds([pid]) - c1) / ((performance.now() - q0) / 1000);
        stop = true;
        await Promise.all(running);
        console.log(`\n-- ${COMPARE_DESKS} desks at 1 s freshness, ${COMPARE_SECONDS} s each (${polls} poll rounds)`);
        console.log(`  by push: server ${fmt(pushCpu * 100)} % of one core; by polling: ${fmt(pollCpu * 100)} %`);
        summary.push(goalLine('push CPU / polling CPU (200 desks, 1 s)', pushCpu / pollCpu, GOALS.ratio, '×'));
        console.log('\nsummary:');
        for (const l of summary) console.log(l);
      })(),
    ]);
  } finally {
    guard.cancel();
    for (const d of desks) d.close();
    await server?.stop();
    await idp.close();
  }
}

await main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
footer();
process.exit();
