import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../scripts/chromium.mjs';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 8091);
/**
 * The suites' servers, each with its own data: the suites run at once (two by default) and never see another
 * server's rows. The first listens on E2E_PORT, the others on E2E_PORT + 11, + 12. The host suite's server also
 * serves the volatility suite and the trader's sign-in tests (projects below): none of the three reads rows another
 * writes, and a server fewer is ~1–1.5 CPU-s a minute of idle ticks and sweeps less for the whole run (docs/testing.md).
 */
const SERVERS = ['host', 'trader', 'pricer'] as const;
type Server = (typeof SERVERS)[number];
const SUITES = ['host', 'trader', 'pricer', 'volatility'] as const;
const SERVER_OF: Record<(typeof SUITES)[number] | 'trader-sign-in', Server> = {
  host: 'host',
  trader: 'trader',
  pricer: 'pricer',
  volatility: 'host',
  'trader-sign-in': 'host',
};
const portOf = (server: Server) => (server === 'host' ? port : port + 10 + SERVERS.indexOf(server));
const urlOf = (server: Server) => `http://127.0.0.1:${portOf(server)}`;
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * The servers' data directories, beside the run's other artifacts (kept for a look after a failure, and emptied
 * when the next run on this port starts, so runs leave nothing in /tmp). Workers load this file too and take the
 * runner's from the environment instead of emptying it under the running servers.
 */
export const dataDir = (process.env.PFP_E2E_DATA_DIR ??= freshDir(path.join(root, `e2e/artifacts/data/${port}`)));

function freshDir(dir: string) {
  stopCluster(path.join(dir, 'pg')); // a run killed before its teardown left it running
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
/**
 * A trader without a company yet (the trader suite's first-time flow): e2e/databases.mjs adds it before the servers
 * start (the embedded database belongs to one process, a running server would not see a CLI write).
 */
export const firstTimeTrader = { username: 't2', password: 'pw123456', name: '新贸易商' };

/**
 * The suites' databases: on PostgreSQL where Debian's binaries are installed (E2E_DB=pglite: the embedded PGlite, as
 * a newcomer with only Node has). PGlite runs PostgreSQL in WebAssembly inside each server's process, and the
 * servers idling through the run cost more CPU there than beside a cluster (docs/testing.md). One cluster in the run's
 * data directory, on its socket only (e2e/databases.mjs makes it; globalSetup.ts stops it).
 */
const onPostgres =
  process.env.E2E_DB !== 'pglite' &&
  existsSync('/usr/lib/postgresql') &&
  readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
export const clusterDir = path.join(dataDir, 'pg');
const databaseUrl = (suite: string) => `postgres://pfp@localhost/e2e_${suite}?host=${clusterDir}`;

/**
 * The trader suite's sign-in tests — the console's sign-in, the 授权点价人 who sign in with their own logins, the
 * 点价协议 a customer accepts on signing in — run on the host suite's server (projects below). Each makes its own
 * customers; no other trader test reads them.
 */
const SIGN_IN = /\/(auth|authorisedPricers|authorisedPricerReset|agreement)\.spec\.ts$/;

/** Stops the suites' PostgreSQL cluster, if one runs in `dir` (an immediate shutdown: the data is thrown away). */
export function stopCluster(dir: string) {
  const pidFile = path.join(dir, 'data/postmaster.pid');
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT');
  } catch {
    // not running any more
  }
}

/** What the first server's command prints once the suites' databases are made (webServer below). */
const DATABASES_READY = 'pfp-e2e-databases-ready';

/** One suite per app, all in Debian's chromium against the started product (never a downloaded browser). */
export default defineConfig({
  testDir: '.',
  // Per port: a run wipes its output folder when it starts, so a second run in the same checkout
  // (another E2E_PORT) would delete the first one's traces mid-test (ENOENT at browserContext.close).
  outputDir: path.join(root, `e2e/artifacts/results/${port}`),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The suites side by side (each on its own server), a suite's files one after the other (they share its data).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: !!process.env.CI,
  globalSetup: './globalSetup.ts',
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: path.join(root, `e2e/artifacts/report/${port}`), open: 'never' }]],
  use: {
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    screenshot: 'only-on-failure',
    // A trace records the page's frames and DOM as every test runs, for a failure's look afterwards: a quarter of
    // the browser's CPU (docs/testing.md). CI keeps no artifacts to open, so it runs without (E2E_TRACE overrides).
    trace:
      (process.env.E2E_TRACE as 'off' | 'retain-on-failure' | undefined) ??
      (process.env.CI ? 'off' : 'retain-on-failure'),
    // Debian's chromium-headless-shell where installed (scripts/system-deps.sh does), with the flags every script
    // launches it with (scripts/chromium.mjs): 1.5× less CPU for the suites than /usr/bin/chromium (docs/testing.md).
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [
    ...SUITES.map((name) => ({
      name,
      testDir: `./${name}`,
      workers: 1,
      use: { baseURL: urlOf(SERVER_OF[name]) },
      ...(name === 'trader' ? { testIgnore: SIGN_IN } : {}),
    })),
    // The trader's sign-in tests (a real 50 s wait for the token's expiry among them) on the host suite's server: the
    // trader suite is the longest by far, and the other worker stood idle while it ran (docs/testing.md). Listed last,
    // they run on the other worker after the host, pricer and volatility suites (not a `dependencies` entry: that
    // waits for every suite).
    {
      name: 'trader-sign-in',
      testDir: './trader',
      testMatch: SIGN_IN,
      workers: 1,
      use: { baseURL: urlOf(SERVER_OF['trader-sign-in']) },
    },
  ],
  // Playwright starts these one after the other, each once the one before is ready. The first makes the servers'
  // databases (t2 added, then copied: e2e/databases.mjs), and is ready once they are made: so the servers start
  // together (the database made once) and globalSetup.ts waits for all of them to answer.
  webServer: SERVERS.map((name, i) => {
    const url = urlOf(name);
    const suites = SERVERS.map((s) => (onPostgres ? `${s}=${databaseUrl(s)}` : s)).join(' ');
    const t2 = `--username ${firstTimeTrader.username} --password ${firstTimeTrader.password} --name ${firstTimeTrader.name}`;
    const databases = `node ${path.join(root, 'e2e/databases.mjs')} ${dataDir} ${suites} -- ${t2}`;
    const server = `node ${path.join(root, 'apps/server/dist/main.js')}`;
    return {
      command: (i === 0 ? [databases, `echo ${DATABASES_READY}`, server] : [server]).join(' && '),
      ...(i === 0 ? { wait: { stdout: new RegExp(DATABASES_READY) } } : {}),
      reuseExistingServer: false,
      // An upper bound for making the databases, not a budget.
      timeout: 180_000,
      env: {
        PORT: String(portOf(name)),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, name),
        // The demo data (on by default on the embedded database only).
        ...(onPostgres ? { DATABASE_URL: databaseUrl(name), SEED_DEMO: '1' } : {}),
        LOG_LEVEL: 'warn',
        PUBLIC_URL: url,
        // Short trader access tokens, so the suites see silent refreshes.
        OIDC_ACCESS_TOKEN_TTL: '45',
        MARKET_SEED: '42',
        // POST /api/test/market-shift: the margin walk moves the simulated market (trader/margin.spec.ts).
        SIM_MARKET_HOOKS: '1',
        // The host suite's server may call a loopback robot (host/webhookTest.spec.ts: 发送测试消息 against a real
        // receiver); the trader suite's keeps refusing one (trader/notifications.spec.ts). The volatility suite and the
        // sign-in tests, on this server too, check no webhook delivery.
        ...(name === 'host' ? { WEBHOOK_ALLOW_PRIVATE: '1' } : {}),
      },
    };
  }),
});
