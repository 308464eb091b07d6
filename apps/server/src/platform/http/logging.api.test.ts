import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { startHarness, type Harness } from '../../../test/harness';
import { attachViewServer } from '../ws/server';
import { WsRegistry } from '../ws/registry';

/** No token, id_token_hint or password ever reaches a log line (issue 14 §5), at the most verbose level. */
let h: Harness;
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('logs', () => {
  it('carry no secret from URLs, headers or bodies', async () => {
    const trader = await h.idp.sign({}, { sub: 'trader-logs' });
    await h.call(
      '/api/trader/rpc/trader-profile',
      { company_name: '壬公司', tq_account_config: { is_sim: true } },
      trader,
    );
    const tenant = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id;
    await h.call('/api/trader/rpc/create-pricer-user', { username: 'kate', password: 'Kate-Secret-pw1' }, trader);

    const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, logLevel: 'trace' } }, { logStream: sink });
    attachViewServer(app, new WsRegistry(), async () => false);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const post = (url: string, body: unknown, token?: string) =>
      fetch(base + url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });

    const login = await post('/api/pricer/rpc/pricer-login', {
      tenant_id: tenant,
      username: 'kate',
      password: 'Kate-Secret-pw1',
    });
    const jwt = ((await login.json()) as { data: { jwt_token: string } }).data.jwt_token;
    await post('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username: 'kate', password: 'Wrong-Secret-pw2' });
    // A password typed into the name field, until the account is locked and the refusal logged (issue 30).
    for (let i = 0; i < 7; i++)
      await post('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username: 'Typed-Name-Secret', password: 'x' });
    await post('/api/pricer/view/my-data-snapshot', {}, jwt);
    await post('/api/pricer/view/my-data-snapshot', {}, `${jwt}broken`);
    await post('/api/trader/view/my-self', {}, trader);
    await post('/api/trader/view/my-self', {}, `${trader}x`);
    await post('/api/trader/rpc/reset-pricer-password', { user_id: 1, new_password: 'New-Secret-pw3' }, trader);
    const hint = 'eyJhbGciOiJSUzI1NiJ9.id-token-hint-secret.sig';
    await fetch(`${base}/realms/pfp/protocol/openid-connect/logout?id_token_hint=${hint}&client_id=shinny_web`);
    await fetch(`${base}/api/anything?access_token=query-access-secret&code=auth-code-secret&refresh_token=rt-secret`);
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?token=ws-token-secret`);
      ws.on('error', () => resolve());
      ws.on('close', () => resolve());
      ws.on('open', () => ws.close());
    });
    await app.close();

    const log = lines.join('');
    expect(log).toContain('/api/pricer/rpc/pricer-login'); // the requests were logged…
    expect(log).toContain('/realms/pfp/protocol/openid-connect/logout');
    expect(log).toContain('pricer login refused');
    for (const secret of [
      'Typed-Name-Secret',
      'Kate-Secret-pw1',
      'Wrong-Secret-pw2',
      'New-Secret-pw3',
      jwt,
      jwt.split('.')[2]!,
      trader.split('.')[2]!,
      'id-token-hint-secret',
      'query-access-secret',
      'auth-code-secret',
      'rt-secret',
      'ws-token-secret',
    ])
      expect(log, secret).not.toContain(secret); // …without their secrets
  });
});
