import { expect, test } from '@playwright/test';

test.describe('customer app shell', () => {
  test('guarded pages redirect to the tenant login', async ({ page }) => {
    await page.goto('/pricer/1/history');
    await expect(page).toHaveURL(/\/pricer\/1\/login$/);
    await expect(page.getByText('公司代码：1')).toBeVisible();
  });

  test('required fields are flagged after blur', async ({ page }) => {
    await page.goto('/pricer/1/login');
    await page.getByLabel('用户名').focus();
    await page.getByLabel('用户名').blur();
    await expect(page.getByText('请输入用户名')).toBeVisible();
    await expect(page.getByText('请输入密码')).toHaveCount(0);
    await page.getByLabel('用户名').fill('pricer1');
    await expect(page.getByText('请输入用户名')).toHaveCount(0);
  });

  test('works on a 375 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/pricer/1/login');
    const card = page.getByRole('heading', { name: '客户登录' });
    await expect(card).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
  });
});
