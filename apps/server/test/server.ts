import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
 * The whole server (src/main.ts) as a child process on loopback with the demo data, for the fault
 * suites: a fresh DATA_DIR (or the given one, kept), the given environment on top. Resolves once
 * /api/health answers 200.
 */
export async function startServer(env: Record<string, string> = {}, at: Restartable = {}): Promise<RunningServer> {
  const port = at.port ?? (await freePort());
  const dataDir = at.dataDir ?? mkdtempSync(path.join(tmpdir(), 'pfp-faults-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
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
    },
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
