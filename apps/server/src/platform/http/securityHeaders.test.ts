import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { startHarness, type Harness } from '../../../test/harness';
import { tempDir } from '../../../test/tempDir';

/** Browser-side defence (issue 14 §6): a CSP without inline script and the usual headers on every app page. */
function appsDir() {
  const dir = tempDir('pfp-csp-');
  mkdirSync(path.join(dir, 'host/dist'), { recursive: true });
  writeFileSync(path.join(dir, 'host/dist/index.html'), '<!doctype html><title>host</title>');
  for (const r of ['trader', 'pricer', 'volatility']) {
    mkdirSync(path.join(dir, r, 'dist'), { recursive: true });
    writeFileSync(path.join(dir, r, 'dist/remoteEntry.js'), '');
  }
  return dir;
}

const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );

let h: Harness;
let app: Awaited<ReturnType<typeof buildApp>>;
const apps = appsDir();
beforeAll(async () => {
  h = await startHarness();
  app = await buildApp({
    ...h.ctx,
    config: {
      ...h.ctx.config,
      appsDir: apps,
      remotes: { ...h.ctx.config.remotes, volatility: 'https://cdn.example.com/vol/remoteEntry.js' },
    },
  });
});
afterAll(async () => {
  await app.close();
  await h.close();
});

describe('app pages', () => {
  it.each(['/', '/trader', '/trader/dashboard', '/pricer/1/login', '/volatility-surface', '/no-such-page'])(
    '%s carries the CSP and the usual headers',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      const csp = String(res.headers['content-security-policy'] ?? '');
      const d = directives(csp);
      expect(d['script-src'], csp).toEqual(["'self'", 'https://cdn.example.com']);
      expect(d['script-src-attr']).toEqual(["'none'"]);
      expect(d['object-src']).toEqual(["'none'"]);
      expect(d['base-uri']).toEqual(["'self'"]);
      expect(d['frame-ancestors']).toEqual(["'none'"]);
      expect(d['connect-src']).toEqual(
        expect.arrayContaining(["'self'", 'https://cdn.example.com', h.ctx.oidc.authority.replace(/\/realms.*$/, '')]),
      );
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    },
  );

  it("the host's page has no inline script (the CSP would block it)", () => {
    const source = readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../host/index.html'),
      'utf8',
    );
    const scripts = [...source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(source).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
  });
});
