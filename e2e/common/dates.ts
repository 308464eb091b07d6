import { expect, type Locator, type Page } from '@playwright/test';
import { tradingDayOnOrAfter, tradingDaysUntil } from '../../packages/contract/src/calendar/index';

/** dayjs zh-cn month names, as the calendar's header shows them. */
const MONTHS = ['一月', '二月', '三月', '四月', '五月', '六月', '七月', '八月', '九月', '十月', '十一月', '十二月'];

/** Today in Beijing (the browser runs in Asia/Shanghai), as year and month (1..12). */
export function beijingMonth(): { year: number; month: number } {
  const now = new Date(Date.now() + 8 * 3_600_000);
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

/** The Beijing calendar day `days` from now, 'YYYY-MM-DD'. */
export function beijingDay(days = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A fixing deadline: the first trading day of the exchanges (docs/calendar.md) on or after the
 * Beijing day `days` from now — the server refuses a deadline on a weekend or a holiday.
 */
export function beijingTradingDay(days: number): string {
  return tradingDayOnOrAfter('SHFE', beijingDay(days));
}

/** Trading days from today (Beijing) to `day`, as the desk and the console count the days left. */
export function tradingDaysFromToday(day: string): number {
  return tradingDaysUntil('SHFE.rb', day, beijingDay(0));
}

/** The day `day` of the month after today's (Beijing), 'YYYY-MM-DD'. */
export function nextMonthDay(day: number): string {
  const { year, month } = beijingMonth();
  const [y, m] = month === 12 ? [year + 1, 1] : [year, month + 1];
  return `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What a person sees of an empty date field and its calendar (issue 29 item 8): a Chinese
 * placeholder, no Latin mm/dd/yyyy, and once opened a Chinese month and weekday row.
 * Leaves the calendar open (one at a time: its header and day buttons are the page's only ones).
 */
export async function expectChineseEmptyDateField(page: Page, field: Locator): Promise<void> {
  await expect(field).toBeVisible();
  await expect(field).toHaveAttribute('placeholder', '年-月-日');
  await expect(field).toHaveValue('');
  await field.click();
  const header = page.getByRole('button', { name: '选择月份' });
  const { year, month } = beijingMonth();
  await expect(header).toHaveText(`${year}年${MONTHS[month - 1]}`);
  const days = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: '日', exact: true }) });
  await expect(days.getByRole('columnheader')).toHaveText(['日', '一', '二', '三', '四', '五', '六']);
  await expect(days).not.toContainText(/[A-Za-z]/);
  await expect(page.getByRole('button', { name: `${year}年${month}月1日`, exact: true })).toBeVisible();
}

/**
 * Picks `day` (15 → the 15th) of next month in an open calendar, or the first trading day after it
 * (a deadline's calendar greys the others); returns it as 'YYYY-MM-DD'.
 */
export async function pickNextMonthDay(page: Page, day: number): Promise<string> {
  const picked = tradingDayOnOrAfter('SHFE', nextMonthDay(day));
  const [y, m, d] = picked.split('-').map(Number);
  await page.getByRole('button', { name: '下个月' }).click();
  await page.getByRole('button', { name: `${y}年${m}月${d}日`, exact: true }).click();
  await expect(page.getByRole('button', { name: '选择月份' })).toBeHidden();
  return picked;
}

/** Types a day into a date field as a person does: the digits, then Tab on (the calendar closes). */
export async function typeDay(field: Locator, day: string): Promise<void> {
  await field.fill(day);
  await field.press('Tab');
  await expect(field).toHaveValue(day);
}
