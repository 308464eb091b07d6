import { expect, test } from '@playwright/test';
import { CALENDAR_TO, isKnownDay, tradingDayOnOrAfter } from '../../packages/contract/src/calendar/index';
import { beijingMonth, expectChineseEmptyDateField, pickNextMonthDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import { demoTrader, screenshot, signIn } from './support';

/*
 * Issue 43: the deadline's calendar offers only the exchange's trading days.
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

test('the 点价截止日 calendar greys the days the exchange is shut, and says when a day is past the known calendar', async ({
  page,
}, testInfo) => {
  await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
  await page.getByRole('button', { name: '新建合同' }).click();
  const form = page.getByRole('dialog', { name: '新建合同' });
  const deadline = form.getByTestId('contract-deadline');
  await deadline.click();
  // To next January: 1 January is 元旦 every year (docs/calendar.md).
  const { year, month } = beijingMonth();
  for (let i = month; i <= 12; i++) await page.getByRole('button', { name: '下个月' }).click();
  const y = year + 1;
  const day = (d: string) => page.getByRole('button', { name: `${y}年1月${Number(d.slice(8))}日`, exact: true });
  await expect(day(`${y}-01-01`)).toBeDisabled();
  const saturday = [...Array(7).keys()].map((i) => `${y}-01-0${i + 2}`).find((d) => new Date(d).getUTCDay() === 6)!;
  await expect(day(saturday)).toBeDisabled();
  const open = tradingDayOnOrAfter('SHFE', `${y}-01-02`);
  await expect(day(open)).toBeEnabled();
  await screenshot(page, testInfo, 'contract-deadline-trading-days-1366');
  await day(open).click();
  await expect(deadline).toHaveValue(open);
  const warning = form.getByText(`该日期超出已公布的交易日历（至 ${CALENDAR_TO}）`, { exact: false });
  if (isKnownDay(open)) await expect(warning).toBeHidden();
  else await expect(warning).toBeVisible();
});
