/**
 * Pricer logins per second over real HTTP, with the server's real password hashing (argon2id m=19 MiB t=2 p=1).
 *
 *   npx tsx bench/login.bench.ts [--logins=240]
 *
 * The real app (test/harness.ts) with LOGIN_RATE_LIMIT raised so the limiter never answers, on embedded PGlite
 * and on a throwaway PostgreSQL cluster; pricers created through the trader API (so their hashes carry the
 * server's argon2id cost), then POST /api/pricer/rpc/pricer-login from a worker thread at 8 and 16 in flight.
 * Bounded: fixed counts, each run capped in time. Not part of CI.
 */
import { hash } from '@node-rs/argon2';
import { ARGON2 } from '../src/platform/auth/passwords';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../src/platform/config';
import { startHarness, type Harness } from '../test/harness';
import { createDatabase, startPostgres } from '../test/postgres';
import { runLoadInWorker, type LoadRequest } from './lib/httpLoad';
import { deadline, fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const LOGINS = numberArg('logins', 160);
const CONCURRENCY = [8, 16];
const PRICERS = 16;
const PASSWORD = 'pricer-bench-123';
const RUN_CAP_MS = 30_000;

async function bench(label: string, databaseUrl: string | undefined) {
  if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
  else delete process.env.DATABASE_URL;
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000000' }), appsDir: null };
  let h: Harness | undefined;
  try {
    h = await startHarness({ config });
    const owner = await h.idp.sign({}, { sub: 'login-bench-owner', exp: '1h' });
    const profile = await h.call(
      '/api/trader/rpc/trader-profile',
      { company_name: '登录基准测试公司', tq_account_config: { is_sim: true } },
      owner,
    );
    if (profile.status !== 200) throw new Error(`trader-profile: ${JSON.stringify(profile.body)}`);
    const tenantId = profile.body.data.tenant_id as number;
    for (let i = 0; i < PRICERS; i++) {
      const r = await h.call(
        '/api/trader/rpc/create-pricer-user',
        { username: `pricer${i}`, password: PASSWORD },
        owner,
      );
      if (r.status !== 200) throw new Error(`create-pricer-user: ${JSON.stringify(r.body)}`);
    }
    const stored = await h.db.selectFrom('pricer_users').select('password_hash').executeTakeFirstOrThrow();
    const params = stored.password_hash.split('$').slice(1, 4).join(' ');
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    console.log(
      `\n-- ${label}: ${params} (stored hash), ${PRICERS} pricers, failed-login limit ${config.loginRateLimit}/min`,
    );

    const requests = (count: number): LoadRequest[] =>
      Array.from({ length: count }, (_, i) => ({
        path: '/api/pricer/rpc/pricer-login',
        body: JSON.stringify({ tenant_id: tenantId, username: `pricer${i % PRICERS}`, password: PASSWORD }),
      }));
    // Warm-up (JIT, pool), not reported.
    await runLoadInWorker({ baseUrl, concurrency: 8, requests: requests(16), maxMs: RUN_CAP_MS });
    for (const concurrency of CONCURRENCY) {
      const res = await runLoadInWorker({ baseUrl, concurrency, requests: requests(LOGINS), maxMs: RUN_CAP_MS });
      const s = summarize(res.latencies);
      console.log(
        `  ${String(concurrency).padStart(2)} in flight: ${fmt((res.ok / res.elapsedMs) * 1000)} logins/s  ${latencyLine(s)}  (n=${res.completed}, ok ${res.ok}, failed ${res.failed}${res.truncated ? ', CUT SHORT by the time cap' : ''})`,
      );
      if (res.firstError) console.log(`    first error: ${res.firstError} ${JSON.stringify(res.statuses)}`);
    }
  } finally {
    await h?.close();
  }
}

async function main() {
  header('login.bench: POST /api/pricer/rpc/pricer-login');
  console.log(
    `  argon2 runs on libuv's thread pool: UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ${availableParallelism()} cores`,
  );
  // The ceiling: one hash on one core, measured here (the login does one verify; the machine has N cores).
  await hash('calibration', ARGON2);
  const t0 = performance.now();
  for (let i = 0; i < 5; i++) await hash('calibration', ARGON2);
  const one = (performance.now() - t0) / 5;
  console.log(
    `  argon2id m=${ARGON2.memoryCost} KiB t=${ARGON2.timeCost} p=${ARGON2.parallelism} alone: ${fmt(one)} ms per hash → ceiling ≈ ${fmt((Math.min(4, availableParallelism()) * 1000) / one)} logins/s on ${availableParallelism()} cores`,
  );
  const guard = deadline(170_000, 'login.bench');
  let pg: Awaited<ReturnType<typeof startPostgres>> | undefined;
  try {
    await Promise.race([
      guard.promise,
      (async () => {
        await bench('PGlite (embedded, in memory)', undefined);
        pg = await startPostgres();
        await bench('PostgreSQL (throwaway cluster on loopback)', await createDatabase(pg.url, 'bench_login'));
      })(),
    ]);
  } finally {
    guard.cancel();
    pg?.stop();
  }
}

await main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
footer();
process.exit();
