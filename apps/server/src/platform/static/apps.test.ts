import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { logAppsSetting } from './apps';
import { DEFAULT_REMOTES, loadConfig } from '../config';
import { startHarness, type Harness } from '../../../test/harness';
import { tempDir } from '../../../test/tempDir';

/** A chunk's text, long enough to be worth compressing. */
const CHUNK = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `合同${i}` })))};`;

/** A file and the .br and .gz copies the build writes beside it. */
function writePrecompressed(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

/** A fake apps/ tree with the files a real build leaves. */
function makeAppsDir() {
  const dir = tempDir('pfp-apps-');
  mkdirSync(path.join(dir, 'host/dist/assets'), { recursive: true });
  writePrecompressed(path.join(dir, 'host/dist/index.html'), '<!doctype html><title>host</title>');
  writePrecompressed(path.join(dir, 'host/dist/assets/index-abc.js'), CHUNK);
  writePrecompressed(path.join(dir, 'host/dist/remoteEntry-DcNQJYA-.js'), CHUNK);
  writeFileSync(path.join(dir, 'host/dist/favicon.svg'), '<svg/>');
  for (const r of ['trader', 'pricer', 'volatility']) {
    mkdirSync(path.join(dir, r, 'dist/assets'), { recursive: true });
    writePrecompressed(path.join(dir, r, 'dist/remoteEntry.js'), `export const name = '${r}'; ${CHUNK}`);
    writePrecompressed(path.join(dir, r, 'dist/mf-manifest.json'), JSON.stringify({ name: r }));
    writeFileSync(path.join(dir, r, 'dist/assets/App-1.js'), 'export default 1');
    writePrecompressed(path.join(dir, r, 'dist/assets/App-2.js'), CHUNK);
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

  it('sends a hashed asset as brotli, else gzip, else as it is, cached for a year either way', async () => {
    for (const url of ['/assets/index-abc.js', '/remoteEntry-DcNQJYA-.js', '/remotes/pricer/assets/App-2.js']) {
      const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(CHUNK);
      expect(br.rawPayload.length).toBeLessThan(CHUNK.length / 3);

      const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(CHUNK);

      for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
        const plain = await app.inject({ url, headers });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(plain.headers.vary).toMatch(/accept-encoding/i);
        expect(plain.body).toBe(CHUNK);
      }
    }
    // A file the build left uncompressed (too small to gain) is sent as it is to every browser.
    const small = await app.inject({ url: '/remotes/trader/assets/App-1.js', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('export default 1');
  });

  it('sends the files that keep their names compressed too, but never cached without revalidation', async () => {
    const urls = ['/', '/trader/dashboard', '/favicon.svg', '/remotes/volatility/remoteEntry.js'];
    for (const url of [...urls, '/remotes/volatility/mf-manifest.json']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const index = await app.inject({ url: '/pricer/1/login', headers: { 'accept-encoding': 'br' } });
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(index.rawPayload).toString()).toContain('<title>host</title>');
    const manifest = await app.inject({
      url: '/remotes/trader/mf-manifest.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(manifest.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(manifest.rawPayload).toString())).toEqual({ name: 'trader' });
  });

  it('answers 404 in the API envelope for missing files and API paths', async () => {
    for (const url of ['/remotes/trader/missing.js', '/assets/missing.js', '/api/nope']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
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
  const manifestDir = tempDir('pfp-m-');
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
    const file = path.join(manifestDir, 'remotes.json');
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

describe('the start-up log about the app builds', () => {
  const said = (appsDir: string | null, env: NodeJS.ProcessEnv) => {
    const lines: string[] = [];
    logAppsSetting(
      { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) } as never,
      appsDir,
      env,
    );
    return lines;
  };

  it('names the directory it serves', () => {
    expect(said('/srv/apps', { APPS_DIR: '/srv/apps' })).toEqual(['info serving the app builds from /srv/apps']);
  });

  it("says API only, without a warning, when APPS_DIR='' switched the apps off on purpose", () => {
    const lines = said(null, { APPS_DIR: '' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info .*API only/);
    expect(lines[0]).not.toMatch(/pnpm build/);
  });

  it('warns when no builds were found where they are looked for by default', () => {
    expect(said(null, {})).toEqual(['warn no app builds found: run `pnpm build` to serve the apps']);
  });
});
