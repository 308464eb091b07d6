/**
 * The compose stack used as people use it, through its gateway only (scripts/docker-smoke.sh).
 *
 *   node use.mjs wait     <base>                     the gateway answers /api/health
 *   node use.mjs pages    <base>                     pages, remote entries, the manifest, 404s
 *   node use.mjs customer <base> <state.json>        a demo customer signs in, a market fix fills
 *   node use.mjs curve    <base>                     the WebSocket view streams a volatility curve
 *   node use.mjs trader   <base> <state.json> [mark] a trader signs in in chromium (and the console
 *                                                    logs `mark`: the redeployed trader build)
 *   node use.mjs survived <base> <customer.json> <trader.json>   both sessions and the order still there
 *   node use.mjs fixes    <base> <customer.json> <n> <progress file>   n fixes, retried as the desk does
 *
 * Runs on the repo's Node (24: fetch, WebSocket); Playwright comes from the e2e package and drives
 * Debian's chromium (CHROMIUM_PATH), never a downloaded browser. Any failure exits non-zero.
 */
import { randomBytes } from 'node:crypto';
import { apiCaller, check, sleep, waitFor } from './api.mjs';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CHROMIUM_LAUNCH } from '../chromium.mjs';

const [command, base, ...rest] = process.argv.slice(2);
if (!command || !base) throw new Error('usage: use.mjs <command> <base url> …');

async function get(path, headers = {}) {
  const res = await fetch(base + path, { headers, redirect: 'manual' });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

const call = apiCaller(base);

async function wait() {
  await waitFor(
    'the gateway answers /api/health',
    async () => (await get('/api/health')).text.includes('"ok"'),
    90_000,
  );
  console.log('  /api/health ok through the gateway');
}

async function pages() {
  for (const path of ['/', '/trader', '/pricer/1', '/volatility-surface']) {
    const r = await get(path, { accept: 'text/html' });
    check(
      r.status === 200 && r.type.startsWith('text/html') && r.text.includes('<div id="root"'),
      `${path}: ${r.status} ${r.type}`,
    );
    console.log(`  ${path} → 200 the host page`);
  }
  const manifest = JSON.parse((await get('/remotes.json')).text);
  for (const name of ['trader', 'pricer', 'volatility']) {
    const entry = manifest[name];
    check(typeof entry === 'string', `/remotes.json has no ${name}: ${JSON.stringify(manifest)}`);
    const r = await get(entry, { 'accept-encoding': 'gzip' });
    check(r.status === 200 && /javascript/.test(r.type), `${entry}: ${r.status} ${r.type}`);
    check(r.headers.get('cache-control') === 'no-cache', `${entry}: cache-control ${r.headers.get('cache-control')}`);
    const chunk = /["'](\.?\/?[\w/.-]*assets\/[\w.-]+\.js)["']/.exec(r.text)?.[1];
    if (chunk) {
      const url = new URL(chunk, new URL(entry, base)).pathname;
      const c = await get(url);
      check(c.status === 200 && /immutable/.test(c.headers.get('cache-control') ?? ''), `${url}: ${c.status}`);
    }
    console.log(`  ${entry} → 200 (${r.text.length} bytes, ${r.headers.get('content-encoding') ?? 'identity'})`);
  }
  for (const path of [
    '/nope.js',
    '/assets/nope.js',
    '/remotes/trader/nope.js',
    '/remotes/nope/remoteEntry.js',
    '/api/nope',
  ]) {
    const r = await get(path);
    check(r.status === 404 && !r.type.startsWith('text/html'), `${path}: ${r.status} ${r.type}, not a 404`);
    console.log(`  ${path} → 404 ${r.type.split(';')[0]}`);
  }
  const discovery = JSON.parse((await get('/realms/pfp/.well-known/openid-configuration')).text);
  check(discovery.issuer === `${base}/realms/pfp`, `issuer ${discovery.issuer}`);
  console.log(`  the provider's discovery: issuer ${discovery.issuer}`);
}

async function customerLogin() {
  const data = await call('/api/pricer/rpc/pricer-login', { tenant_id: 1, username: 'pricer1', password: 'pricer123' });
  return data.jwt_token;
}

async function orderById(token, id) {
  const { items } = await call(
    '/api/pricer/view/my-orders',
    { slice_start: 0, slice_end: 10, filter: `id = ${id}` },
    token,
  );
  return items[0];
}

async function customer() {
  const [file] = rest;
  const token = await customerLogin();
  const snapshot = await call('/api/pricer/view/my-data-snapshot', {}, token);
  // The contract with the most lots left takes this fix and the 100 of the replica test.
  const contract = [...snapshot.contracts].sort((a, b) => b.remaining_quantity - a.remaining_quantity)[0];
  check(
    contract && contract.remaining_quantity > 101,
    `no contract with lots left: ${JSON.stringify(snapshot.contracts)}`,
  );
  console.log(
    `  pricer1 signed in; contract ${contract.id} ${contract.instrument_id}, ${contract.remaining_quantity} lots left`,
  );
  const order = await call(
    '/api/pricer/rpc/submit-order',
    {
      contract_id: contract.id,
      quantity: 1,
      price: 0,
      client_order_id: `smoke-first-${randomBytes(8).toString('hex')}`,
    },
    token,
  );
  const filled = await waitFor(
    `order ${order.id} fills`,
    async () => {
      const o = await orderById(token, order.id);
      if (o && ['CANCELLED', 'REJECTED', 'ERROR'].includes(o.status))
        throw new Error(`order ${order.id}: ${JSON.stringify(o)}`);
      return o?.status === 'FINISHED' ? o : undefined;
    },
    30_000,
  );
  console.log(`  market fix ${order.id}: ${filled.status}, ${filled.volume_orign ?? 1} lot at ${filled.trade_price}`);
  writeFileSync(file, JSON.stringify({ token, contractId: contract.id, orderId: order.id }));
}

async function curve() {
  const list = (await (await fetch(`${base}/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1`)).json())
    .data;
  const future = list?.[1] ?? list?.[0];
  check(future, `future_list: ${JSON.stringify(list)}`);
  const url = `${base.replace(/^http/, 'ws')}/ws/volatility`;
  const ws = new WebSocket(url);
  const updates = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no streamed curve from ${url} in 30 s (${updates.length} updates)`)),
      30_000,
    );
    let peeks = 0;
    const peek = () => ws.send(JSON.stringify({ aid: 'peek_message', req_id: `p${++peeks}` }));
    ws.onerror = () => reject(new Error(`WebSocket ${url} failed`));
    ws.onopen = () =>
      ws.send(
        JSON.stringify({
          aid: 'subscribe_view',
          req_id: 's1',
          view_id: 'vol',
          view_name: 'volatility_curves',
          params: { items: ['CALL', 'PUT'].map((option_type) => ({ symbol: future, option_type, price_type: 'mid' })) },
        }),
      );
    ws.onmessage = (event) => {
      const msg = JSON.parse(String(event.data));
      if (msg.result !== 'ok') return reject(new Error(`${msg.aid}: ${String(event.data).slice(0, 300)}`));
      if (msg.aid === 'subscribe_view') return peek();
      if (msg.aid !== 'peek_message') return;
      const text = JSON.stringify(msg.data ?? '');
      // A curve: implied volatilities at strikes (numbers), more than a handful of them.
      if ((text.match(/\d+\.\d+/g) ?? []).length > 10) updates.push(text.length);
      if (updates.length >= 2) {
        clearTimeout(timer);
        resolve();
      } else peek();
    };
  });
  ws.close();
  console.log(
    `  ${future}: ${updates.length} curve updates streamed through the gateway (${updates.join(', ')} bytes)`,
  );
}

async function browser() {
  const require = createRequire(new URL('../../e2e/package.json', import.meta.url));
  const { chromium } = require('@playwright/test');
  return chromium.launch(CHROMIUM_LAUNCH);
}

// Generous: on a machine under load (a load average of 40-50 on 2 cores seen) chromium takes its time.
const SIGN_IN_MS = 90_000;

async function trader() {
  const [file, mark] = rest;
  const b = await browser();
  try {
    const page = await (await b.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
    const logged = [];
    const errors = [];
    page.on('console', (m) => logged.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/trader`, { timeout: SIGN_IN_MS });
    await page.waitForURL(/\/realms\/pfp\/login-actions\//, { timeout: SIGN_IN_MS });
    await page.locator('#username').fill('trader');
    await page.locator('#password').fill('trader123');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/trader\/dashboard$/, { timeout: SIGN_IN_MS });
    await page.getByRole('navigation').first().waitFor({ timeout: SIGN_IN_MS });
    const token = await page.evaluate(() => {
      for (let i = 0; i < sessionStorage.length; i++) {
        const key = sessionStorage.key(i) ?? '';
        if (key.startsWith('oidc.user:')) return JSON.parse(sessionStorage.getItem(key) ?? '{}').access_token;
      }
      return undefined;
    });
    check(token, 'no access token after the sign-in');
    const self = await call('/api/trader/view/my-self', {}, token);
    console.log(
      `  trader signed in through ${base}/realms/pfp; console at ${new URL(page.url()).pathname}; my-self: ${JSON.stringify(self).slice(0, 80)}`,
    );
    if (mark) {
      await waitFor(`the console logs ${mark}`, async () => logged.includes(mark), 15_000);
      console.log(`  the console loaded the redeployed trader build (it logged ${mark}), host unchanged`);
    }
    check(errors.length === 0, `page errors: ${errors.join(' | ')}`);
    writeFileSync(file, JSON.stringify({ token }));
  } finally {
    await b.close();
  }
}

async function survived() {
  const [customerFile, traderFile] = rest;
  const c = JSON.parse(readFileSync(customerFile, 'utf8'));
  const order = await orderById(c.token, c.orderId);
  check(order?.status === 'FINISHED', `order ${c.orderId} after the recreate: ${JSON.stringify(order)}`);
  console.log(`  the customer's session still valid; order ${c.orderId} still ${order.status}`);
  const t = JSON.parse(readFileSync(traderFile, 'utf8'));
  await call('/api/trader/view/my-self', {}, t.token);
  console.log("  the trader's access token still accepted (the provider's keys live in the database)");
}

/**
 * n market fixes, 4 in flight, each with its own client_order_id and retried with the same one on
 * no answer, a timeout or a 5xx (the desk's SubmitIntent), until it is answered.
 */
async function fixes() {
  const [customerFile, nText, progressFile] = rest;
  const n = Number(nText);
  const { token, contractId } = JSON.parse(readFileSync(customerFile, 'utf8'));
  const run = randomBytes(6).toString('hex');
  let answered = 0;
  let retries = 0;
  const ids = new Set();
  const submitOne = async (i) => {
    const body = { contract_id: contractId, quantity: 1, price: 0, client_order_id: `smoke100-${run}-${i}` };
    for (let attempt = 1; ; attempt++) {
      try {
        const controller = AbortSignal.timeout(10_000);
        const res = await fetch(`${base}/api/pricer/rpc/submit-order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
          signal: controller,
        });
        const text = await res.text();
        if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error(`HTTP ${res.status}`);
        const json = JSON.parse(text);
        if (json.result !== 'ok')
          throw Object.assign(new Error(`fix ${i}: HTTP ${res.status} ${text.slice(0, 200)}`), { final: true });
        ids.add(json.data.id);
        answered++;
        writeFileSync(`${progressFile}.tmp`, String(answered));
        renameSync(`${progressFile}.tmp`, progressFile); // never read half-written
        return;
      } catch (error) {
        if (error.final || attempt >= 30) throw error;
        retries++;
        await sleep(Math.min(200 * attempt, 2000));
      }
    }
  };
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < n) await submitOne(next++);
    }),
  );
  check(ids.size === n, `${n} fixes answered with ${ids.size} distinct order ids`);
  console.log(
    `  ${n} fixes answered in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${retries} retries, ${ids.size} distinct orders`,
  );
}

const commands = { wait, pages, customer, curve, trader, survived, fixes };
check(commands[command], `unknown command ${command}`);
await commands[command]();
