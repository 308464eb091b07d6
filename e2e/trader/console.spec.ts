import { expect, test } from '@playwright/test';

test.describe('trader console shell', () => {
  test('navigation highlights the current page and names it in the header', async ({ page }) => {
    await page.goto('/trader/dashboard');
    const nav = page.getByRole('navigation').or(page.locator('nav'));
    for (const [text, path] of [
      ['客户管理', '/trader/pricers'],
      ['合同管理', '/trader/contracts'],
      ['仪表盘', '/trader/dashboard'],
    ] as const) {
      await nav.getByRole('link', { name: text }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId('page-title')).toHaveText(text);
      await expect(nav.getByRole('link', { name: text })).toHaveAttribute('data-active', 'true');
      const crumbs = page.locator('header .mantine-Breadcrumbs-root');
      await expect(crumbs).toContainText('贸易商管理后台');
      await expect(crumbs).toContainText(text);
    }
  });

  test('unknown console paths redirect to the dashboard', async ({ page }) => {
    await page.goto('/trader/whatever/deep');
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await page.goto('/trader');
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
  });
});
