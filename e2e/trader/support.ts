import {
  expect,
  test,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type Page,
  type TestInfo,
} from '@playwright/test';
import { axeViolations } from '../common/a11y';
import { post, type PricerSession } from '../common/api';
import { storeOnNextLoad } from '../common/storage';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { firstTimeTrader } from '../playwright.config';
export { accessToken, pricerLogin, traderCall, type PricerSession } from '../common/api';

export const demoTrader = { username: 'trader', password: 'trader123', name: '演示贸易商' };

const screenshotsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

/** The provider's sign-in page (Keycloak's URL layout, embedded provider). */
export const LOGIN_PAGE = /\/realms\/pfp\/login-actions\//;

/**
 * Signs in through the pages: opens `path`, which sends the browser to the provider; signs in there and waits to be
 * back in the console. What the sign-in tests themselves do (auth.spec.ts).
 */
export async function signInThroughPages(
  page: Page,
  user: { username: string; password: string },
  path = '/trader',
  back: RegExp = /\/trader\/dashboard$/,
) {
  await page.goto(path);
  await expect(page).toHaveURL(LOGIN_PAGE);
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(back);
}

/**
 * Signs in as the console does — the provider's code flow with PKCE, its login form posted with the password, the
 * code exchanged — over HTTP in the page's own cookie jar, then opens `path` with the session where oidc-client-ts
 * keeps it (the tab's sessionStorage) and waits for `back`. Each call is a new grant of the real provider; the pages'
 * own sign-in is auth.spec.ts's subject. Through the pages it cost two loads of the console and the login page per
 * test (docs/testing.md).
 */
export async function signIn(
  page: Page,
  user: { username: string; password: string },
  path = '/trader',
  back: RegExp = /\/trader\/dashboard$/,
) {
  const origin = new URL(test.info().project.use.baseURL ?? '').origin;
  const http = page.request;
  const { oidc } = await json<{ data: { oidc: { authority: string; client_id: string } } }>(
    http.get('/api/config'),
  ).then((c) => c.data);
  const discovery = await json<{ authorization_endpoint: string; token_endpoint: string }>(
    http.get(`${oidc.authority}/.well-known/openid-configuration`),
  );
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${origin}/trader`;
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: oidc.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid',
    state: randomBytes(16).toString('hex'),
    nonce: randomBytes(16).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const login = await http.get(authorize.href);
  const action = /<form[^>]*action="([^"]+)"/.exec(await login.text())?.[1]?.replaceAll('&amp;', '&');
  if (!login.ok() || !action) throw new Error(`no login form at ${login.url()}: ${login.status()}`);
  let res = await http.post(new URL(action, login.url()).href, {
    form: { username: user.username, password: user.password },
    maxRedirects: 0,
  });
  // The provider's redirects, up to the console's address with the code in its fragment.
  let next = res.headers()['location'];
  for (let hops = 0; next && !next.startsWith(redirectUri) && hops < 5; hops++) {
    res = await http.get(new URL(next, res.url()).href, { maxRedirects: 0 });
    next = res.headers()['location'];
  }
  const code = new URLSearchParams(new URL(next ?? '', origin).hash.slice(1)).get('code');
  if (!code) throw new Error(`sign-in as ${user.username} ended without a code: ${res.status()} ${next}`);
  const tokens = await json<{ access_token: string; id_token: string; refresh_token: string; expires_in: number }>(
    http.post(discovery.token_endpoint, {
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: oidc.client_id,
      },
    }),
  );
  // oidc-client-ts's stored User (WebStorageStateStore, key `oidc.user:<authority>:<client_id>`).
  const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
  for (const protocol of ['nonce', 'at_hash', 'iat', 'nbf', 'exp', 'aud', 'iss', 'c_hash']) delete claims[protocol];
  const stored = JSON.stringify({
    id_token: tokens.id_token,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    token_type: 'Bearer',
    scope: 'openid',
    profile: claims,
    expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
  });
  await storeOnNextLoad(page, 'session', { [`oidc.user:${oidc.authority}:${oidc.client_id}`]: stored });
  await page.goto(path);
  // Room for a loaded machine: the console's first load and its profile's answer.
  await expect(page).toHaveURL(back, { timeout: 30_000 });
}

/**
 * A browser of its own at `size` (a new context: its own storage), signed in as `user` (signIn) and open at `path`:
 * the role tests' members, each in theirs.
 */
export async function signedInBrowser(
  browser: Browser,
  size: { width: number; height: number },
  user: { username: string; password: string },
  path = '/trader/dashboard',
) {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
  const page = await context.newPage();
  const landed = new RegExp(`${path.replace(/[.*+?^$()|[\]{}\\/]/g, '\\$&')}$`); // exactly `path`
  await signIn(page, user, path, landed);
  return page;
}

async function json<T>(response: Promise<APIResponse>): Promise<T> {
  const res = await response;
  if (!res.ok()) throw new Error(`${res.url()}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface SnapshotContract {
  id: number;
  instrument_id: string;
  price_tick: number;
  remaining_quantity: number;
  status: string;
}

export async function pricerSnapshot(request: APIRequestContext, session: PricerSession) {
  return post<{ contracts: SnapshotContract[]; market_data: Record<string, { last_price: number | null }> }>(
    request,
    '/api/pricer/view/my-data-snapshot',
    {},
    session.token,
  );
}

/**
 * A BUY limit price 3 % under the market, on the tick grid: it rests at the simulated broker
 * (inside the daily limits) instead of filling, so the tests never depend on fills.
 */
export async function restingBuyPrice(request: APIRequestContext, session: PricerSession, contractId: number) {
  const snapshot = await pricerSnapshot(request, session);
  const contract = snapshot.contracts.find((c) => c.id === contractId);
  if (!contract) throw new Error(`contract ${contractId} not in the snapshot`);
  const last = snapshot.market_data[contract.instrument_id]?.last_price;
  if (!last) throw new Error(`no market price for ${contract.instrument_id}`);
  const tick = contract.price_tick;
  return Math.round(Math.floor((last * 0.97) / tick) * tick * 1e6) / 1e6;
}

export async function submitOrder(
  request: APIRequestContext,
  session: PricerSession,
  order: { contract_id: number; quantity: number; price: number },
) {
  return post<{ id: number; status: string }>(request, '/api/pricer/rpc/submit-order', order, session.token);
}

/** Saves a screenshot artefact as e2e/artifacts/screenshots/trader-<name>.png (and attaches it). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `trader-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string) {
  const violations = await axeViolations(page);
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify(violations, null, 2),
    contentType: 'application/json',
  });
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad, `${name}: serious/critical axe violations`).toEqual([]);
}

/** A toast of the page's one toaster. */
export const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
