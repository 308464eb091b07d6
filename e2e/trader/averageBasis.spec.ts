import { expect, test, type Locator, type Page } from '@playwright/test';
import { beijingTradingDay } from '../common/dates';
import { fillAverageWindow, fillContractTerms } from '../common/customers';
import { openDesk } from '../common/desk';
import { textLines } from '../common/layout';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, traderCall } from './support';

/*
 * 均价依据 (issue 43 item 2, docs/fixing.md), end to end on the demo company: the console's create dialog
 * offers 结算价 / 成交价 for a 均价点价 contract (结算价 chosen by default, its meaning under it); the
 * trader's 详情 names the basis; the close of the window's first trading day (POST
 * /api/test/settlement-close, SIM_MARKET_HOOKS: the simulated exchange publishes its settlement prices
 * and the job books the day) books the day's share at the settlement price, once; the desk on a phone
 * (375 px) names the basis in the schedule and on the day's 点价确认单.
 */

const TENANT = 1;
const CUSTOMER = { username: `ab${Date.now() % 100_000}`, password: 'ab-pass-1', margin_rate: 0 };
const DEADLINE = beijingTradingDay(20);
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** A 均价 schedule on a phone: the first day's date and lots on one line each, its 状态 scrolled into view. */
async function expectScheduleReadable(page: Page, schedule: Locator) {
  const cells = schedule.locator('tbody tr').first().getByRole('cell');
  for (const i of [0, 1, 2, 3]) expect(await textLines(cells.nth(i)), `column ${i + 1}`).toBe(1);
  await cells.nth(5).scrollIntoViewIfNeeded();
  await expect(cells.nth(5)).toBeInViewport({ ratio: 0.95 });
  // Scrolled sideways, the row still names its day.
  await expect(cells.nth(0)).toBeInViewport({ ratio: 0.95 });
  const day = (await cells.nth(0).boundingBox())!;
  const seen = await cells.nth(0).evaluate((el, p) => el.contains(document.elementFromPoint(p.x, p.y)), {
    x: day.x + day.width / 2,
    y: day.y + day.height / 2,
  });
  expect(seen, 'the day is on top, not under the scrolled cells').toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

test.describe.serial('均价依据: 结算价 or 成交价', () => {
  test.describe.configure({ timeout: 300_000 });
  const name = `结算价均价-${CUSTOMER.username}`;
  let contractId = 0;
  let firstDay = '';
  let share = 0;

  test('the create dialog offers the basis, the trader’s 详情 names it, the close books the day once (1366 px)', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    await traderCall(page, '/api/trader/rpc/create-pricer-user', CUSTOMER);
    await page.getByRole('button', { name: '新建合同' }).click();
    const form = await fillContractTerms(page, { customer: CUSTOMER.username, lots: 10, deadline: DEADLINE });
    // No basis for a point contract; 均价点价 shows the choice, 结算价 chosen.
    await expect(form.getByTestId('contract-average-basis')).toHaveCount(0);
    await form.getByText('均价点价', { exact: true }).click();
    const basis = form.getByRole('radiogroup', { name: '均价依据' });
    await expect(basis).toBeVisible();
    await expect(basis.getByRole('radio', { name: '结算价' })).toBeChecked();
    await expect(basis.getByRole('radio', { name: '成交价' })).not.toBeChecked();
    await expect(form.getByTestId('contract-average-basis-help')).toHaveText(
      '结算价均价：每个交易日收盘后按交易所当日结算价点价',
    );
    await basis.getByText('成交价', { exact: true }).click();
    await expect(form.getByTestId('contract-average-basis-help')).toHaveText(
      '成交价均价：每个交易日 14:50 按本方市价委托的成交价点价',
    );
    await basis.getByText('结算价', { exact: true }).click();
    await fillAverageWindow(form, name);
    await screenshot(page, testInfo, 'average-basis-form');
    await form.getByRole('button', { name: '创建' }).click();
    await expect(form).toBeHidden();

    const row = page.getByRole('table', { name: '合同列表' }).getByRole('row').filter({ hasText: name });
    contractId = Number(await row.getByRole('cell').first().textContent());
    expect(contractId).toBeGreaterThan(0);
    await page.getByRole('button', { name: `详情 ${name}` }).click();
    let detail = dialog(page, `合同详情 · ${name}`);
    let schedule = detail.getByTestId('contract-schedule');
    await expect(schedule.getByTestId('average-basis')).toHaveText('均价依据：结算价');
    await expect(schedule).toContainText('每个交易日收盘（15:00）按交易所当日结算价点价');
    await expect(schedule.getByRole('columnheader', { name: '结算价' })).toBeVisible();
    const first = schedule.locator('tbody tr').first().getByRole('cell');
    firstDay = (await first.nth(0).textContent()) ?? '';
    share = Number(((await first.nth(1).textContent()) ?? '').replace(' 手', ''));
    expect(share).toBeGreaterThan(0);
    await detail.getByRole('button', { name: '关闭' }).last().click();

    // The close of the window's first trading day, twice: one booking at the settlement price.
    const close = async () => {
      const res = await page.request.post('/api/test/settlement-close', { data: { at: `${firstDay}T15:05:00+08:00` } });
      expect(res.status()).toBe(200);
      const body = (await res.json()) as {
        day: string;
        bookings: { contract_id: number; outcome: string; lots: number }[];
      };
      expect(body.day).toBe(firstDay);
      return body.bookings.filter((b) => b.contract_id === contractId);
    };
    expect(await close()).toEqual([expect.objectContaining({ outcome: 'fixed', lots: share })]);
    expect(await close()).toEqual([]);

    await page.reload();
    await page.getByRole('button', { name: `详情 ${name}` }).click();
    detail = dialog(page, `合同详情 · ${name}`);
    schedule = detail.getByTestId('contract-schedule');
    const day = schedule.locator('tbody tr').first().getByRole('cell');
    await expect(day.nth(5)).toHaveText('已成交');
    const [, planned, fixed, price] = await day.allTextContents();
    expect([planned, fixed]).toEqual([`${share} 手`, `${share} 手`]);
    expect(price).toMatch(/^¥[\d,]+\.\d{2}$/);
    await expect(schedule.getByTestId('running-average')).toHaveText(`当前均价 ${price}`);
    // The contract's record names the day's price as prices are shown, with its unit (it read '86120').
    await expect(detail.getByTestId('contract-history')).toContainText(
      `均价点价 ${share} 手，按 ${firstDay} 结算价 ${price!.slice(1)} 元/吨`,
    );
    await expectAccessible(page, testInfo, 'average-basis-detail');
    await screenshot(page, testInfo, 'average-basis-detail');
    // On a phone each day's date and lots stay on one line, the 状态 in reach (they broke over lines).
    await page.setViewportSize({ width: 375, height: 812 });
    await expectScheduleReadable(page, schedule);
  });

  test('the desk on a phone names the basis in the schedule and on the day’s 点价确认单 (375 px)', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const session = await pricerLogin(page.request, TENANT, CUSTOMER.username, CUSTOMER.password);
    await openDesk(page, TENANT, session, CUSTOMER);
    const picker = page.getByLabel('合同', { exact: true });
    const option = (await picker.locator('option', { hasText: name }).textContent()) ?? '';
    await picker.selectOption({ label: option });
    const desk = page.getByTestId('desk-average-schedule');
    await expect(desk.getByTestId('average-basis')).toHaveText('均价依据：结算价');
    await desk.getByTestId('average-basis').scrollIntoViewIfNeeded();
    await expect(desk.getByTestId('average-basis')).toBeInViewport();
    await expect(desk.locator('tbody tr').first().getByRole('cell').nth(5)).toHaveText('已成交');
    await expectScheduleReadable(page, desk);
    const price = (await desk.locator('tbody tr').first().getByRole('cell').nth(3).textContent())!.slice(1);
    await expect(page.getByTestId('desk-contract-history')).toContainText(`按 ${firstDay} 结算价 ${price} 元/吨`);

    await page.getByRole('button', { name: /^查看订单 \d+ 的确认单$/ }).click();
    const confirmation = page
      .getByTestId('confirmation-print-copy')
      .or(page.getByRole('dialog', { name: /点价确认单/ }));
    const doc = confirmation.first();
    await expect(doc).toContainText('点价方式');
    await expect(doc).toContainText('均价依据');
    await expect(doc).toContainText('结算价（交易所当日结算价）');
    await expect(doc).toContainText('期货结算价（元）');
    // No person pressed 点价 and no fill was made: the document says who fixed and what the price is (it read
    // 点价人 '-' and 期货成交价 in the formula).
    await expect(doc.locator('[data-field="点价人"]')).toHaveText('系统按均价计划自动点价');
    await expect(doc).toContainText('点价价格 = 期货结算价 + 基差');
    await expect(doc).toContainText(`${share} 手`);
    await expectAccessible(page, testInfo, 'average-basis-confirmation-phone');
    await screenshot(page, testInfo, 'average-basis-confirmation-phone');
  });
});
