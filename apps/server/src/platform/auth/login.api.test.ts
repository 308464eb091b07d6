import { scryptSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../config';
import { startHarness, type Harness } from '../../../test/harness';

/**
 * Who is asking (issue 14 §4) and password storage (§8) at the customer login: per-account
 * protection whatever the address, a per-address limit that counts failures only, and
 * X-Forwarded-For believed only from the configured proxies.
 */
let h: Harness;
let tenantId: number;
let trader: string;

beforeAll(async () => {
  h = await startHarness();
  trader = await h.idp.sign({}, { sub: 'trader-login' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '庚公司', tq_account_config: { is_sim: true } },
    trader,
  );
  tenantId = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id;
  for (let i = 0; i < 12; i++)
    await h.call('/api/trader/rpc/create-pricer-user', { username: `staff${i}`, password: 'pw-office' }, trader);
  await h.call('/api/trader/rpc/create-pricer-user', { username: 'target', password: 'right-pw' }, trader);
});
afterAll(() => h.close());

/** An app on the harness's database with the production defaults of the login limits. */
async function productionApp(env: Record<string, string> = {}) {
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_LOOP_DELAY_MS: '0', ...env }), appsDir: null };
  const app = await buildApp({ ...h.ctx, config });
  await app.ready();
  return app;
}

const login = (
  app: Awaited<ReturnType<typeof productionApp>>,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) =>
  app
    .inject({
      method: 'POST',
      url: '/api/pricer/rpc/pricer-login',
      payload: { tenant_id: tenantId, username, password },
      headers,
      remoteAddress: '10.1.1.1',
    })
    .then((r) => ({
      status: r.statusCode,
      body: r.json() as { data?: { jwt_token: string }; error?: { message: string } },
    }));

describe('customer login protection', () => {
  it('lets a whole office sign in from one address', async () => {
    const app = await productionApp();
    for (let i = 0; i < 12; i++) expect((await login(app, `staff${i}`, 'pw-office')).status, `staff${i}`).toBe(200);
    // …also repeatedly: successes are not counted against the address.
    for (let i = 0; i < 12; i++) expect((await login(app, `staff${i}`, 'pw-office')).status).toBe(200);
    await app.close();
  });

  it('locks an account after 5 failures from one address, with the same answer for unknown users', async () => {
    const app = await productionApp();
    for (let i = 0; i < 5; i++) {
      const r = await login(app, 'target', `guess-${i}`, { 'x-forwarded-for': `203.0.113.${i}` });
      expect(r.status).toBe(401);
    }
    const locked = await login(app, 'target', 'right-pw', { 'x-forwarded-for': '198.51.100.7' });
    expect(locked.status).toBe(429);
    expect(locked.body.data).toBeUndefined();
    expect(locked.body.error!.message).toMatch(/登录失败次数过多/);

    for (let i = 0; i < 5; i++) await login(app, 'nobody-here', `guess-${i}`);
    const ghost = await login(app, 'nobody-here', 'x');
    expect(ghost.status).toBe(429);
    expect(ghost.body.error!.message).toBe(locked.body.error!.message);

    // Other accounts at the same address are not locked out.
    expect((await login(app, 'staff0', 'pw-office')).status).toBe(200);
    await app.close();
  });

  it('locks per account and address: guesses from elsewhere do not lock the owner out; a slower ceiling for all addresses; the trader unlocks (issue 30)', async () => {
    await h.call('/api/trader/rpc/create-pricer-user', { username: 'owner', password: 'owner-pw' }, trader);
    const app = await productionApp({ TRUST_PROXY: '10.1.1.1' });
    for (let i = 0; i < 6; i++) await login(app, 'owner', `guess-${i}`, { 'x-forwarded-for': '203.0.113.66' });
    // The attacker's address is locked for that account …
    expect((await login(app, 'owner', 'owner-pw', { 'x-forwarded-for': '203.0.113.66' })).status).toBe(429);
    // … the owner at the office is not.
    expect((await login(app, 'owner', 'owner-pw', { 'x-forwarded-for': '198.51.100.20' })).status).toBe(200);

    // Spread over many addresses, the account's own ceiling (4 × 5 failures) still holds, everywhere.
    for (let i = 0; i < 20; i++) await login(app, 'owner', `spread-${i}`, { 'x-forwarded-for': `192.0.2.${100 + i}` });
    const everywhere = await login(app, 'owner', 'owner-pw', { 'x-forwarded-for': '198.51.100.20' });
    expect(everywhere.status).toBe(429);

    // The trader unlocks the customer (audited); another tenant's trader cannot.
    const owner = (await h.call('/api/trader/view/users', { filter: "username = 'owner'" }, trader)).body.data.items[0];
    const stranger = await h.idp.sign({}, { sub: 'trader-login-other' });
    await h.call(
      '/api/trader/rpc/trader-profile',
      { company_name: '外公司', tq_account_config: { is_sim: true } },
      stranger,
    );
    const refused = await app.inject({
      method: 'POST',
      url: '/api/trader/rpc/unlock-pricer',
      headers: { authorization: `Bearer ${stranger}` },
      payload: { user_id: owner.id },
    });
    expect(refused.statusCode).toBe(404);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/trader/rpc/unlock-pricer',
      headers: { authorization: `Bearer ${trader}` },
      payload: { user_id: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('user_id');
    const unlocked = await app.inject({
      method: 'POST',
      url: '/api/trader/rpc/unlock-pricer',
      headers: { authorization: `Bearer ${trader}` },
      payload: { user_id: owner.id },
    });
    expect(unlocked.json()).toEqual({ result: 'ok', data: { user_id: owner.id } });
    expect((await login(app, 'owner', 'owner-pw', { 'x-forwarded-for': '198.51.100.20' })).status).toBe(200);
    const audited = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'unlock-pricer')
      .execute();
    expect(audited).toEqual([{ actor: 'trader-login', payload: { user_id: owner.id } }]);
    await app.close();
  });

  it('limits failures per address, counted on the socket address unless TRUST_PROXY names the proxy', async () => {
    const app = await productionApp({ LOGIN_RATE_LIMIT: '8' });
    for (let i = 0; i < 8; i++) {
      const r = await login(app, `spray-${i}`, 'x', { 'x-forwarded-for': `192.0.2.${i}` });
      expect(r.status).toBe(401);
    }
    const blocked = await login(app, 'staff1', 'pw-office', { 'x-forwarded-for': '192.0.2.200' });
    expect(blocked.status).toBe(429);
    await app.close();

    const proxied = await productionApp({ LOGIN_RATE_LIMIT: '8', TRUST_PROXY: '10.1.1.1' });
    for (let i = 0; i < 8; i++) await login(proxied, `spray2-${i}`, 'x', { 'x-forwarded-for': '192.0.2.9' });
    expect((await login(proxied, 'staff1', 'pw-office', { 'x-forwarded-for': '192.0.2.9' })).status).toBe(429);
    // Behind the trusted proxy, another client is another address.
    expect((await login(proxied, 'staff1', 'pw-office', { 'x-forwarded-for': '192.0.2.10' })).status).toBe(200);
    await proxied.close();
  });
});

describe('customer password storage', () => {
  it('upgrades an older scrypt hash to argon2id at the next successful login', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('legacy-pw', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    const row = await h.db
      .insertInto('pricer_users')
      .values({ tenant_id: tenantId, username: 'legacy', password_hash: old, phone: null, status: 'active' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stored = () =>
      h.db.selectFrom('pricer_users').select('password_hash').where('id', '=', row.id).executeTakeFirstOrThrow();

    expect(
      (await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenantId, username: 'legacy', password: 'no' }))
        .status,
    ).toBe(401);
    expect((await stored()).password_hash).toBe(old);
    const ok = await h.call('/api/pricer/rpc/pricer-login', {
      tenant_id: tenantId,
      username: 'legacy',
      password: 'legacy-pw',
    });
    expect(ok.status).toBe(200);
    expect((await stored()).password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const again = await h.call('/api/pricer/rpc/pricer-login', {
      tenant_id: tenantId,
      username: 'legacy',
      password: 'legacy-pw',
    });
    expect(again.status).toBe(200);
  });
});
