import { expect, test } from '@playwright/test';
import {
  apiSession,
  cancelOrder,
  restingOrder,
  expectAccessible,
  openSignedIn,
  pickContract,
  screenshot,
  snapshot,
  submitOrder,
  TENANT,
  waitForOrder,
} from './support';

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 600 ? 900 : 800 } });
    // Three pages, two axe scans each way and orders through the simulated broker.
    test.describe.configure({ timeout: 120_000 });

    test('login, desk and history pass axe and are captured', async ({ page, request }, testInfo) => {
      // Orders in every state the tables show: a filled market order and a resting limit order.
      const session = await apiSession(request);
      const snap = await snapshot(request, session.token);
      const contract = pickContract(snap, 2);
      const market = await submitOrder(request, session.token, { contract_id: contract.id, quantity: 1, price: 0 });
      await waitForOrder(request, session.token, market.id, ['FINISHED']);
      const resting = await restingOrder(request, session, snap, contract);
      try {
        await scanPages();
      } finally {
        await cancelOrder(request, session, resting.id);
      }

      async function scanPages() {
        await page.goto(`/pricer/${TENANT}/login`);
        await expect(page.getByTestId('company-name')).toHaveText('演示贸易有限公司');
        await expectAccessible(page, `login ${width}`);
        await screenshot(page, testInfo, `login-${width}`);

        await openSignedIn(page, session, `/pricer/${TENANT}/dashboard`);
        await page.getByLabel('合同').selectOption(String(contract.id));
        await expect(page.locator(`[data-order-id="${resting.id}"]`).getByTestId('order-status')).toHaveText('执行中');
        await expect(page.getByTestId('reference-price')).toContainText('¥');
        await page.getByRole('button', { name: '点价' }).click();
        await expect(page.getByRole('button', { name: '提交订单' })).toBeVisible();
        await expect(page.getByRole('table', { name: '委托记录' })).toBeVisible();
        await page.mouse.move(0, 300);
        await expectAccessible(page, `desk ${width}`);
        await screenshot(page, testInfo, `desk-${width}`);

        await page.getByRole('link', { name: '历史记录' }).click();
        await expect(page).toHaveURL(/\/history$/);
        await expect(page.getByTestId('history-summary')).toContainText('共');
        if (width < 768) await page.getByRole('button', { name: '筛选' }).click();
        await expect(page.getByLabel('开始日期')).toBeVisible();
        await expect(page.getByTestId('fill-rate').first()).toBeVisible();
        await page.mouse.move(0, 300);
        await expectAccessible(page, `history ${width}`);
        await screenshot(page, testInfo, `history-${width}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    });
  });
}
