/**
 * Fault injection, the attackers (issue 14 §4, §5, §7, §9): the real server (a child process, on
 * PGlite or on PostgreSQL) against 100 guesses with forged X-Forwarded-For, a token revoked by the
 * trader, and a WebSocket flood. Each asserts what the users would see. Loopback only, bounded.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, pkce } from '../../test/oidcBrowser';
import { createDatabase } from '../../test/postgres';
import { post, startServer, type RunningServer } from '../../test/server';

let server: RunningServer;
beforeAll(async () => {
  const env: Record<string, string> = {};
  if (process.env.DATABASE_URL)
    env.DATABASE_URL = await createDatabase(process.env.DATABASE_URL, `abuse_${Date.now().toString(36)}`);
  server = await startServer(env);
}, 120_000);
afterAll(() => server?.stop());

const login = (username: string, password: string, forwardedFor: string) =>
  fetch(`${server.base}/api/pricer/rpc/pricer-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ tenant_id: 1, username, password }),
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { data?: { jwt_token: string }; error?: { message: string } },
  }));

/** The demo trader's access token through the embedded provider's login page, as the console gets it. */
async function traderToken(): Promise<string> {
  const issuer = `${server.base}/realms/pfp`;
  const b = browser(server.base);
  const { verifier, challenge } = pkce();
  const auth = new URL(`${issuer}/protocol/openid-connect/auth`);
  for (const [k, v] of Object.entries({
    client_id: 'shinny_web',
    redirect_uri: `${server.base}/trader`,
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid profile email',
    state: 's',
    nonce: 'n',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    auth.searchParams.set(k, v);
  const page = (await b.navigate(auth)) as Response;
  const action = new URL(/action="([^"]+)"/.exec(await page.text())![1]!, page.url);
  const landed = (await b.navigate(action, { form: { username: 'trader', password: 'trader123' } })) as URL;
  const code = new URLSearchParams(landed.hash.slice(1)).get('code')!;
  const res = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'shinny_web',
      code,
      redirect_uri: `${server.base}/trader`,
      code_verifier: verifier,
    }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('attackers', () => {
  it('a WebSocket flood gets Chinese refusals and the customers keep their desk', async () => {
    const sockets: WebSocket[] = [];
    try {
      const list = (await (
        await fetch(`${server.base}/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1`)
      ).json()) as { data: string[] };
      const futures = list.data;
      const replies: Record<string, any>[] = [];
      const open = () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${server.base.replace('http', 'ws')}/ws/volatility`);
          sockets.push(ws);
          ws.on('message', (d) => replies.push(JSON.parse(d.toString()) as Record<string, any>));
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        });
      const flood = await Promise.all(Array.from({ length: 25 }, open));
      for (const ws of flood)
        for (let v = 0; v < 12; v++)
          ws.send(
            JSON.stringify({
              aid: 'subscribe_view',
              req_id: `v${v}`,
              view_id: `v${v}`,
              view_name: 'volatility_curves',
              params: {
                items: futures.map((symbol) => ({ symbol, option_type: v % 2 ? 'CALL' : 'PUT', price_type: 'last' })),
              },
            }),
          );
      await new Promise((r) => setTimeout(r, 2000));
      const refusals = replies.filter((m) => m.result === 'error');
      const codes = new Set(refusals.map((m) => m.error.code));
      expect(codes.has('TOO_MANY_CONNECTIONS')).toBe(true);
      expect(codes.has('TOO_MANY_FUTURES')).toBe(true);
      expect(refusals.every((m) => /[\u4e00-\u9fff]/.test(m.error.message))).toBe(true);
      // Meanwhile the customer's desk answers and the server is healthy.
      const session = await post(server.base, '/api/pricer/rpc/pricer-login', {
        tenant_id: 1,
        username: 'pricer1',
        password: 'pricer123',
      });
      const snap = await post(server.base, '/api/pricer/view/my-data-snapshot', {}, session.body.data?.jwt_token);
      expect([snap.status, (await fetch(`${server.base}/api/health`)).status]).toEqual([200, 200]);
      expect(server.child.exitCode).toBeNull();
    } finally {
      for (const ws of sockets) ws.terminate();
    }
  }, 60_000);
  it("a customer's token stops working the moment the trader resets the password", async () => {
    const session = await post(server.base, '/api/pricer/rpc/pricer-login', {
      tenant_id: 1,
      username: 'pricer2',
      password: 'pricer123',
    });
    const token = session.body.data.jwt_token as string;
    expect((await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token)).status).toBe(200);
    const trader = await traderToken();
    const users = await post(server.base, '/api/trader/view/users', {}, trader);
    const pricer2 = users.body.data.items.find((u: { username: string }) => u.username === 'pricer2');
    const reset = await post(
      server.base,
      '/api/trader/rpc/reset-pricer-password',
      { user_id: pricer2.id, new_password: 'pricer456' },
      trader,
    );
    expect(reset.status).toBe(200);
    const after = await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token);
    expect(after.status).toBe(401);
    expect(after.body.error!.message).toBe('登录已过期，请重新登录');
    // And at the WebSocket door.
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${server.base.replace('http', 'ws')}/ws?token=${token}`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(code).toBe(401);
  }, 60_000);

  // Last: it also spends the failures allowed to 127.0.0.1 for a minute.
  it('100 password guesses with forged X-Forwarded-For get 5 tries, then nothing; the log names the real address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await login('pricer1', `guess-${i}`, `198.51.100.${i % 250}, 203.0.113.${i}`);
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    // Even the right password, from "another" forged address, gets no token: the account waits.
    const right = await login('pricer1', 'pricer123', '192.0.2.77');
    expect(right.status).toBe(429);
    expect(right.body.data).toBeUndefined();
    expect(right.body.error!.message).toMatch(/登录失败次数过多|登录尝试过于频繁/);
    await new Promise((r) => setTimeout(r, 300)); // the last log lines
    const log = server.output();
    expect(log).toContain('"remoteAddress":"127.0.0.1"');
    expect(log).not.toMatch(/198\.51\.100\.|203\.0\.113\.|192\.0\.2\.77/);
  });
});
