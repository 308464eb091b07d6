import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { startHarness, type Harness } from '../../../test/harness';

/**
 * Login failure counters in the database (issue 30, migration 015): two server instances on one
 * PostgreSQL — each with its own connection pool — count the same failures, and the trader's unlock
 * or a password reset on one reaches the other. On PGlite (one instance), the second app is the same
 * server after a restart: the count survives it.
 */
let h: Harness;
let tenantId: number;
let trader: string;
let userId: number;
let db2: Database;
let a: Awaited<ReturnType<typeof instance>>;
let b: Awaited<ReturnType<typeof instance>>;

async function instance(db: Database) {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_LOOP_DELAY_MS: '0' }), appsDir: null };
  const app = await buildApp({ ...h.ctx, db, config });
  await app.ready();
  return app;
}

beforeAll(async () => {
  h = await startHarness();
  trader = await h.idp.sign({}, { sub: 'trader-shared' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '辛公司', tq_account_config: { is_sim: true } },
    trader,
  );
  tenantId = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id;
  userId = (await h.call('/api/trader/rpc/create-pricer-user', { username: 'shared', password: 'first-pw' }, trader))
    .body.data.id;
  // PostgreSQL: a second pool, as a second server process would have. PGlite: the one database.
  db2 = process.env.DATABASE_URL ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }) : h.db;
  a = await instance(h.db);
  b = await instance(db2);
});
afterAll(async () => {
  await a.close();
  await b.close();
  if (db2 !== h.db) await db2.destroy();
  await h.close();
});

const login = (app: typeof a, password: string) =>
  app
    .inject({
      method: 'POST',
      url: '/api/pricer/rpc/pricer-login',
      payload: { tenant_id: tenantId, username: 'shared', password },
      remoteAddress: '203.0.113.9',
    })
    .then((r) => r.statusCode);

const rpc = (app: typeof a, url: string, payload: Record<string, unknown>) =>
  app
    .inject({ method: 'POST', url, headers: { authorization: `Bearer ${trader}` }, payload })
    .then((r) => r.statusCode);

describe('login failures shared by every instance (issue 30)', () => {
  it('counts failures on either instance against the same account and address', async () => {
    // 3 wrong passwords on one instance, 2 on the other: 5 from that address, locked on both.
    for (let i = 0; i < 3; i++) expect(await login(a, `wrong-a${i}`)).toBe(401);
    for (let i = 0; i < 2; i++) expect(await login(b, `wrong-b${i}`)).toBe(401);
    expect(await login(a, 'first-pw')).toBe(429);
    expect(await login(b, 'first-pw')).toBe(429);
  });

  it('survives a restart of the instance that counted them', async () => {
    await a.close();
    a = await instance(h.db);
    expect(await login(a, 'first-pw')).toBe(429);
  });

  it("a trader's unlock on one instance unlocks on the other", async () => {
    expect(await rpc(b, '/api/trader/rpc/unlock-pricer', { user_id: userId })).toBe(200);
    expect(await login(a, 'first-pw')).toBe(200);
  });

  it('a password reset by the trader also unlocks the customer', async () => {
    for (let i = 0; i < 5; i++) expect(await login(a, `wrong-again${i}`)).toBe(401);
    expect(await login(b, 'first-pw')).toBe(429);
    expect(await rpc(b, '/api/trader/rpc/reset-pricer-password', { user_id: userId, new_password: 'second-pw' })).toBe(
      200,
    );
    expect(await login(a, 'second-pw')).toBe(200);
    expect(await login(a, 'first-pw')).toBe(401);
  });
});
