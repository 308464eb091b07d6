import { expect, test, type Page } from '@playwright/test';
import { apiSession, openSignedIn, PRICER, TENANT, toast } from './support';

test.describe('customer login', () => {
  test('signs in as pricer1 and returns to the page it came from', async ({ page }) => {
    await page.goto(`/pricer/${TENANT}/history`);
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
    await expect(page.getByTestId('company')).toContainText('公司代码：1');
    await expect(page.getByTestId('company-name')).toHaveText('演示贸易有限公司');

    await page.getByLabel('用户名').fill(PRICER.username);
    await page.getByLabel(/^密码/).fill(PRICER.password);
    await page.getByRole('button', { name: '登录' }).click();

    await expect(toast(page, '登录成功')).toBeVisible();
    await expect(page).toHaveURL(/\/pricer\/1\/history$/);
    await expect(page.getByTestId('company-title')).toHaveText('演示贸易有限公司');
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('pricer_token'),
      user: JSON.parse(localStorage.getItem('pricer_user_info') ?? 'null') as unknown,
    }));
    expect(stored.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.user).toMatchObject({ username: 'pricer1', tenant_id: 1, company_name: '演示贸易有限公司' });

    // The guarded index goes to the desk once signed in.
    await page.goto(`/pricer/${TENANT}`);
    await expect(page).toHaveURL(/\/pricer\/1\/dashboard$/);
    await expect(page.getByRole('link', { name: '交易台' })).toHaveAttribute('aria-current', 'page');
  });

  test('a wrong password is refused with 用户名或密码错误', async ({ page }) => {
    await page.goto(`/pricer/${TENANT}/login`);
    await page.getByLabel('用户名').fill(PRICER.username);
    await page.getByLabel(/^密码/).fill('wrong-password');
    const answer = page.waitForResponse('**/api/pricer/rpc/pricer-login');
    await page.getByRole('button', { name: '登录' }).click();
    expect((await answer).status()).toBe(401);
    await expect(toast(page, '用户名或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('pricer_token'))).toBeNull();
    // A wrong password is not an expired session.
    await expect(page.getByText('认证已过期，请重新登录')).toHaveCount(0);
  });

  test('an old login refusal does not linger beside the next answer', async ({ page }) => {
    await page.goto(`/pricer/${TENANT}/login`);
    await page.getByLabel('用户名').fill(PRICER.username);
    await page.getByLabel(/^密码/).fill('wrong-password');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '用户名或密码错误')).toBeVisible();
    // The next attempt, at once (well within the first toast's 3 s): its answer replaces the first.
    await page.getByLabel(/^密码/).fill('');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '请填写所有必填字段')).toBeVisible();
    // Counted now, not waited for: the old toast must be gone when the new one shows.
    expect(await page.getByRole('status').filter({ hasText: '用户名或密码错误' }).count()).toBe(0);
  });

  test('an unknown company code says 公司代码不存在', async ({ page }) => {
    await page.goto('/pricer/999/login');
    await expect(page.getByTestId('company-name')).toHaveText('公司代码不存在');
    await page.getByLabel('用户名').fill(PRICER.username);
    await page.getByLabel(/^密码/).fill(PRICER.password);
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '公司代码不存在')).toBeVisible();
    await expect(page).toHaveURL(/\/pricer\/999\/login$/);
  });

  test('missing inputs: errors after blur and a warning toast; a bad company code is invalid', async ({ page }) => {
    await page.goto(`/pricer/${TENANT}/login`);
    // The demo tenant's form comes prefilled with the demo pricer.
    await expect(page.getByLabel('用户名')).toHaveValue('pricer1');
    await page.getByLabel('用户名').fill('');
    await page.getByLabel('用户名').blur();
    await expect(page.getByText('请输入用户名')).toBeVisible();
    await expect(page.getByText('请输入密码')).toHaveCount(0);
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '请填写所有必填字段')).toBeVisible();
    await page.getByLabel('用户名').fill('pricer1');
    await expect(page.getByText('请输入用户名')).toHaveCount(0);

    await page.goto('/pricer/abc/login');
    await expect(page.getByTestId('company-name')).toHaveText('公司代码无效');
    await expect(page.getByLabel('用户名')).toHaveValue('');
    await page.getByLabel('用户名').fill('pricer1');
    await page.getByLabel(/^密码/).fill('pricer123');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '公司代码无效')).toBeVisible();
  });
  /** Holds GET /api/config (which turns the demo prefill on) until `answer`; `rendered` waits past its render. */
  async function holdConfig(page: Page) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/config', async (route) => {
      await held;
      await route.continue();
    });
    const config = page.waitForResponse('**/api/config');
    return async function answer() {
      release();
      await config;
      // Past the render of that answer: React Query hands it over on a timer, React renders by the next frames.
      await page.evaluate(
        () => new Promise((done) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 0)),
      );
    };
  }

  test('a prefill answered after the customer cleared the field does not sign in as the demo customer', async ({
    page,
  }) => {
    const answer = await holdConfig(page);
    await page.goto(`/pricer/${TENANT}/login`);
    await page.getByLabel('用户名').fill('');
    await answer();
    await page.getByRole('button', { name: '登录' }).click();
    await expect(toast(page, '请填写所有必填字段')).toBeVisible();
    await expect(page.getByLabel('用户名')).toHaveValue('');
    await expect(page.getByLabel(/^密码/)).toHaveValue('');
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
  });

  test('a prefill answered while the customer is in the field, before a key, leaves what they type whole', async ({
    page,
  }) => {
    // A slow phone: the customer taps 用户名 before the answer lands and types after it.
    const answer = await holdConfig(page);
    await page.goto(`/pricer/${TENANT}/login`);
    await page.getByLabel('用户名').click();
    await answer();
    await page.keyboard.type('zhou-1');
    await expect(page.getByLabel('用户名')).toHaveValue('zhou-1');
    await expect(page.getByLabel(/^密码/)).toHaveValue('');
  });
});

test.describe('customer session', () => {
  test('a reload keeps the session; logging out ends it', async ({ page, request }) => {
    await openSignedIn(page, await apiSession(request), `/pricer/${TENANT}/dashboard`);
    await expect(page.getByRole('heading', { name: '交易台' })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/pricer\/1\/dashboard$/);
    await expect(page.getByRole('heading', { name: '交易台' })).toBeVisible();
    await expect(page.getByTestId('company-title')).toHaveText('演示贸易有限公司');

    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('pricer_token'))).toBeNull();
    await expect(page.getByText('认证已过期，请重新登录')).toHaveCount(0);
  });

  test("another tenant's URL shows nothing of this tenant", async ({ page, request }) => {
    const session = await apiSession(request);
    await openSignedIn(page, session, '/pricer/2/dashboard');
    await expect(page).toHaveURL(/\/pricer\/2\/login$/);
    await expect(page.getByTestId('company')).toContainText('公司代码：2');
    await expect(page.getByText('演示贸易有限公司')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: '交易台' })).toHaveCount(0);
    // No call with tenant 1's token was made for tenant 2's pages.
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/pricer/view/')) calls.push(r.url());
    });
    await page.goto('/pricer/2/history');
    await expect(page).toHaveURL(/\/pricer\/2\/login$/);
    expect(calls).toEqual([]);
    // Tenant 1's session is still there for tenant 1.
    await page.goto(`/pricer/${TENANT}/dashboard`);
    await expect(page.getByRole('heading', { name: '交易台' })).toBeVisible();
  });

  test('an auth error clears the session and the login page says it expired', async ({ page, request }) => {
    const session = await apiSession(request);
    await openSignedIn(page, { ...session, token: 'not-a-valid-token' }, `/pricer/${TENANT}/dashboard`);
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    await expect(page.getByRole('alert').filter({ hasText: '认证已过期，请重新登录' })).toBeVisible();
    expect(
      await page.evaluate(() => [localStorage.getItem('pricer_token'), localStorage.getItem('pricer_user_info')]),
    ).toEqual([null, null]);
  });

  test('the login page fits a 375 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`/pricer/${TENANT}/login`);
    await expect(page.getByRole('heading', { name: '客户登录' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
