import { expect, test } from '@playwright/test';
import { expectChineseEmptyDateField, pickNextMonthDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import { demoTrader, screenshot, signIn } from './support';

/*
 * Issue 29 item 8: the contract dialog's 点价截止日 and 均价 window read as Chinese dates whatever
 * the browser's language (the native date fields showed mm/dd/yyyy in this English Chromium).
 */
test.use({ locale: 'en-US', viewport: { width: 1366, height: 900 } });

test('the contract dialog: 点价截止日 and the 均价 window read and pick Chinese dates', async ({ page }, testInfo) => {
  await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
  await page.getByRole('button', { name: '新建合同' }).click();
  const form = page.getByRole('dialog', { name: '新建合同' });
  const deadline = form.getByTestId('contract-deadline');
  await expectChineseEmptyDateField(page, deadline);
  await expectNoEnglish(page, 'contract dialog calendar');
  await screenshot(page, testInfo, 'contract-deadline-picker-1366');
  const day = await pickNextMonthDay(page, 20);
  await expect(deadline).toHaveValue(day);
  await expect(form).toBeVisible();

  await form.getByText('均价点价').click();
  for (const id of ['contract-average-start', 'contract-average-end'])
    await expect(form.getByTestId(id)).toHaveAttribute('placeholder', '年-月-日');
  const start = form.getByTestId('contract-average-start');
  await expectChineseEmptyDateField(page, start);
  await expect(start).toHaveValue(await pickNextMonthDay(page, 1));
  await screenshot(page, testInfo, 'contract-dialog-dates-1366');
});
