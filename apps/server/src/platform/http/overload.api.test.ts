import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { buildApp } from '../../app';
import { loadConfig } from '../config';
import { tradingDayIn } from '../../../test/days';

/**
 * Load shedding (http/overload.ts) over real HTTP on loopback: past the in-flight bound, and with the event loop
 * over its utilisation threshold, an API request is answered 503 + Retry-After in Chinese before it is taken on —
 * a refused submit-order leaves no order behind, and the same submit sent again is accepted.
 */
let h: Harness;
let base: string;
let jwt: string;
let contractId: number;

const listen = async (app: FastifyInstance) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

async function post(url: string, path: string, body: unknown, token?: string) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}

/** Waits for a condition (not for a time): checked every 10 ms, given up after 10 s. */
async function until(what: string, ok: () => boolean) {
  for (const t0 = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() - t0 > 10_000) throw new Error(`never came: ${what}`);
  }
}

const ordersWith = async (clientOrderId: string) =>
  (await h.db.selectFrom('orders').select('id').where('client_order_id', '=', clientOrderId).execute()).length;

const SHED = { result: 'error', error: { code: 'overloaded', message: '服务器繁忙，请稍后重试' } };

beforeAll(async () => {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000' }),
    appsDir: null,
    overload: { maxInFlight: 3, maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0 },
  };
  h = await startHarness({ config });
  const trader = await h.idp.sign({}, { sub: 'trader-overload' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '限流公司', tq_account_config: { is_sim: true } },
    trader,
  );
  const tenant = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id as number;
  const user = (await h.call('/api/trader/rpc/create-pricer-user', { username: 'olga', password: 'pw123' }, trader))
    .body.data;
  const instruments = await h.call('/api/trader/view/instruments', { product_name: '铜' }, trader);
  const contract = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: user.id,
      product_name: '铜',
      instrument_id: instruments.body.data.items[1].symbol,
      direction: 'BUY',
      total_quantity: 30,
      basis: 0,
      fixing_deadline: tradingDayIn(30),
      margin_rate: 0, // no money on file: this suite is about load, not margin (docs/margin.md)
    },
    trader,
  );
  contractId = contract.body.data.id;
  jwt = (await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username: 'olga', password: 'pw123' })).body
    .data.jwt_token;
  base = await listen(h.app);
});
afterAll(() => h.close());

describe('load shedding', () => {
  it('answers 503 + Retry-After past the in-flight bound, before the request is taken on', async () => {
    // The database held: a lock every customer call's session check waits for, so three calls stay in flight.
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = h.db.transaction().execute(async (trx) => {
      await sql`lock table pricer_users in access exclusive mode`.execute(trx);
      locked();
      await new Promise<void>((r) => (release = r));
    });
    await isLocked;
    const waiting = [1, 2, 3].map(() => post(base, '/api/pricer/view/my-data-snapshot', {}, jwt));
    await until('3 requests in flight', () => h.app.apiRequestsInFlight() === 3);

    const submit = { contract_id: contractId, quantity: 1, client_order_id: 'shed-in-flight' };
    const refused = await post(base, '/api/pricer/rpc/submit-order', submit, jwt);
    expect(refused).toMatchObject({ status: 503, retryAfter: '5', body: SHED });

    release();
    await held;
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200, 200]);
    await until('none in flight', () => h.app.apiRequestsInFlight() === 0);
    expect(await ordersWith('shed-in-flight')).toBe(0);
    // Sent again once there is room: accepted, once.
    expect((await post(base, '/api/pricer/rpc/submit-order', submit, jwt)).status).toBe(200);
    expect(await ordersWith('shed-in-flight')).toBe(1);
  });

  it('answers 503 while the event loop is over its utilisation threshold, but never the health check', async () => {
    const app = await buildApp({
      ...h.ctx,
      config: { ...h.ctx.config, overload: { maxInFlight: 0, maxEventLoopDelayMs: 0, maxEventLoopUtilization: 1e-6 } },
    });
    try {
      const url = await listen(app);
      const submit = { contract_id: contractId, quantity: 1, client_order_id: 'shed-loop' };
      // Keep the loop busy (50 ms of work between calls) until the sampled utilisation crosses the threshold.
      let refused: Awaited<ReturnType<typeof post>> | undefined;
      for (const t0 = Date.now(); !refused && Date.now() - t0 < 10_000;) {
        for (const end = performance.now() + 50; performance.now() < end;);
        const r = await post(url, '/api/pricer/rpc/submit-order', submit, jwt);
        if (r.status === 503) refused = r;
        else expect(r.status).toBe(200);
      }
      expect(refused).toMatchObject({ status: 503, retryAfter: '5', body: SHED });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
