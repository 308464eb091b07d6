import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../platform/db/database';
import { startHarness, type Harness } from '../../../test/harness';

/**
 * Database faults as a caller sees them (issue 14 §1): health answers 200 only when the database
 * answered within 2 s; a request is answered by its deadline; a database that cannot be reached is
 * a 503 with a Chinese message, never a 500 or a hang. The stall is a transaction holding an
 * exclusive lock (on PGlite, its one connection).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Holds an ACCESS EXCLUSIVE lock on `table` for `ms`. */
function stall(table: string, ms: number) {
  let locked!: () => void;
  const ready = new Promise<void>((r) => (locked = r));
  const done = h.db.transaction().execute(async (tx) => {
    await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(tx);
    locked();
    await new Promise((r) => setTimeout(r, ms));
  });
  return { ready, done };
}

const timed = async <T>(p: Promise<T>) => {
  const t0 = performance.now();
  const value = await p;
  return { value, ms: performance.now() - t0 };
};

describe('health', () => {
  it('is 200 when the database answers', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: 'ok', data: { status: 'ok', database: 'ok' } });
  });

  it('is 503 with the reason when the database does not answer within 2 s', async () => {
    const s = stall('tenants', 3500);
    await s.ready;
    const { value: res, ms } = await timed(h.app.inject({ method: 'GET', url: '/api/health' }));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      result: 'error',
      error: { code: 'db_unavailable', message: '数据库在 2 秒内未应答' },
    });
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(3000);
    await s.done;
    expect((await h.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('config', () => {
  it('says whether the demo is on (the customer login prefills only then, issue 30)', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/config' });
    // The harness's configuration names no DATABASE_URL: the demo default of the embedded database.
    expect(res.json()).toMatchObject({ result: 'ok', data: { demo: true } });
  });
});

describe('request deadline', () => {
  it('answers 503 in Chinese when a request cannot finish in time', async () => {
    const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, requestDeadlineMs: 600 } });
    const trader = await h.idp.sign({}, { sub: 'trader-deadline' });
    await app.inject({
      method: 'POST',
      url: '/api/trader/rpc/trader-profile',
      headers: { authorization: `Bearer ${trader}` },
      payload: { company_name: '癸公司', tq_account_config: { is_sim: true } },
    });
    const s = stall('tenants', 2000);
    await s.ready;
    const { value: res, ms } = await timed(
      app.inject({ method: 'POST', url: '/api/trader/view/my-self', headers: { authorization: `Bearer ${trader}` } }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe('服务器繁忙，请稍后重试');
    expect(ms).toBeLessThan(1500);
    await s.done;
    await app.close();
  });
});

describe('database unreachable', () => {
  it('is a 503 with a Chinese message, fast', async () => {
    // PostgreSQL on a port where nothing listens (the PGlite project has no server to lose: the same wiring).
    const db = await openDatabase({ databaseUrl: 'postgres://pfp@127.0.0.1:9/none', dataDir: 'memory://' });
    const app = await buildApp({ ...h.ctx, db });
    const { value: res, ms } = await timed(
      app.inject({ method: 'POST', url: '/api/pricer/rpc/get-tenant-info', payload: { tenant_id: 1 } }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      result: 'error',
      error: { code: 'db_unavailable', message: '数据库暂时不可用，请稍后重试' },
    });
    expect(ms).toBeLessThan(5500);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json().error.code).toBe('db_unavailable');
    await app.close();
    await db.destroy();
  });
});
