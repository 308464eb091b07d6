import { expect, test, type Page } from '@playwright/test';

/**
 * The trader console signs in first. Holding its configuration request keeps the page on the
 * console's 正在验证身份... overlay, inside the shell, instead of leaving for the provider.
 */
const holdTraderSignIn = (page: Page) => page.route('**/api/config', () => {});

test.describe('host shell', () => {
  test('each route loads its own remote', async ({ page }) => {
    const entries: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/remoteEntry.js')) entries.push(new URL(r.url()).pathname);
    });

    await holdTraderSignIn(page);
    await page.goto('/trader');
    await expect(page.getByText('正在验证身份...')).toBeVisible();

    await page.goto('/pricer/1');
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();

    await page.goto('/volatility-surface');
    await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toBeVisible();

    expect(entries).toEqual([
      '/remotes/trader/remoteEntry.js',
      '/remotes/pricer/remoteEntry.js',
      '/remotes/volatility/remoteEntry.js',
    ]);
  });

  test('unknown paths show the 404 page with the path', async ({ page }) => {
    await page.goto('/nope/deeper?x=1');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '页面未找到' })).toBeVisible();
    await expect(page.getByTestId('not-found-path')).toHaveText('/nope/deeper');
    for (const cause of ['网址输入错误', '页面已被移动或删除', '链接已过期', '您没有访问权限']) {
      await expect(page.getByText(cause)).toBeVisible();
    }
    // 返回首页 reaches a page that exists (issue 29: /main was a 404 itself): the console, not a 404.
    await page.getByRole('button', { name: '返回首页' }).click();
    // Not signed in: the console sends the trader to its sign-in page.
    await expect(page.getByRole('heading', { name: '贸易商登录' })).toBeVisible();
    await expect(page).not.toHaveURL(/\/main$/);
    await expect(page.getByRole('heading', { name: '404' })).toHaveCount(0);
    await expect(page.getByText('页面未找到')).toHaveCount(0);
  });

  test('返回上一页 goes back', async ({ page }) => {
    await page.goto('/pricer/1/login');
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
    await page.goto('/missing-page');
    await page.getByRole('button', { name: '返回上一页' }).click();
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
  });

  test('titles follow the app', async ({ page }) => {
    await holdTraderSignIn(page);
    for (const [path, title] of [
      ['/trader/dashboard', '快期点价宝'],
      ['/pricer/1/login', '快期点价宝'],
      ['/volatility-surface', '期权波动率曲线'],
      ['/unknown', '快期点价宝'],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
    // Client-side navigation updates it too.
    await page.goto('/volatility-surface');
    await expect(page).toHaveTitle('期权波动率曲线');
    await page.evaluate(() => history.back());
    await expect(page).toHaveTitle('快期点价宝');
  });

  test('layout classes follow the route', async ({ page }) => {
    await holdTraderSignIn(page);
    const layout = page.getByTestId('app-layout');
    for (const [path, cls] of [
      ['/trader/dashboard', 'trader-layout'],
      ['/volatility-surface', 'volatility-layout'],
      ['/pricer/1/login', 'pricer-layout'],
      ['/pricer', 'default-layout'],
      ['/nope', 'default-layout'],
    ] as const) {
      await page.goto(path);
      await expect(layout).toHaveClass(new RegExp(`\\b${cls}\\b`));
    }
  });

  test('screen-size classes follow the viewport width, live on resize', async ({ page }) => {
    await page.goto('/nope');
    const layout = page.getByTestId('app-layout');
    for (const [width, cls] of [
      [599, 'screen-x-small'],
      [600, 'screen-small'],
      [959, 'screen-small'],
      [960, 'screen-medium'],
      [1279, 'screen-medium'],
      [1280, 'screen-large'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect(layout).toHaveClass(new RegExp(`\\b${cls}\\b`));
    }
  });

  test('?theme=dark switches the colour scheme, light by default', async ({ page }) => {
    await page.goto('/nope');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.goto('/nope?theme=dark');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(255, 255, 255)');
  });

  test('the shared singletons load once for all remotes', async ({ page }) => {
    await holdTraderSignIn(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/pricer/1/login');
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
    // Client-side navigation into the other remotes, in the same page.
    const go = (path: string) =>
      page.evaluate((p) => {
        history.pushState({}, '', p);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    await go('/volatility-surface');
    await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toBeVisible();
    await go('/trader/dashboard');
    await expect(page.getByText('正在验证身份...')).toBeVisible();
    for (const r of ['trader', 'pricer', 'volatility']) expect(scripts).toContain(`/remotes/${r}/remoteEntry.js`);
    // react-dom's, Mantine's and the router's chunks come from exactly one build (the host's), and no
    // remote fetched its own fallback copy of a shared library (Mantine's and the router's are the
    // @pfp/mantine and @pfp/router subsets).
    for (const chunk of [/react_mf_2_dom_mf_1_client/, /\/mantine-[\w-]+\.js$/, /\/router-[\w-]+\.js$/]) {
      const loaded = scripts.filter((s) => chunk.test(s));
      expect(loaded, `${chunk}: ${loaded.join(', ')}`).toHaveLength(1);
      expect(loaded[0]).toMatch(/^\/assets\//); // the host's build
    }
    expect(scripts.filter((s) => s.startsWith('/remotes/') && s.includes('__prebuild__'))).toEqual([]);
  });
});

test.describe('remote load failures', () => {
  test('a remote that fails to load reloads the page once, then shows the error screen', async ({ page }) => {
    let navigations = 0;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations++;
    });
    await page.route('**/remotes/pricer/remoteEntry.js', (route) => route.abort());
    await page.goto('/pricer/1/login');
    await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
    expect(navigations).toBe(2);
    // The marker is cleared, so a later deploy problem gets its one reload again.
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});

test.describe('toasts', () => {
  test('bottom-right, at most 3 visible', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.clock.install();
    // A company without demo prefill: an empty form, so every click warns.
    await page.goto('/pricer/999/login');
    const login = page.getByRole('button', { name: '登录' });
    await expect(login).toBeVisible();
    // The page's clock stands still: none of the five 3 s warnings can expire on its own, so what
    // is left is the limit's doing however slowly this machine clicks.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
    for (let i = 0; i < 5; i++) await login.click();
    // Shown, not leaving (a dismissed toast fades for a second before it is removed).
    const toasts = page.locator('[data-toast="shown"]').getByRole('status').filter({ hasText: '请填写所有必填字段' });
    await expect(toasts).toHaveCount(3);
    const box = (await toasts.first().boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(1280 - 120);
    expect(box.y + box.height).toBeGreaterThan(800 - 200);
  });
});
