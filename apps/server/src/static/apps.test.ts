import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { DEFAULT_REMOTES, loadConfig } from '../config';
import { startHarness, type Harness } from '../../test/harness';

/** A fake apps/ tree with the files a real build leaves. */
function makeAppsDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pfp-apps-'));
  mkdirSync(path.join(dir, 'host/dist/assets'), { recursive: true });
  writeFileSync(path.join(dir, 'host/dist/index.html'), '<!doctype html><title>host</title>');
  writeFileSync(path.join(dir, 'host/dist/assets/index-abc.js'), 'console.log(1)');
  for (const r of ['trader', 'pricer', 'volatility']) {
    mkdirSync(path.join(dir, r, 'dist/assets'), { recursive: true });
    writeFileSync(path.join(dir, r, 'dist/remoteEntry.js'), `export const name = '${r}'`);
    writeFileSync(path.join(dir, r, 'dist/assets/App-1.js'), 'export default 1');
  }
  return dir;
}

describe('one origin', () => {
  const appsDir = makeAppsDir();
  let h: Harness;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    h = await startHarness();
    app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, appsDir } });
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  it.each(['/', '/trader', '/trader/dashboard', '/pricer/1/login', '/volatility-surface', '/nope', '/main'])(
    'serves the host for client route %s',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>host</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves each remote entry uncached and its hashed assets immutable', async () => {
    for (const r of ['trader', 'pricer', 'volatility']) {
      const entry = await app.inject({ url: `/remotes/${r}/remoteEntry.js` });
      expect(entry.statusCode).toBe(200);
      expect(entry.body).toContain(r);
      expect(entry.headers['cache-control']).toBe('no-cache');
      const asset = await app.inject({ url: `/remotes/${r}/assets/App-1.js` });
      expect(asset.headers['cache-control']).toContain('immutable');
    }
  });

  it('answers 404 in the API envelope for missing files and API paths', async () => {
    for (const url of ['/remotes/trader/missing.js', '/assets/missing.js', '/api/nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ result: 'error', error: { code: 'not_found' } });
    }
  });

  it('publishes the remotes manifest and the health check', async () => {
    expect((await app.inject({ url: '/remotes.json' })).json()).toEqual(DEFAULT_REMOTES);
    expect((await app.inject({ url: '/api/health' })).json()).toMatchObject({ result: 'ok', data: { status: 'ok' } });
  });
});

describe('loadConfig', () => {
  it('reads PORT, DATA_DIR and an inline REMOTES_MANIFEST', () => {
    const c = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/pfp-x',
      REMOTES_MANIFEST: '{"trader":"https://cdn.example/trader/remoteEntry.js"}',
    });
    expect(c.port).toBe(9000);
    expect(c.dataDir).toBe('/tmp/pfp-x');
    expect(c.remotes.trader).toBe('https://cdn.example/trader/remoteEntry.js');
    expect(c.remotes.pricer).toBe(DEFAULT_REMOTES.pricer);
  });

  it('reads REMOTES_MANIFEST from a file and rejects bad values', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pfp-m-')), 'remotes.json');
    writeFileSync(file, JSON.stringify({ volatility: '/v2/remoteEntry.js' }));
    expect(loadConfig({ REMOTES_MANIFEST: file }).remotes.volatility).toBe('/v2/remoteEntry.js');
    expect(() => loadConfig({ REMOTES_MANIFEST: '{"trader": 1}' })).toThrow('must be a string');
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('PORT');
  });
});

describe('without app builds (they are served elsewhere)', () => {
  it('still publishes /remotes.json and answers 404 for everything else', async () => {
    const h = await startHarness();
    expect((await h.app.inject({ url: '/remotes.json' })).json()).toEqual(DEFAULT_REMOTES);
    expect((await h.app.inject({ url: '/trader' })).statusCode).toBe(404);
    await h.close();
  });
});
