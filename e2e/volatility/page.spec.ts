import { expect, test } from '@playwright/test';

test.describe('volatility page shell', () => {
  test('curve types wait for a future; call-last and put-last are preselected', async ({ page }) => {
    await page.goto('/volatility-surface');
    const curves = page.getByRole('textbox', { name: '曲线类型' }).or(page.getByLabel('曲线类型'));
    await expect(curves.first()).toBeDisabled();
    await expect(page.locator('.mantine-Pill-label')).toHaveText(['看涨最新价', '看跌最新价']);
    await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toBeVisible();
  });

  test('unknown routes of the app show the 404 page', async ({ page }) => {
    await page.goto('/volatility-surface/other');
    await expect(page.getByRole('heading', { name: '页面未找到' })).toBeVisible();
    await expect(page).toHaveTitle('期权波动率曲线');
  });
});
