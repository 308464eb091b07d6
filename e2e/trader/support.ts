import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { post, type PricerSession } from '../common/api';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { firstTimeTrader } from '../playwright.config';
export { accessToken, pricerLogin, traderCall, type PricerSession } from '../common/api';

export const demoTrader = { username: 'trader', password: 'trader123', name: '演示贸易商' };

const screenshotsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

/** The provider's sign-in page (Keycloak's URL layout, embedded provider). */
export const LOGIN_PAGE = /\/realms\/pfp\/login-actions\//;

/** Opens `path`, which sends the browser to the provider; signs in there and waits to be back in the console. */
export async function signIn(
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
  // A toast on its way out fades for a second (packages/ui SwipeToDismiss): its colours mid-fade are no one's reading.
  const result = await new AxeBuilder({ page }).exclude('[data-toast="leaving"]').analyze();
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify(result.violations, null, 2),
    contentType: 'application/json',
  });
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad, `${name}: serious/critical axe violations`).toEqual([]);
}

/** A toast of the page's one toaster. */
export const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
