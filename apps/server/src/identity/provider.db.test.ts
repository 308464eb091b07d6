import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraderVerifier } from '../platform/auth/traderTokens';
import type { Database } from '../platform/db/database';
import { openMigratedDatabase } from '../../test/db';
import { createIdentityProvider, type IdentityProvider } from './provider';
import { addTrader } from './traders';
import { browser, pkce, type Browser } from '../../test/oidcBrowser';

describe('embedded OpenID provider', () => {
  let db: Database;
  let server: Server;
  let origin: string;
  let idp: IdentityProvider;
  let app: FastifyInstance;
  let traderId: string;
  const apps: FastifyInstance[] = [];

  /** A provider and app on the shared server and database: calling it again is a restart. */
  async function start() {
    idp = await createIdentityProvider({ db, origin, cookieKeys: ['test-cookie-key'], proxy: false });
    app = Fastify({
      serverFactory: (handler) => {
        server.removeAllListeners('request');
        server.on('request', handler);
        return server;
      },
    });
    // As in app.ts.
    await app.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
    await idp.register(app);
    await app.ready();
    apps.push(app);
  }

  const endpoint = (name: string) => `${idp.issuer}/protocol/openid-connect/${name}`;
  const redirectUri = () => `${origin}/trader/dashboard`;

  function authorizeUrl(params: Record<string, string | undefined>) {
    const url = new URL(endpoint('auth'));
    const defaults = {
      client_id: 'shinny_web',
      redirect_uri: redirectUri(),
      response_type: 'code',
      response_mode: 'fragment',
      scope: 'openid profile email',
    };
    for (const [k, v] of Object.entries({ ...defaults, ...params })) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  async function token(form: Record<string, string>) {
    const res = await fetch(endpoint('token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'shinny_web', ...form }).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string | number> };
  }

  const formAction = (html: string, base: string) => new URL(/action="([^"]+)"/.exec(html)![1]!, base);

  /** Sign-in as a browser would; returns the code, the verifier and the browser. */
  async function signIn(b: Browser, username: string, password: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const page = await b.navigate(
      authorizeUrl({ state: 'st-1', nonce: 'n-1', code_challenge: challenge, code_challenge_method: 'S256', ...extra }),
    );
    if (page instanceof URL) throw new Error(`no login page: ${page.href}`);
    const html = await page.text();
    const done = await b.navigate(formAction(html, page.url || origin), { form: { username, password } });
    if (!(done instanceof URL)) throw new Error(`sign-in failed: ${done.status} ${await done.text()}`);
    const fragment = new URLSearchParams(done.hash.slice(1));
    return { code: fragment.get('code')!, state: fragment.get('state'), verifier, landed: done };
  }

  beforeAll(async () => {
    db = await openMigratedDatabase();
    const { rows } = await sql<{ t: string | null }>`select to_regclass('traders')::text as t`.execute(db);
    if (!rows[0]?.t)
      await (await import('../platform/db/migrations/002_identity')).up(db as unknown as Kysely<unknown>);
    traderId = (
      await addTrader(db, { username: 'Trader1', password: 's3cret-pw', name: '张三', email: 'zs@example.com' })
    ).id;
    await addTrader(db, { username: 'victim', password: 'right-pw' });
    server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await start();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    for (const a of apps) await a.close().catch(() => undefined);
    await db.destroy();
  });

  it('publishes a Keycloak-shaped discovery document', async () => {
    const res = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(idp.issuer).toBe(`${origin}/realms/pfp`);
    expect(doc).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: endpoint('auth'),
      token_endpoint: endpoint('token'),
      end_session_endpoint: endpoint('logout'),
      userinfo_endpoint: endpoint('userinfo'),
      jwks_uri: endpoint('certs'),
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(doc.response_modes_supported).toContain('fragment');
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));

    const certs = (await (await fetch(endpoint('certs'))).json()) as { keys: Record<string, unknown>[] };
    expect(certs).toEqual(idp.jwks());
    expect(certs.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    for (const key of certs.keys)
      for (const priv of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(priv);
  });

  let tokens: Record<string, string | number>;
  const b = {} as { current: Browser };

  it('runs the code flow: login page, wrong password, right password, tokens', async () => {
    b.current = browser(origin);
    const { verifier, challenge } = pkce();
    const page = await b.current.navigate(
      authorizeUrl({ state: 'st-1', nonce: 'n-1', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(page).toBeInstanceOf(Response);
    const login = page as Response;
    expect(login.status).toBe(200);
    expect(new URL(login.url).pathname).toMatch(/^\/realms\/pfp\/login-actions\/[\w-]+$/);
    expect(login.headers.get('content-type')).toContain('text/html');
    expect(login.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await login.text();
    for (const text of ['贸易商登录', '快期点价宝', '用户名', '密码', '登录', 'name="username"', 'name="password"'])
      expect(html).toContain(text);
    const action = formAction(html, login.url);

    const wrong = await b.current.request(action, { form: { username: 'trader1', password: 'nope' } });
    expect(wrong.status).toBe(200);
    expect(wrong.headers.get('location')).toBeNull();
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('用户名或密码错误');
    expect(wrongHtml).toContain('value="trader1"');

    // Usernames are case-insensitive, as in Keycloak.
    const landed = await b.current.navigate(action, { form: { username: 'TRADER1', password: 's3cret-pw' } });
    expect(landed).toBeInstanceOf(URL);
    const url = landed as URL;
    expect(`${url.origin}${url.pathname}`).toBe(redirectUri());
    expect(url.search).toBe('');
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('state')).toBe('st-1');
    expect(fragment.get('iss')).toBe(idp.issuer);
    const code = fragment.get('code');
    // oidc-provider's codes are opaque base64url strings of 43 characters.
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const res = await token({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri(),
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    tokens = res.body;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(typeof tokens.refresh_token).toBe('string');

    const jwks = createRemoteJWKSet(new URL(endpoint('certs')));
    const at = await jwtVerify(String(tokens.access_token), jwks, { issuer: idp.issuer, audience: 'shinny_web' });
    expect(decodeProtectedHeader(String(tokens.access_token)).alg).toBe('RS256');
    expect(at.payload).toMatchObject({
      sub: traderId,
      preferred_username: 'trader1',
      name: '张三',
      email: 'zs@example.com',
      azp: 'shinny_web',
      client_id: 'shinny_web',
      realm_access: { roles: [] },
    });
    expect(at.payload.exp! - at.payload.iat!).toBe(300);

    const id = await jwtVerify(String(tokens.id_token), jwks, { issuer: idp.issuer, audience: 'shinny_web' });
    expect(id.payload).toMatchObject({
      sub: traderId,
      nonce: 'n-1',
      name: '张三',
      preferred_username: 'trader1',
      email: 'zs@example.com',
    });
    expect(typeof id.payload.sid).toBe('string');

    // The API's verifier accepts it as it would a Keycloak token.
    const verifier2 = new TraderVerifier({ issuer: idp.issuer, audience: 'shinny_web', jwks: () => idp.jwks() });
    await expect(verifier2.verify(String(tokens.access_token))).resolves.toMatchObject({
      sub: traderId,
      preferredUsername: 'trader1',
      name: '张三',
      email: 'zs@example.com',
    });
  });

  it('serves userinfo for the bearer of an access token', async () => {
    const ok = await fetch(endpoint('userinfo'), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      sub: traderId,
      name: '张三',
      preferred_username: 'trader1',
      email: 'zs@example.com',
    });
    expect((await fetch(endpoint('userinfo'))).status).toBe(400);
    const bad = await fetch(endpoint('userinfo'), { headers: { authorization: `Bearer ${tokens.id_token}x` } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('refreshes, rotating the refresh token', async () => {
    const res = await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) });
    expect(res.status).toBe(200);
    expect(res.body.access_token).not.toBe(tokens.access_token);
    expect(res.body.refresh_token).not.toBe(tokens.refresh_token);
    const at = await jwtVerify(String(res.body.access_token), createRemoteJWKSet(new URL(endpoint('certs'))), {
      issuer: idp.issuer,
      audience: 'shinny_web',
    });
    expect(at.payload.sub).toBe(traderId);
    tokens = { ...tokens, ...res.body };
  });

  it('survives a restart: same keys, refresh tokens and sessions', async () => {
    const before = idp.jwks();
    await start();
    expect(idp.jwks()).toEqual(before);

    const res = await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) });
    expect(res.status).toBe(200);
    tokens = { ...tokens, ...res.body };

    // The browser's session is still there: no login page this time.
    const { challenge } = pkce();
    const landed = await b.current.navigate(
      authorizeUrl({ state: 'st-2', nonce: 'n-2', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(landed).toBeInstanceOf(URL);
    expect(new URLSearchParams((landed as URL).hash.slice(1)).get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('logs out straight back to post_logout_redirect_uri', async () => {
    const url = new URL(endpoint('logout'));
    url.searchParams.set('id_token_hint', String(tokens.id_token));
    url.searchParams.set('post_logout_redirect_uri', `${origin}/trader`);
    url.searchParams.set('state', 'bye');
    const res = await b.current.request(url);
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get('location')).toBe(`${origin}/trader?state=bye`);
    expect(b.current.jar.names()).not.toContain('_session');

    // The sign-in is over: its refresh token is gone and the next authorization shows the login page.
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) });
    expect(refresh.body.error).toBe('invalid_grant');
    const { challenge } = pkce();
    const page = await b.current.navigate(
      authorizeUrl({ state: 'st-3', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(page).toBeInstanceOf(Response);
    expect(await (page as Response).text()).toContain('贸易商登录');
  });

  it('logs out with client_id only, and without a session', async () => {
    const url = new URL(endpoint('logout'));
    url.searchParams.set('client_id', 'shinny_web');
    url.searchParams.set('post_logout_redirect_uri', origin);
    const res = await browser(origin).request(url);
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!).href).toBe(new URL(origin).href);

    const bad = new URL(endpoint('logout'));
    bad.searchParams.set('client_id', 'shinny_web');
    bad.searchParams.set('post_logout_redirect_uri', 'https://evil.example/');
    const refused = await browser(origin).request(bad);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('answers a NUL or control character in any parameter with a Chinese 400, never a 500 (issue 30)', async () => {
    const { challenge } = pkce();
    for (const bad of ['a\u0000b', 'line\nbreak', '\u007f']) {
      const auth = new URL(authorizeUrl({ state: bad, code_challenge: challenge, code_challenge_method: 'S256' }));
      const res = await browser(origin).request(auth);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_input', field: 'state' } });
      const out = new URL(endpoint('logout'));
      out.searchParams.set('client_id', 'shinny_web');
      out.searchParams.set('state', bad);
      const logout = await browser(origin).request(out);
      expect(logout.status).toBe(400);
      expect(((await logout.json()) as { error: { message: string } }).error.message).toBe(
        '请求参数 state 含有非法的控制字符',
      );
    }
  });

  it('answers a NUL or control character in any provider POST body with a Chinese 400, never a 500 (issue 40)', async () => {
    const post = (name: string, form: string) =>
      fetch(endpoint(name), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
    for (const [name, form, field] of [
      [
        'token',
        `client_id=shinny_web&grant_type=authorization_code&code=%00&code_verifier=${'v'.repeat(43)}&redirect_uri=${encodeURIComponent(redirectUri())}`,
        'code',
      ],
      ['token', 'client_id=shinny_web&grant_type=refresh_token&refresh_token=%00', 'refresh_token'],
      ['token', 'client_id=shinny_web&grant_type=refresh_token&refresh_token=a%0Db', 'refresh_token'],
      ['revoke', 'client_id=shinny_web&token=%00', 'token'],
      ['revoke', 'client_id=shinny_web&token=x&token_type_hint=%7F', 'token_type_hint'],
    ] as const) {
      const res = await post(name, form);
      expect(res.status, `${name} ${form}`).toBe(400);
      expect(await res.json(), `${name} ${form}`).toMatchObject({
        error: { code: 'invalid_input', field, message: `请求参数 ${field} 含有非法的控制字符` },
      });
    }
    // A clean body still reaches the provider: an unknown code is its own invalid_grant.
    const clean = await token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: redirectUri() });
    expect(clean.status).toBe(400);
    expect(clean.body.error).toBe('invalid_grant');
  });

  it('requires PKCE with S256', async () => {
    for (const params of [
      { code_challenge: pkce().challenge, code_challenge_method: 'plain' },
      { code_challenge: undefined, code_challenge_method: undefined },
    ]) {
      const landed = await browser(origin).navigate(authorizeUrl({ state: 's', ...params }));
      expect(landed).toBeInstanceOf(URL);
      const fragment = new URLSearchParams((landed as URL).hash.slice(1));
      expect(fragment.get('error')).toBe('invalid_request');
      expect(fragment.get('code')).toBeNull();
    }

    // A code is useless without its verifier.
    const { code } = await signIn(browser(origin), 'trader1', 's3cret-pw');
    const res = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      code_verifier: pkce().verifier,
    });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('takes a code once: a replay revokes what it was exchanged for', async () => {
    const { code, verifier } = await signIn(browser(origin), 'trader1', 's3cret-pw');
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: verifier };
    const first = await token(form);
    expect(first.status).toBe(200);
    const again = await token(form);
    expect(again.body.error).toBe('invalid_grant');
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: String(first.body.refresh_token) });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('revokes a refresh token at the revocation endpoint', async () => {
    const { code, verifier } = await signIn(browser(origin), 'trader1', 's3cret-pw');
    const issued = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      code_verifier: verifier,
    });
    const res = await fetch(endpoint('revoke'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'shinny_web', token: String(issued.body.refresh_token) }).toString(),
    });
    expect(res.status).toBe(200);
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('accepts any redirect URI under /trader and nothing else', async () => {
    const { landed } = await signIn(browser(origin), 'trader1', 's3cret-pw', {
      redirect_uri: `${origin}/trader/contracts/42?tab=orders`,
    });
    expect(`${landed.origin}${landed.pathname}${landed.search}`).toBe(`${origin}/trader/contracts/42?tab=orders`);
    const { landed: root } = await signIn(browser(origin), 'trader1', 's3cret-pw', {
      redirect_uri: `${origin}/trader`,
    });
    expect(root.pathname).toBe('/trader');

    for (const uri of [
      `${origin}/admin`,
      `${origin}/traderx`,
      `${origin}/trader/../admin`,
      'https://evil.example/trader/',
      `${origin}/trader/#x`,
    ]) {
      const res = await browser(origin).navigate(
        authorizeUrl({ redirect_uri: uri, code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
      );
      expect(res).toBeInstanceOf(Response);
      expect((res as Response).status).toBe(400);
      expect(await (res as Response).text()).toContain('redirect_uri');
    }
  });

  it('locks an account after 5 failures whatever the address, answering unknown users the same', async () => {
    const b2 = browser(origin);
    const page = (await b2.navigate(
      authorizeUrl({ state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
    )) as Response;
    const action = formAction(await page.text(), page.url);
    const attempt = (username: string, password: string) => b2.request(action, { form: { username, password } });
    for (let i = 0; i < 5; i++)
      expect(await (await attempt('victim', `guess-${i}`)).text()).toContain('用户名或密码错误');
    const limited = await attempt('victim', 'right-pw');
    expect(limited.status).toBe(429);
    const html = await limited.text();
    expect(html).toContain('登录失败次数过多，请稍后再试');
    expect(html).toContain('value="victim"');

    for (let i = 0; i < 5; i++) await attempt('no-such-trader', `guess-${i}`);
    const ghost = await attempt('no-such-trader', 'x');
    expect(ghost.status).toBe(429);
    expect(await ghost.text()).toContain('登录失败次数过多，请稍后再试');
    // Counted in the database (issue 30, 015): every instance on one PostgreSQL refuses the same account.
    const counted = await db
      .selectFrom('login_failures')
      .select(['address', 'failures'])
      .where('account', '=', 'trader:victim')
      .orderBy('address')
      .execute();
    expect(counted.map((r) => [r.address === '' ? '所有地址' : '本地址', r.failures])).toEqual([
      ['所有地址', 5],
      ['本地址', 5],
    ]);

    // Another trader from the same address is not locked out.
    const other = await b2.navigate(action, { form: { username: 'trader1', password: 's3cret-pw' } });
    expect(other).toBeInstanceOf(URL);
  });

  it("ends the trader's grants, sessions and access tokens when the password changes", async () => {
    await addTrader(db, { username: 'rotating', password: 'old-pw' });
    const b4 = browser(origin);
    const { code, verifier } = await signIn(b4, 'rotating', 'old-pw');
    const issued = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    const { passwordChangedAt } = await import('./traders');
    const api = new TraderVerifier({
      issuer: idp.issuer,
      audience: 'shinny_web',
      jwks: () => idp.jwks(),
      passwordChangedAt: (sub) => passwordChangedAt(db, sub),
    });
    await expect(api.verify(String(issued.body.access_token))).resolves.toMatchObject({
      preferredUsername: 'rotating',
    });
    // The ID token has the same issuer and audience, and is still refused by the API.
    await expect(api.verify(String(issued.body.id_token))).rejects.toThrow(/access token/);

    // The same password again (the demo seed does that at every start) ends nothing.
    await addTrader(db, { username: 'rotating', password: 'old-pw' });
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) })).status,
    ).toBe(200);
    const again = await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) });
    const refreshToken = String(again.body.refresh_token ?? issued.body.refresh_token);

    await new Promise((r) => setTimeout(r, 1100)); // iat has whole seconds
    await addTrader(db, { username: 'rotating', password: 'new-pw' });
    const refused = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refused.body.error).toBe('invalid_grant');
    await expect(api.verify(String(issued.body.access_token))).rejects.toThrow(/password changed/);
    // The browser's session is gone too: the next authorization shows the login page.
    const next = await b4.navigate(
      authorizeUrl({ state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
    );
    expect(next).toBeInstanceOf(Response);
    expect(await (next as Response).text()).toContain('贸易商登录');
  });

  it('upgrades an older scrypt hash at the next successful sign-in', async () => {
    const { scryptSync } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('legacy-pw', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await db
      .insertInto('traders' as never)
      .values({ username: 'legacy-trader', password_hash: old } as never)
      .execute();
    const stored = async () =>
      (await sql<{ h: string }>`select password_hash as h from traders where username = 'legacy-trader'`.execute(db))
        .rows[0]!.h;
    await signIn(browser(origin), 'legacy-trader', 'legacy-pw');
    expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('escapes what it echoes and explains an expired login page', async () => {
    const b3 = browser(origin);
    const page = (await b3.navigate(
      authorizeUrl({ state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
    )) as Response;
    const action = formAction(await page.text(), page.url);
    const res = await b3.request(action, { form: { username: '<script>x</script>"', password: 'p' } });
    const html = await res.text();
    expect(html).not.toContain('<script>x');
    expect(html).toContain('&#60;script&#62;x&#60;/script&#62;&#34;');

    const stale = await browser(origin).request(action);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain('请返回应用重新登录');
  });
});

describe('embedded OpenID provider behind a reverse proxy', () => {
  let db: Database;
  let server: Server;
  let local: string;
  let app: FastifyInstance;
  const origin = 'https://pfp.example.com';

  beforeAll(async () => {
    db = await openMigratedDatabase();
    const { rows } = await sql<{ t: string | null }>`select to_regclass('traders')::text as t`.execute(db);
    if (!rows[0]?.t)
      await (await import('../platform/db/migrations/002_identity')).up(db as unknown as Kysely<unknown>);
    const idp = await createIdentityProvider({ db, origin, cookieKeys: ['k2', 'k1'] });
    app = Fastify({ trustProxy: true });
    await idp.register(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    server = app.server;
    local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pfp.example.com', accept: 'text/html' };

  it('builds its URLs from X-Forwarded-Proto/Host and sets secure cookies', async () => {
    const doc = (await (
      await fetch(`${local}/realms/pfp/.well-known/openid-configuration`, { headers: forwarded })
    ).json()) as Record<string, string>;
    expect(doc.issuer).toBe(`${origin}/realms/pfp`);
    for (const key of [
      'authorization_endpoint',
      'token_endpoint',
      'end_session_endpoint',
      'jwks_uri',
      'userinfo_endpoint',
    ])
      expect(doc[key], key).toMatch(new RegExp(`^${origin}/realms/pfp/protocol/openid-connect/`));

    const auth = new URL(`${local}/realms/pfp/protocol/openid-connect/auth`);
    for (const [k, v] of Object.entries({
      client_id: 'shinny_web',
      redirect_uri: `${origin}/trader`,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    }))
      auth.searchParams.set(k, v);
    const res = await fetch(auth, { headers: forwarded, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/realms\/pfp\/login-actions\//);
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase()).toContain('; secure');
  });
});
