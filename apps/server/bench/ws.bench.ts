/**
 * The volatility view under 1,000 WebSocket clients: true tick-to-client latency.
 *
 *   npx tsx bench/ws.bench.ts [--clients=1000] [--window=25] [--futures=1]
 *   CURVE_WORKERS=0 npx tsx bench/ws.bench.ts   (curves computed on the main thread, for comparison)
 *   npx tsx bench/ws.bench.ts --main=dist-before/main.js   (another build, e.g. a copy of dist/ before a change)
 *   npx tsx bench/ws.bench.ts --cpu-prof=/tmp/prof   (the server's V8 CPU profiles, written when it exits)
 *
 * The built server (`node dist/main.js`, from `pnpm --filter @pfp/server build`) runs as a child process (free
 * port, SEED_DEMO=0, a fresh DATA_DIR with embedded PGlite, LOG_LEVEL=warn) so that its CPU is measured on its
 * own (/proc/<pid>/stat). Every client subscribes to the 8 curves (CALL/PUT × ask/bid/mid/last) of one listed
 * future with options (future_list SHFE cu options=1, index 2) and always keeps one peek_message outstanding
 * (it re-peeks the moment a reply arrives), so each update is pushed as soon as the server has it. With
 * --futures=N the clients spread over N chains of different products, N computations per tick.
 *
 * Every curve entry carries `tick_time`, the server's time of the tick it was computed from, so the latency
 * of a reply is its receipt time minus the newest tick_time in it (both Date.now() on one machine): the
 * exchange's tick → the curve computation (a worker thread) → the fan-out → the client. Also printed: the
 * fan-out alone (receipt minus the first receipt of the same update by any client), how regularly updates
 * arrive (the exchange ticks every 500 ms), the server's and this process's CPU, and the load average
 * (os.loadavg(): other work on the machine shows in the latency). Bounded: fixed client count and window,
 * every socket closed and the child killed at the end. Not part of CI.
 */
import { loadavg } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { deadline, fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const CLIENTS = numberArg('clients', 1000);
const FUTURES = numberArg('futures', 1);
const WINDOW_MS = numberArg('window', 25) * 1000;
const BATCH = 50;
const SETTLE_MS = 2000;
const GRACE_MS = 1000;
const GOAL_P99_MS = 100;
const CLK_TCK = 100; // USER_HZ on Linux (getconf CLK_TCK)

const serverDir = fileURLToPath(new URL('..', import.meta.url));
// --main=<path>: another build of the server (e.g. a copy of dist/ from before a change, for an A/B run).
const mainArg = process.argv.find((a) => a.startsWith('--main='));
const distMain = mainArg ? path.resolve(mainArg.slice('--main='.length)) : path.join(serverDir, 'dist/main.js');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** [utime, stime] of a process (or, with `thread`, of one of its threads), in seconds (Linux /proc). */
function cpuTimes(pid: number, thread?: number): [number, number] {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return [Number(fields[11]) / CLK_TCK, Number(fields[12]) / CLK_TCK];
}
const cpuSeconds = (pid: number) => cpuTimes(pid).reduce((a, b) => a + b);

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Receipt {
  client: number;
  version: number;
  t: number;
  /** Receipt (Date.now()) minus the newest tick_time in the reply. */
  tickLatency: number;
}

const TICK_TIME = /"tick_time":(\d+)/g;
/** The newest tick_time of a reply, read without parsing the JSON (1,000 clients share this process). */
function newestTick(text: string): number {
  let newest = -1;
  for (const m of text.matchAll(TICK_TIME)) newest = Math.max(newest, Number(m[1]));
  return newest;
}
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  header(`ws.bench: ${CLIENTS} WebSocket clients on /ws/volatility, ${WINDOW_MS / 1000} s window`);
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pfp-ws-bench-'));
  const sockets: WebSocket[] = [];
  const guard = deadline(170_000, 'ws.bench');
  const logTail: string[] = [];
  const stopChild = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const cleanup = async () => {
    for (const ws of sockets) ws.terminate();
    await stopChild();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    await Promise.race([
      guard.promise,
      (async () => {
        // ---- the server, as a child process
        const port = await freePort();
        const built = existsSync(distMain);
        // --cpu-prof=<dir>: the server writes V8 CPU profiles there (main thread and curve workers) when it exits.
        const profDir = process.argv.find((a) => a.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
        const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : [];
        const args = [...prof, ...(built ? [distMain] : ['--import', 'tsx', path.join(serverDir, 'src/main.ts')])];
        if (!built)
          console.log(
            '  note: dist/main.js not found (run `pnpm --filter @pfp/server build`): running src/main.ts with tsx',
          );
        child = spawn(process.execPath, args, {
          cwd: serverDir,
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            SEED_DEMO: '0',
            DATA_DIR: dataDir,
            LOG_LEVEL: 'warn',
            DATABASE_URL: '',
            OIDC_ISSUER: '',
            APPS_DIR: '',
            // All clients come from 127.0.0.1: lift the per-address cap (docs/security.md).
            WS_MAX_CONNECTIONS_PER_ADDRESS: String(CLIENTS + 10),
            WS_MAX_CONNECTIONS: String(CLIENTS + 10),
            // … and the per-server budgets of anonymous connections and their futures (issue 30): this bench
            // measures the fan-out, not the flood protection (bench/wsFlood.bench.ts does).
            WS_MAX_ANONYMOUS_CONNECTIONS: String(CLIENTS + 10),
            WS_MAX_ANONYMOUS_FUTURES: String(FUTURES + 10),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        for (const stream of [child.stdout!, child.stderr!]) {
          stream.setEncoding('utf8');
          stream.on('data', (s: string) => {
            logTail.push(...s.split('\n').filter(Boolean));
            logTail.splice(0, Math.max(0, logTail.length - 20));
          });
        }
        const pid = child.pid!;
        const base = `http://127.0.0.1:${port}`;
        const t0 = performance.now();
        for (;;) {
          if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${logTail.join('\n')}`);
          const ok = await fetch(`${base}/api/health`).then(
            (r) => r.ok,
            () => false,
          );
          if (ok) break;
          if (performance.now() - t0 > 60_000) throw new Error('server did not start in 60 s');
          await sleep(100);
        }
        console.log(
          `  server: node ${built ? path.relative(serverDir, distMain) : 'src/main.ts (tsx)'} pid ${pid}, port ${port}, up in ${fmt((performance.now() - t0) / 1000)} s`,
        );

        const rpc = async (call: string, params: string) =>
          ((await (await fetch(`${base}/api/rpc/${call}?${params}&options=1`)).json()) as { data: string[] }).data;
        const list = await rpc('future_list', 'exchange_id=SHFE&product_id=cu');
        const futures = [list[2]];
        // --futures=N: the clients spread over N chains (the second listed month of one product after another),
        // so that N chains are computed per tick.
        for (const exchange of FUTURES > 1 ? await rpc('exchange_list', '') : []) {
          for (const product of await rpc('product_list', `exchange_id=${exchange}`)) {
            const second = (await rpc('future_list', `exchange_id=${exchange}&product_id=${product}`))[1];
            if (futures.length < FUTURES && second && !futures.includes(second)) futures.push(second);
          }
        }
        if (!futures[0]) throw new Error(`future_list: ${JSON.stringify(list)}`);
        const itemsOf = (future: string) =>
          (['CALL', 'PUT'] as const).flatMap((option_type) =>
            (['ask', 'bid', 'mid', 'last'] as const).map((price_type) => ({ symbol: future, option_type, price_type })),
          );
        console.log(
          FUTURES > 1
            ? `  ${futures.length} futures (${futures.slice(0, 4).join(', ')}, …), client i on future i mod ${futures.length}, 8 curves per client`
            : `  future: ${futures[0]} (index 2 of ${list.join(', ')}), 8 curves per client`,
        );

        // ---- the clients
        const receipts: Receipt[] = [];
        const intern = new Map<string, number>(); // update content → id
        const seen: Map<number, number>[] = []; // per client: content id → times seen (repeats of a content)
        const versionIds = new Map<string, number>(); // `${content id}:${occurrence}` → version
        const firstReceipt: number[] = [];
        let recording = false;
        let bytes = 0;
        let messages = 0;
        let peekErrors = 0;
        const perClient = new Array<number>(CLIENTS).fill(0);

        const connect = (i: number) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/volatility`, { perMessageDeflate: false });
            sockets.push(ws);
            seen[i] = new Map();
            let peeks = 0;
            const peek = () => ws.send(`{"aid":"peek_message","req_id":"p${++peeks}"}`);
            ws.on('message', (raw: Buffer) => {
              const t = performance.now();
              const wall = Date.now();
              const text = raw.toString();
              if (text.startsWith('{"aid":"peek_message"')) {
                peek(); // keep one peek outstanding at all times
                if (!text.includes('"result":"ok"')) {
                  peekErrors++;
                  return;
                }
                if (!recording) return;
                const content = text.slice(text.indexOf('"data":'));
                let id = intern.get(content);
                if (id === undefined) intern.set(content, (id = intern.size));
                const occurrence = seen[i]!.get(id) ?? 0;
                seen[i]!.set(id, occurrence + 1);
                const key = `${id}:${occurrence}`;
                let version = versionIds.get(key);
                if (version === undefined) {
                  versionIds.set(key, (version = versionIds.size));
                  firstReceipt[version] = t;
                }
                const tick = newestTick(content);
                receipts.push({ client: i, version, t, tickLatency: tick < 0 ? NaN : wall - tick });
                bytes += raw.length;
                messages++;
              } else if (text.startsWith('{"aid":"subscribe_view"')) {
                if (!text.includes('"result":"ok"')) return reject(new Error(`subscribe: ${text.slice(0, 300)}`));
                peek();
                resolve();
              }
            });
            ws.once('error', reject);
            ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade: HTTP ${res.statusCode}`)));
            ws.once('open', () =>
              ws.send(
                JSON.stringify({
                  aid: 'subscribe_view',
                  req_id: 's1',
                  view_id: 'vol',
                  view_name: 'volatility_curves',
                  params: { items: itemsOf(futures[i % futures.length]!) },
                }),
              ),
            );
          });
        const tc = performance.now();
        for (let i = 0; i < CLIENTS; i += BATCH) {
          await Promise.all(Array.from({ length: Math.min(BATCH, CLIENTS - i) }, (_, k) => connect(i + k)));
        }
        console.log(
          `  ${CLIENTS} clients connected and subscribed in ${fmt((performance.now() - tc) / 1000)} s (batches of ${BATCH})`,
        );
        await sleep(SETTLE_MS);

        // ---- the window
        const load0 = loads();
        const cpu0 = cpuSeconds(pid);
        // The main thread alone (its thread id is the process id): the fan-out's cost, with the kernel's share of
        // the socket writes, and unlike the latency hardly affected by other work on the machine.
        const main0 = cpuTimes(pid, pid);
        const self0 = process.cpuUsage();
        const w0 = performance.now();
        recording = true;
        await sleep(WINDOW_MS);
        const w1 = performance.now();
        const load1 = loads();
        const cpu1 = cpuSeconds(pid);
        const main1 = cpuTimes(pid, pid);
        const mainUser = main1[0] - main0[0];
        const mainSystem = main1[1] - main0[1];
        const self1 = process.cpuUsage(self0);
        const rss = rssMb(pid);
        await sleep(GRACE_MS); // late receipts of the window's last updates
        recording = false;
        const windowS = (w1 - w0) / 1000;

        // Updates whose first receipt falls in the window (the first ones of the window may be cut: skip 500 ms).
        const counted = (v: number) => firstReceipt[v]! >= w0 + 500 && firstReceipt[v]! <= w1;
        const latencies: number[] = [];
        const tickLatencies: number[] = [];
        let unstamped = 0;
        const byVersion = new Map<number, number[]>();
        for (const r of receipts) {
          if (!counted(r.version)) continue;
          latencies.push(r.t - firstReceipt[r.version]!);
          if (Number.isNaN(r.tickLatency)) unstamped++;
          else tickLatencies.push(r.tickLatency);
          perClient[r.client]!++;
          const list = byVersion.get(r.version) ?? [];
          list.push(r.t);
          byVersion.set(r.version, list);
        }
        const spreads = [...byVersion.values()].map((ts) => Math.max(...ts) - Math.min(...ts));
        const audience = Math.ceil(CLIENTS / futures.length); // clients per future
        const fullVersions = [...byVersion.entries()].filter(([, ts]) => ts.length >= audience * 0.5);
        const firsts = fullVersions.map(([v]) => firstReceipt[v]!).sort((a, b) => a - b);
        const gaps = firsts.slice(1).map((t, i) => t - firsts[i]!);
        const clientGaps: number[] = [];
        const lastAt = new Map<number, number>();
        for (const r of receipts) {
          if (!counted(r.version)) continue;
          const prev = lastAt.get(r.client);
          if (prev !== undefined) clientGaps.push(r.t - prev);
          lastAt.set(r.client, r.t);
        }
        const reach = summarize([...byVersion.values()].map((ts) => ts.length));
        const per = summarize(perClient);

        console.log(
          `\n  window ${fmt(windowS)} s: ${byVersion.size} distinct updates (${fmt(byVersion.size / windowS, 2)}/s), ${messages} peek replies, ${fmt(bytes / Math.max(1, messages) / 1024, 2)} KiB per reply`,
        );
        console.log(
          `  clients reached per update: min ${reach.min}  p50 ${reach.p50}  max ${reach.max} of ${audience} (fewer = merged with the next update at a slow client)`,
        );
        console.log(`  updates per client in the window: min ${per.min}  p50 ${per.p50}  max ${per.max}`);
        const tickLat = summarize(tickLatencies);
        console.log(
          `  tick-to-client latency (receipt − tick_time of the newest tick in the reply): ${latencyLine(tickLat)}  (n=${tickLat.n}${unstamped ? `, ${unstamped} replies without tick_time` : ''})`,
        );
        const lat = summarize(latencies);
        console.log(
          `  of which fan-out (receipt − first receipt of the same update): ${latencyLine(lat)}  (n=${lat.n})`,
        );
        console.log(
          `  time for an update to reach every client (last − first receipt): ${latencyLine(summarize(spreads))}`,
        );
        console.log(
          `  interval between updates (first receipts; ticks every 500 ms): ${latencyLine(summarize(gaps))}  min ${fmt(summarize(gaps).min)} ms`,
        );
        console.log(`  interval between updates at one client: ${latencyLine(summarize(clientGaps))}`);
        console.log(
          `  curves computed ${process.env.CURVE_WORKERS === '0' ? 'on the main thread (CURVE_WORKERS=0)' : `on worker threads (CURVE_WORKERS=${process.env.CURVE_WORKERS ?? 'default'})`}; load average (1, 5, 15 min) at the window's start ${load0}, end ${load1}`,
        );
        console.log(
          `  goal tick-to-client p99 ≤ ${GOAL_P99_MS} ms: ${tickLat.p99 <= GOAL_P99_MS ? 'met' : 'missed'} (p99 ${fmt(tickLat.p99)} ms)`,
        );
        console.log(
          `  server CPU over the window: ${fmt(((cpu1 - cpu0) / windowS) * 100)} % of one core (RSS ${fmt(rss, 0)} MB)`,
        );
        console.log(
          `  server main thread CPU: ${fmt(((mainUser + mainSystem) / windowS) * 100)} % of one core, ${fmt(((mainUser + mainSystem) * 1000) / Math.max(1, byVersion.size), 1)} ms per update, of which the kernel's ${fmt((mainSystem * 1000) / Math.max(1, byVersion.size), 1)} ms (routing ticks, fan-out, peeks; /proc, 10 ms resolution)`,
        );
        console.log(
          `  bench process CPU (1,000 clients): ${fmt(((self1.user + self1.system) / 1e6 / windowS) * 100)} % of one core`,
        );
        if (peekErrors) console.log(`  peek errors: ${peekErrors}`);
      })(),
    ]);
  } catch (e) {
    if (logTail.length) console.error(`server log tail:\n${logTail.join('\n')}`);
    throw e;
  } finally {
    guard.cancel();
    await cleanup();
  }
}

await main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
footer();
process.exit();
