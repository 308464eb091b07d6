import { expect, test } from '@playwright/test';
import { expectChineseEmptyDateField, pickNextMonthDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import { apiSession, openSignedIn, screenshot, TENANT } from './support';

/*
 * Issue 29 item 8: the history filter's dates read as Chinese dates whatever the browser's language
 * (the native date field showed mm/dd/yyyy and an English calendar in this English Chromium).
 */
test.use({ locale: 'en-US' });

for (const width of [1366, 375]) {
  test.describe(`history date filter at ${width} px, English browser`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('reads 年-月-日, opens a Chinese calendar; the picked day filters the list', async ({
      page,
      request,
    }, testInfo) => {
      await openSignedIn(page, await apiSession(request), `/pricer/${TENANT}/history`);
      const summary = page.getByTestId('history-summary');
      await expect(summary).toContainText('共');
      if (width < 768) await page.getByRole('button', { name: '筛选' }).click();
      const start = page.getByLabel('开始日期');
      await expect(page.getByLabel('结束日期')).toHaveAttribute('placeholder', '年-月-日');
      await expectChineseEmptyDateField(page, start);
      await expectNoEnglish(page, `history calendar ${width}`);
      await screenshot(page, testInfo, `history-date-picker-${width}`);

      // A day next month: every order is older, the list empties and the filter says so.
      const day = await pickNextMonthDay(page, 15);
      await expect(start).toHaveValue(day);
      await expect(page.getByTestId('filter-description')).toContainText(`开始日期：${day}`);
      await expect(summary).toHaveText('共 0 笔订单，委托 0 手，成交 0 手');
      await screenshot(page, testInfo, `history-date-picked-${width}`);
    });
  });
}
