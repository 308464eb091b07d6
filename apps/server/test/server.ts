import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provided } from './provided';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time of the files under `dir` but tests (what the server's build is made from). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (!/\.test\.tsx?$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

let args: string[] | undefined;
/**
 * How a test runs the whole server: its build (dist/main.js, as production does) when that is newer than every
 * source it is made from — the server's and the packages' it bundles; `pnpm test` builds it first (turbo.json) —
 * else src/main.ts through tsx. The build starts on ~1.2 CPU-s less: tsx compiles every module at each start, and
 * the fault suites start ~30 servers (docs/testing.md).
 */
export function serverArgs(): string[] {
  if (args) return args;
  const built = path.join(serverDir, 'dist/main.js');
  const packages = path.join(serverDir, '../../packages');
  const sources = [path.join(serverDir, 'src'), ...readdirSync(packages).map((p) => path.join(packages, p, 'src'))];
  const fresh =
    existsSync(built) && statSync(built).mtimeMs > Math.max(...sources.filter((d) => existsSync(d)).map(newestSource));
  return (args = fresh ? [built] : ['--import', 'tsx', 'src/main.ts']);
}

/**
 * PGlite: a data directory with no database yet gets the run's migrated template (test/db.ts), as a test file's
 * database does, instead of initdb and the migrations: a fresh server starts on ~4 CPU-s less (docs/testing.md).
 */
export function seedDataDir(dataDir: string, env: Record<string, string | undefined>) {
  // The pglite project's template (test/pgliteTemplate.ts); none outside a test run.
  const template = env.DATABASE_URL ? undefined : provided('pgliteTemplate');
  const db = path.join(dataDir, 'db');
  if (!template || existsSync(db)) return;
  mkdirSync(db, { recursive: true, mode: 0o700 });
  execFileSync('tar', ['-xf', template, '-C', db], { stdio: 'pipe' }); // tar's note on the leading '/' kept out of the output
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export interface RunningServer {
  child: ChildProcess;
  base: string;
  port: number;
  /** Everything the server printed (its log lines). */
  output: () => string;
  stop: () => Promise<void>;
}

/** A server killed and started again on the same database and address (the SIGKILL suites). */
export interface Restartable {
  dataDir?: string;
  port?: number;
  /** How long to wait for /api/health (default 90 s; a loaded shared machine may need more). */
  startTimeoutMs?: number;
}

/**
 * The whole server (its build or src/main.ts: serverArgs) as a child process on loopback with the demo data, for the fault
 * suites: a fresh DATA_DIR (or the given one, kept), the given environment on top. Resolves once
 * /api/health answers 200.
 */
export async function startServer(env: Record<string, string> = {}, at: Restartable = {}): Promise<RunningServer> {
  const port = at.port ?? (await freePort());
  const dataDir = at.dataDir ?? mkdtempSync(path.join(tmpdir(), 'pfp-faults-'));
  const childEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    APPS_DIR: '',
    SEED_DEMO: '1',
    MARKET_SEED: '11',
    // The event-loop guard off, as in test/harness.ts: its 503s under a loaded machine are not what these suites test.
    OVERLOAD_MAX_LOOP_DELAY_MS: '0',
    ...env,
  };
  seedDataDir(dataDir, childEnv);
  const child = spawn(process.execPath, serverArgs(), {
    cwd: serverDir,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const s of [child.stdout!, child.stderr!]) s.on('data', (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() - t0 > (at.startTimeoutMs ?? 90_000)) throw new Error(`server did not start:\n${output}`);
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (!at.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, base, port, output: () => output, stop };
}

/** Resolves once the process has exited (also when it already has). */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

export interface Answer {
  status: number;
  body: { result?: string; data?: any; error?: { code: string; message: string } };
  ms: number;
}

/** POST as the apps do; status 0 = no answer before `timeoutMs` (the client gave up) or no connection. */
export async function post(
  base: string,
  url: string,
  body: unknown,
  token?: string,
  timeoutMs = 30_000,
): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, ms: performance.now() - t0 };
  } catch {
    return { status: 0, body: {}, ms: performance.now() - t0 };
  }
}
