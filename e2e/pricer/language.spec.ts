import { expect, test } from '@playwright/test';
import { expectNoEnglish } from '../common/english';
import { apiSession, openSignedIn, TENANT } from './support';

for (const width of [1280, 375]) {
  test.describe(`customer app language at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('login, desk with the order form and history with its filters: Chinese only', async ({ page, request }) => {
      await page.goto(`/pricer/${TENANT}/login`);
      await expect(page.getByTestId('company-name')).toHaveText('演示贸易有限公司');
      // The password field's visibility toggle is labelled too.
      await expect(page.getByRole('button', { name: '显示或隐藏密码' })).toHaveCount(1);
      await page.getByLabel('用户名').fill('');
      await page.getByLabel('用户名').blur();
      await expect(page.getByText('请输入用户名')).toBeVisible();
      await expectNoEnglish(page, `login ${width}`);

      await openSignedIn(page, await apiSession(request), `/pricer/${TENANT}/dashboard`);
      await expect(page.getByRole('table', { name: '委托记录' })).toBeVisible();
      await page.getByRole('button', { name: '点价' }).click();
      await expect(page.getByRole('button', { name: '提交订单' })).toBeVisible();
      await page.getByLabel('委托价格').focus();
      await page.getByLabel('委托价格').blur();
      await expect(page.getByText('限价单必须有有效价格')).toBeVisible();
      await expectNoEnglish(page, `desk ${width}`);

      await page.getByRole('link', { name: '历史记录' }).click();
      await expect(page.getByTestId('history-summary')).toContainText('共');
      if (width < 768) await page.getByRole('button', { name: '筛选' }).click();
      await expect(page.getByLabel('开始日期')).toBeVisible();
      await expectNoEnglish(page, `history ${width}`);
    });
  });
}
