import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseURL } from '../playwright.config';

/**
 * One address (issue 18 §8). The suites' server has PUBLIC_URL = baseURL (127.0.0.1);
 * localhost is another name of the same server.
 */
const other = baseURL.replace('127.0.0.1', 'localhost');
const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.describe('one address', () => {
  test('a page opened on another host name moves to PUBLIC_URL with its path and query', async ({ page }) => {
    const hops: string[] = [];
    page.on('response', (r) => {
      if (r.request().isNavigationRequest()) hops.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${other}/pricer/1/login?theme=dark`);
    await expect(page).toHaveURL(`${baseURL}/pricer/1/login?theme=dark`);
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(hops[0]).toBe(`302 ${other}/pricer/1/login?theme=dark`);
  });

  test('the trader signs in from another host name instead of meeting invalid_redirect_uri', async ({ page }) => {
    await page.goto(`${other}/trader`);
    await expect(page).toHaveURL(new RegExp(`^${escape(baseURL)}/realms/pfp/login-actions/`));
    await expect(page.getByText('invalid_redirect_uri')).toHaveCount(0);
    await page.locator('#username').fill('trader');
    await page.locator('#password').fill('trader123');
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(`${baseURL}/trader/dashboard`);
    await expect(page.getByTestId('page-title')).toHaveText('仪表盘');
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'host-one-address-trader.png') });
  });

  test('API calls, scripts and WebSocket answer on any host name', async ({ page, request }) => {
    const health = await request.get(`${other}/api/health`, { maxRedirects: 0 });
    expect(health.status()).toBe(200);
    const entry = await request.get(`${other}/remotes/trader/remoteEntry.js`, { maxRedirects: 0 });
    expect(entry.status()).toBe(200);
    const discovery = await request.get(`${other}/realms/pfp/.well-known/openid-configuration`, { maxRedirects: 0 });
    expect(discovery.status()).toBe(200);
    expect((await discovery.json()).issuer).toBe(`${baseURL}/realms/pfp`);

    // From a document of the other host (an API answer, which is not redirected): an app page's CSP
    // allows WebSockets to PUBLIC_URL's host only, as it should.
    await page.goto(`${other}/api/health`);
    const ws = `${other.replace('http', 'ws')}/ws/volatility`;
    const opened = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => {
            socket.close();
            resolve('open');
          };
          socket.onerror = () => resolve('error');
        }),
      ws,
    );
    expect(opened).toBe('open');
  });
});
