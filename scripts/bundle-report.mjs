#!/usr/bin/env node
// Bundle report (pnpm bench): each app's JavaScript, gzipped, on disk and as a browser really loads
// it; what a cold load transfers (every response as the server sends it, brotli when the browser
// accepts it) beside its uncompressed size; and proof that the shared singletons are fetched once
// per page, not once per remote.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { CHROMIUM_LAUNCH } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'e2e/package.json'));
const { chromium } = require('@playwright/test');
const APPS = ['host', 'trader', 'pricer', 'volatility'];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => f.endsWith('.js') && statSync(f).isFile());
}

console.log('\n== JavaScript per app build (all chunks, gzip -9)');
for (const app of APPS) {
  const files = jsFiles(path.join(root, 'apps', app, 'dist'));
  const raw = files.reduce((s, f) => s + statSync(f).size, 0);
  const zipped = files.reduce((s, f) => s + gz(f), 0);
  console.log(
    `${app.padEnd(11)} ${String(files.length).padStart(3)} files  ${kb(raw).padStart(10)} raw  ${kb(zipped).padStart(9)} gzip`,
  );
}

// Map a served URL back to the file that answered it.
function fileFor(url) {
  const { pathname } = new URL(url);
  const m = pathname.match(/^\/remotes\/(\w+)\/(.*)$/);
  return m ? path.join(root, 'apps', m[1], 'dist', m[2]) : path.join(root, 'apps/host/dist', pathname);
}

const port = Number(process.env.BUNDLE_REPORT_PORT ?? 8097);
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pfp-bundle-')),
  },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 600) {
    server.kill();
    throw new Error('server did not start within 60 s');
  }
  await new Promise((r) => setTimeout(r, 100));
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);

async function load(page, pathName, scripts) {
  await page.goto(base + pathName, { waitUntil: 'networkidle' });
  return scripts;
}

const coldLoads = [];

try {
  console.log('\n== First load of each app in a fresh browser (host + remote + shared, gzip -9)');
  // The volatility chart (echarts) is its own chunk, fetched once a future is chosen: the second
  // volatility line is a first load with the future preselected in the address.
  for (const [name, url] of [
    ['trader', '/trader/dashboard'],
    ['pricer', '/pricer/1/login'],
    ['volatility', '/volatility-surface'],
    ['volatility+chart', '/volatility-surface?exchange=SHFE&product=cu&future=SHFE.cu2702'],
  ]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = new Set();
    // Every response of the cold load: bytes on the wire (headers + encoded body) and decoded.
    const responses = [];
    page.on('requestfinished', (r) => {
      if (r.resourceType() === 'script') scripts.add(r.url());
      responses.push(
        Promise.all([r.sizes(), r.response().then((res) => res?.body().catch(() => null))]).then(([sizes, body]) => ({
          wire: sizes.responseHeadersSize + sizes.responseBodySize,
          raw: body?.length ?? 0, // redirects have no body
        })),
      );
    });
    await load(page, url, scripts);
    if (url.includes('future=')) await page.locator('canvas').first().waitFor();
    await page.waitForLoadState('networkidle');
    const total = [...scripts].reduce((s, u) => s + gz(fileFor(u)), 0);
    const goal = name === 'volatility' ? `  (goal ≤ 350 KB: ${total <= 350 * 1024 ? 'met' : 'MISSED'})` : '';
    console.log(`${name.padEnd(16)} ${String(scripts.size).padStart(3)} scripts  ${kb(total).padStart(9)} gzip${goal}`);
    const sizes = await Promise.all(responses);
    coldLoads.push({
      name,
      requests: sizes.length,
      wire: sizes.reduce((s, x) => s + x.wire, 0),
      raw: sizes.reduce((s, x) => s + x.raw, 0),
    });
    await context.close();
  }

  console.log('\n== Cold load: what the browser downloads (every response, headers included) vs uncompressed');
  for (const { name, requests, wire, raw } of coldLoads) {
    console.log(
      `${name.padEnd(16)} ${String(requests).padStart(3)} requests  ${kb(wire).padStart(10)} transferred  ${kb(raw).padStart(10)} uncompressed`,
    );
  }

  console.log('\n== Shared singletons across all three remotes in one page');
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = [];
  page.on('requestfinished', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  await load(page, '/trader/dashboard', scripts);
  for (const to of ['/pricer/1/login', '/volatility-surface']) {
    await page.evaluate((p) => {
      history.pushState({}, '', p);
      dispatchEvent(new PopStateEvent('popstate'));
    }, to);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
  }
  // How each singleton's chunk is named (the workspace subsets @pfp/mantine and @pfp/router by their file names).
  const SINGLETONS = {
    'react-dom': /react_mf_2_dom_mf_1_client/,
    '@pfp/router': /\/router-[\w-]+\.js$/,
    '@pfp/mantine': /\/mantine-[\w-]+\.js$/,
    '@tanstack/react-query': /tanstack_mf_1_react_mf_2_query/,
    'react-hot-toast': /react_mf_2_hot_mf_2_toast/,
  };
  let ok = true;
  for (const [lib, marker] of Object.entries(SINGLETONS)) {
    const loaded = scripts.filter((s) => marker.test(s));
    const owners = [...new Set(loaded.map((s) => (s.startsWith('/remotes/') ? s.split('/')[2] : 'host')))];
    if (loaded.length > 1) ok = false;
    console.log(`${lib.padEnd(22)} fetched ${loaded.length}× (from ${owners.join(', ') || '—'})`);
  }
  // A remote's own fallback copy of a shared library is a `prebuild` chunk under /remotes/.
  const fallbacks = scripts.filter(
    (s) =>
      s.startsWith('/remotes/') && (s.includes('__prebuild__') || Object.values(SINGLETONS).some((m) => m.test(s))),
  );
  console.log(`remote fallback copies of shared libraries fetched: ${fallbacks.length}`);
  if (fallbacks.length > 0) ok = false;
  console.log(ok ? 'every singleton fetched once per page, by the host' : 'A SINGLETON WAS FETCHED MORE THAN ONCE');
  await context.close();
  if (!ok) process.exitCode = 1;
} finally {
  await browser.close();
  server.kill();
}
