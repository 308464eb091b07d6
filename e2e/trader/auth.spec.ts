import { expect, test, type Page, type Request } from '@playwright/test';
import { accessToken, demoTrader, LOGIN_PAGE, screenshot, signInThroughPages, toast } from './support';

const AUTHORIZE = '/realms/pfp/protocol/openid-connect/auth';
const TOKEN = '/realms/pfp/protocol/openid-connect/token';

/** Authorize requests and token grants the page makes (a tampered response must not be exchanged). */
function recordProvider(page: Page) {
  const authorize: URL[] = [];
  const grants: { type: string; status: number }[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (url.pathname === AUTHORIZE) authorize.push(url);
  });
  page.on('response', (r) => {
    const req = r.request();
    if (new URL(r.url()).pathname !== TOKEN || req.method() !== 'POST') return;
    grants.push({ type: new URLSearchParams(req.postData() ?? '').get('grant_type') ?? '', status: r.status() });
  });
  return { authorize, grants };
}

test.describe('trader sign-in', () => {
  test('goes through the provider: wrong password refused, then back on the console, signed in after reload', async ({
    page,
  }) => {
    const provider = recordProvider(page);
    await page.goto('/trader');
    await expect(page).toHaveURL(LOGIN_PAGE);

    // SPEC §7: code flow, PKCE S256, fragment response, scope openid, state and nonce.
    const auth = provider.authorize[0]!;
    expect(auth.searchParams.get('client_id')).toBe('shinny_web');
    expect(auth.searchParams.get('redirect_uri')).toMatch(/\/trader$/);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('response_mode')).toBe('fragment');
    expect(auth.searchParams.get('scope')).toBe('openid');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Fresh random values each sign-in (32 base64url characters here).
    expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{32}$/);

    await page.locator('#username').fill(demoTrader.username);
    await page.locator('#password').fill('wrong-password');
    await page.locator('button[type=submit]').click();
    await expect(page.getByText('用户名或密码错误')).toBeVisible();
    await expect(page).toHaveURL(LOGIN_PAGE);

    await page.locator('#password').fill(demoTrader.password);
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await expect(page.getByTestId('trader-name')).toHaveText(demoTrader.name);
    await expect(page.getByTestId('page-title')).toHaveText('仪表盘');
    // The code and state were taken out of the address bar.
    expect(new URL(page.url()).hash).toBe('');
    expect(provider.grants).toEqual([{ type: 'authorization_code', status: 200 }]);

    await page.reload();
    await expect(page.getByTestId('trader-name')).toHaveText(demoTrader.name);
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    expect(provider.authorize).toHaveLength(1);
  });

  test('returns to the page the trader asked for', async ({ page }) => {
    await signInThroughPages(
      page,
      demoTrader,
      '/trader/contracts?from=bookmark',
      /\/trader\/contracts\?from=bookmark$/,
    );
    await expect(page.getByTestId('page-title')).toHaveText('合同管理');
  });

  test('?theme=dark survives the sign-in round trip', async ({ page }, testInfo) => {
    await page.goto('/trader?theme=dark');
    await expect(page).toHaveURL(LOGIN_PAGE);
    await page.locator('#username').fill(demoTrader.username);
    await page.locator('#password').fill(demoTrader.password);
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/trader\/dashboard\?theme=dark$/);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    // In-app navigation keeps it.
    await page.getByRole('link', { name: '合同管理' }).click();
    await expect(page).toHaveURL(/\/trader\/contracts$/);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await screenshot(page, testInfo, 'contracts-dark-1280');
  });

  test('the 45 s token is refreshed silently and calls keep working', async ({ page }) => {
    // 50 s of it is the token's real lifetime (the server's clock decides); the rest is a bound for
    // a loaded machine, not a budget.
    test.setTimeout(240_000);
    const provider = recordProvider(page);
    const unauthorized: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) unauthorized.push(r.url());
    });
    await signInThroughPages(page, demoTrader);
    const first = await accessToken(page);

    // Past the first token's expiry (OIDC_ACCESS_TOKEN_TTL=45 in the e2e server). Real time on
    // purpose: the server must have stopped accepting the first token by the time the page calls.
    await page.waitForTimeout(50_000);

    await page.getByTestId('dashboard-refresh').click();
    await expect(toast(page, '数据已刷新')).toBeVisible();
    await page.getByRole('link', { name: '合同管理' }).click();
    await expect(page.getByRole('table', { name: '合同列表' })).toContainText('铜2701-pricer1');

    expect(await accessToken(page)).not.toBe(first);
    const refreshes = provider.grants.filter((g) => g.type === 'refresh_token');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.every((g) => g.status === 200)).toBe(true);
    expect(unauthorized).toEqual([]);
    // Never a second login.
    expect(provider.authorize).toHaveLength(1);
  });

  test('sign-out clears the session and lands on the provider login page', async ({ page }) => {
    await signInThroughPages(page, demoTrader);
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(LOGIN_PAGE);
    await expect(page.locator('#username')).toBeVisible();
    const stored = await page.evaluate(() =>
      Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i)).filter((k) =>
        k?.startsWith('oidc.user:'),
      ),
    );
    expect(stored).toEqual([]);
    // The provider session ended too: the console asks for the password again.
    await page.goto('/trader/pricers');
    await expect(page).toHaveURL(LOGIN_PAGE);
  });

  test('a tampered state in the callback URL is refused and leads to a fresh login', async ({ page }) => {
    const provider = recordProvider(page);
    await page.goto('/trader');
    await expect(page).toHaveURL(LOGIN_PAGE);
    // Hold the provider's redirect back to the console on a blank page, to edit its fragment.
    await page.route('**/trader', (route) =>
      route.request().isNavigationRequest()
        ? route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>held</title>' })
        : route.continue(),
    );
    await page.locator('#username').fill(demoTrader.username);
    await page.locator('#password').fill(demoTrader.password);
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/trader#.*state=/);
    const tampered = page.url().replace(/([#&]state=)[^&]+/, '$1forged-state');
    expect(tampered).toContain('state=forged-state');
    await page.unroute('**/trader');
    await page.goto('about:blank');
    await page.goto(tampered);

    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await expect(page.getByTestId('trader-name')).toHaveText(demoTrader.name);
    // Refused before any code exchange; the fresh login (provider session still open) completed.
    expect(provider.authorize).toHaveLength(2);
    expect(provider.grants).toEqual([{ type: 'authorization_code', status: 200 }]);
  });

  test('a tampered nonce in the stored state is refused and leads to a fresh login', async ({ page }) => {
    const provider = recordProvider(page);
    await page.goto('/trader');
    await expect(page).toHaveURL(LOGIN_PAGE);
    // The login page is on the same origin: edit the pending sign-in oidc-client-ts keeps in localStorage.
    const edited = await page.evaluate(() => {
      const keys = Object.keys(localStorage).filter((k) => k.startsWith('oidc.'));
      for (const key of keys) {
        const state = JSON.parse(localStorage.getItem(key) ?? '{}') as { nonce?: string };
        state.nonce = 'forged-nonce';
        localStorage.setItem(key, JSON.stringify(state));
      }
      return keys.length;
    });
    expect(edited).toBe(1);
    await page.locator('#username').fill(demoTrader.username);
    await page.locator('#password').fill(demoTrader.password);
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await expect(page.getByTestId('trader-name')).toHaveText(demoTrader.name);
    // The first code was exchanged but its id token's nonce did not match: refused, signed in again.
    expect(provider.authorize).toHaveLength(2);
    expect(provider.grants.map((g) => g.type)).toEqual(['authorization_code', 'authorization_code']);
  });

  test('a malformed stored token is refused and replaced by a fresh sign-in', async ({ page }) => {
    const provider = recordProvider(page);
    await signInThroughPages(page, demoTrader, '/trader/pricers', /\/trader\/pricers$/);
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
      const user = JSON.parse(sessionStorage.getItem(key)!) as { access_token: string };
      user.access_token = 'not.a-token';
      sessionStorage.setItem(key, JSON.stringify(user));
    });
    await page.reload();
    await expect(page).toHaveURL(/\/trader\/pricers$/);
    await expect(page.getByTestId('trader-name')).toHaveText(demoTrader.name);
    expect(await accessToken(page)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(provider.authorize).toHaveLength(2);
  });
});
