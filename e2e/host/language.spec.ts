import { expect, test } from '@playwright/test';
import { expectNoEnglish } from '../common/english';

test.describe('host shell language', () => {
  test('the 404 page and the loading screen speak Chinese only', async ({ page }) => {
    await page.goto('/nope/deeper');
    await expect(page.getByRole('heading', { name: '页面未找到' })).toBeVisible();
    await expectNoEnglish(page, '404');
    // The trader's sign-in overlay, held (its configuration call never answers).
    await page.route('**/api/config', () => {});
    await page.goto('/trader');
    await expect(page.getByText('正在验证身份...')).toBeVisible();
    await expectNoEnglish(page, 'trader sign-in overlay');
  });
});
