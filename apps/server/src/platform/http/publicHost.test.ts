import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { startHarness, type Harness } from '../../../test/harness';
import { tempDir } from '../../../test/tempDir';

/** What chromium sends when it opens a page, and what fetch() sends. */
const NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FETCH = '*/*';

function appsDir() {
  const dir = tempDir('pfp-host-');
  mkdirSync(path.join(dir, 'host/dist'), { recursive: true });
  writeFileSync(path.join(dir, 'host/dist/index.html'), '<!doctype html><title>host</title>');
  for (const r of ['trader', 'pricer', 'volatility']) {
    mkdirSync(path.join(dir, r, 'dist'), { recursive: true });
    writeFileSync(path.join(dir, r, 'dist/remoteEntry.js'), `export const name = '${r}'`);
  }
  return dir;
}

describe('one address: pages on another host name go to PUBLIC_URL', () => {
  let h: Harness;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let secure: Awaited<ReturnType<typeof buildApp>>;
  const apps = appsDir();
  beforeAll(async () => {
    h = await startHarness();
    const config = { ...h.ctx.config, appsDir: apps };
    // Behind a proxy on this machine (TRUST_PROXY=127.0.0.1): its X-Forwarded-Host is believed.
    app = await buildApp({
      ...h.ctx,
      config: { ...config, publicUrl: 'http://localhost:8080', trustProxy: ['127.0.0.1'] },
    });
    secure = await buildApp({ ...h.ctx, config: { ...config, publicUrl: 'https://pfp.example.com' } });
  });
  afterAll(async () => {
    await app.close();
    await secure.close();
    await h.close();
  });

  it.each([
    ['127.0.0.1:8080', '/trader'],
    ['127.0.0.1:8080', '/pricer/1/login?theme=dark'],
    ['LOCALHOST:9090', '/volatility-surface?exchange=SHFE&product=cu'],
    ['pfp.internal', '/'],
    ['127.0.0.1:8080', '/realms/pfp/protocol/openid-connect/auth?client_id=shinny_web&redirect_uri=x'],
    ['127.0.0.1:8080', '//evil.example/trader'],
  ])('a page opened on %s%s moves to the same path and query on PUBLIC_URL', async (host, url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url, headers: { host, accept: NAVIGATION } });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`http://localhost:8080${url}`);
    }
  });

  it('serves pages on PUBLIC_URL itself, also behind a proxy that forwards the host', async () => {
    const direct = await app.inject({ url: '/trader', headers: { host: 'localhost:8080', accept: NAVIGATION } });
    expect(direct.statusCode).toBe(200);
    expect(direct.body).toContain('<title>host</title>');
    const proxied = await app.inject({
      url: '/trader',
      headers: { host: 'server:8080', 'x-forwarded-host': 'localhost:8080', accept: NAVIGATION },
    });
    expect(proxied.statusCode).toBe(200);
    const elsewhere = await app.inject({
      url: '/trader',
      headers: { host: 'localhost:8080', 'x-forwarded-host': '10.0.0.7:8080', accept: NAVIGATION },
    });
    expect(elsewhere.headers.location).toBe('http://localhost:8080/trader');
  });

  it('compares hosts as URLs do: the default port, case, and not the scheme', async () => {
    for (const host of ['pfp.example.com', 'PFP.example.com', 'pfp.example.com:443']) {
      const res = await secure.inject({ url: '/trader', headers: { host, accept: NAVIGATION } });
      expect(res.statusCode, host).toBe(200);
    }
    const other = await secure.inject({
      url: '/trader',
      headers: { host: 'pfp.example.com:8443', accept: NAVIGATION },
    });
    expect(other.headers.location).toBe('https://pfp.example.com/trader');
  });

  it('answers API calls, scripts and the provider on any host', async () => {
    const host = '127.0.0.1:8080';
    const health = await app.inject({ url: '/api/health', headers: { host, accept: NAVIGATION } });
    expect(health.statusCode).toBe(200);
    const config = await app.inject({ url: '/api/config', headers: { host, accept: 'application/json' } });
    expect(config.json()).toMatchObject({ result: 'ok' });
    const entry = await app.inject({ url: '/remotes/trader/remoteEntry.js', headers: { host, accept: FETCH } });
    expect(entry.statusCode).toBe(200);
    expect((await app.inject({ url: '/remotes.json', headers: { host, accept: FETCH } })).statusCode).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/api/pricer/rpc/pricer-login',
      headers: { host, accept: NAVIGATION },
      payload: { tenant_id: 1, username: 'nobody', password: 'x' },
    });
    expect(login.statusCode).not.toBe(302);
    expect(login.json()).toMatchObject({ result: 'error' });
    // A form post to a page is not a navigation to move either (it would lose its body).
    const post = await app.inject({ method: 'POST', url: '/trader', headers: { host, accept: NAVIGATION } });
    expect(post.statusCode).toBe(404);
  });
});
