import { expect, test, type Page } from '@playwright/test';
import { beijingTradingDay } from '../common/dates';
import { fillAverageWindow, fillContractTerms } from '../common/customers';
import { openDesk } from '../common/desk';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, toast, traderCall } from './support';

/*
 * A contract's life (issue 32, docs/fixing.md), end to end on the demo company: the trader rolls
 * unfixed lots to the next month from the contract row (the dialog says what will happen before the
 * confirmation), and the customer finds the 转月确认单 in the contract's history on the desk; an
 * average contract created in the dialog shows its schedule to the trader and on the desk, where it
 * cannot be fixed by hand; then its first day: the fixing job runs as at 14:50 Beijing of the window's
 * first trading day (POST /api/test/average-fixings, SIM_MARKET_HOOKS), the simulated broker fills
 * the day's market order, and both sides read the day and the running average. (The server test
 * simulates a whole month.)
 */

const TENANT = 1;
// Trades without money: its own margin rate is 0 over the company's 10 % (issue 41).
const CUSTOMER = { username: `lc${Date.now() % 100_000}`, password: 'lc-pass-1', margin_rate: 0 };
const DEADLINE = beijingTradingDay(20);

interface Instrument {
  symbol: string;
  name: string;
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** The customer's desk, signed in as the login page leaves it. */
async function openCustomerDesk(page: Page) {
  const session = await pricerLogin(page.request, TENANT, CUSTOMER.username, CUSTOMER.password);
  await openDesk(page, TENANT, session, CUSTOMER);
}

test.describe.serial('a contract’s life: 转月 and 均价点价', () => {
  test.describe.configure({ timeout: 120_000 });
  let copper: Instrument[] = [];
  let name = '';
  let avgName = '';

  test('the trader rolls unfixed lots to the next month from the contract row', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    const customer = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', CUSTOMER);
    copper = (await traderCall<{ items: Instrument[] }>(page, '/api/trader/view/instruments', { product_name: '铜' }))
      .items;
    name = `转月铜合同-${CUSTOMER.username}`;
    await traderCall(page, '/api/trader/rpc/create-contract', {
      pricer_id: customer.id,
      product_name: '铜',
      instrument_id: copper[0]!.symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 150,
      fixing_deadline: DEADLINE,
      name,
    });
    await page.reload();
    // 详情 on the row: the contract's history, with 转月 and 延期.
    await page.getByRole('button', { name: `详情 ${name}` }).click();
    await dialog(page, `合同详情 · ${name}`).getByRole('button', { name: '转月', exact: true }).click();
    const roll = dialog(page, `转月 · ${name}`);
    await roll.getByTestId('roll-target').click();
    await page.getByRole('option', { name: new RegExp(copper[1]!.symbol.replace('.', '\\.')) }).click();
    await roll.getByTestId('roll-quantity').fill('6');
    await roll.getByTestId('roll-spread').fill('30');
    await roll.getByTestId('roll-fee').fill('2');
    // Agreed off the platform (issue 42): how the customer agreed goes on the 转月确认单.
    await roll.getByTestId('roll-agreed-via').click();
    await page.getByRole('option', { name: '电话' }).click();
    const effect = roll.getByTestId('roll-effect');
    await expect(effect).toContainText(`把 6 手（30 吨）未点价数量从 ${copper[0]!.symbol} 转入 ${copper[1]!.symbol}`);
    await expect(effect).toContainText('新合同基差 +180.00（原基差 +150.00，月差 +30.00）');
    await expect(effect).toContainText('原合同剩余可点价 4 手');
    await expect(effect).toContainText('向客户收取转月费 60.00 元');
    await expect(effect).toContainText('客户已通过电话同意此次转月');
    await expectAccessible(page, testInfo, 'roll-dialog');
    await screenshot(page, testInfo, 'roll-dialog');
    await roll.getByRole('button', { name: '确认转月' }).click();
    await expect(toast(page, '转月完成')).toBeVisible();
    await expect(roll).toBeHidden();

    // The new contract is on top of the list; its detail tells where its lots came from.
    const newName = `${copper[1]!.name}-${name}`;
    await page.getByRole('button', { name: `详情 ${newName}` }).click();
    const detail = dialog(page, `合同详情 · ${newName}`);
    const history = detail.getByTestId('contract-history');
    await expect(history).toContainText(`由 ${copper[0]!.symbol}`);
    await expect(history).toContainText('转月转入 6 手');
    const card = detail.getByTestId('roll-confirmation');
    await expect(card.getByRole('row', { name: /新基差/ })).toContainText('+180.00');
    await expect(card.getByRole('row', { name: /转月费/ })).toContainText('60.00 元');
    await screenshot(page, testInfo, 'roll-detail');
  });

  test('the customer finds the 转月确认单 in the contract’s history on the desk', async ({ page }, testInfo) => {
    await openCustomerDesk(page);
    const history = page.getByTestId('desk-contract-history');
    await expect(history).toContainText('转月转入 6 手');
    await history.getByRole('button', { name: '转月确认单' }).click();
    const card = history.getByTestId('roll-confirmation');
    // The desk's last card: the customer scrolls down to read it.
    await card.scrollIntoViewIfNeeded();
    await expect(card).toBeInViewport();
    await expect(card.getByRole('row', { name: /数量/ })).toContainText('6 手（30 吨）');
    await expect(history.getByRole('button', { name: '打印转月确认单' })).toBeVisible();
    await expectAccessible(page, testInfo, 'desk-roll-confirmation');
    await screenshot(page, testInfo, 'desk-roll-confirmation');
  });

  test('an average contract: window in the create dialog, schedule for the trader and on the desk', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    avgName = `均价铜合同-${CUSTOMER.username}`;
    await page.getByRole('button', { name: '新建合同' }).click();
    const form = await fillContractTerms(page, { customer: CUSTOMER.username, lots: 20, deadline: DEADLINE });
    await form.getByText('均价点价', { exact: true }).click();
    // 均价依据 (issue 43): this walk is the desk's own 14:50 fills, 成交价 (结算价 is averageBasis.spec.ts).
    await form.getByTestId('contract-average-basis').getByText('成交价', { exact: true }).click();
    await fillAverageWindow(form, avgName);
    await form.getByRole('button', { name: '创建' }).click();
    await expect(form).toBeHidden();

    await page.getByRole('button', { name: `详情 ${avgName}` }).click();
    const detail = dialog(page, `合同详情 · ${avgName}`);
    const schedule = detail.getByTestId('contract-schedule');
    await expect(schedule).toContainText('尚未成交');
    await expect(schedule).toContainText('每个交易日 14:50 按成交价自动点价');
    await expect(schedule.getByTestId('average-basis')).toHaveText('均价依据：成交价');
    const rows = schedule.getByRole('row');
    // A header and one row per trading day, each planned, the lots adding up to 20.
    const days = (await rows.count()) - 1;
    expect(days).toBeGreaterThanOrEqual(9);
    const planned = await schedule.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(planned.reduce((s, t) => s + Number(t.replace(' 手', '')), 0)).toBe(20);
    await expectAccessible(page, testInfo, 'average-schedule');
    await detail.getByRole('button', { name: '关闭' }).last().click();

    await openCustomerDesk(page);
    const picker = page.getByLabel('合同', { exact: true });
    const option = (await picker.locator('option', { hasText: avgName }).textContent()) ?? '';
    await picker.selectOption({ label: option });
    await expect(page.getByTestId('desk-average-schedule')).toBeVisible();
    await expect(page.getByTestId('not-fixable')).toContainText('均价点价合同由系统每日自动点价，不能手动点价');
    await expect(page.getByRole('button', { name: '点价' })).toBeDisabled();
    await expectAccessible(page, testInfo, 'desk-average');
    await screenshot(page, testInfo, 'desk-average');
  });

  test('the first day: fixed at 14:50 by the job, filled, read by the trader and on the desk, never twice', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    const row = page.getByRole('table', { name: '合同列表' }).getByRole('row').filter({ hasText: avgName });
    const contractId = Number(await row.getByRole('cell').first().textContent());
    expect(contractId).toBeGreaterThan(0);

    // Before: the window's first trading day (the schedule lists trading days only) is planned.
    await page.getByRole('button', { name: `详情 ${avgName}` }).click();
    let detail = dialog(page, `合同详情 · ${avgName}`);
    const firstRow = () =>
      dialog(page, `合同详情 · ${avgName}`).getByTestId('contract-schedule').locator('tbody tr').first();
    await expect(firstRow().getByRole('cell').nth(5)).toHaveText('待执行');
    const cells = firstRow().getByRole('cell');
    const firstDay = (await cells.nth(0).textContent()) ?? '';
    expect(firstDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const share = Number(((await cells.nth(1).textContent()) ?? '').replace(' 手', ''));
    expect(share).toBeGreaterThan(0);
    await detail.getByRole('button', { name: '关闭' }).last().click();

    // The job, as its clock would run it at 14:50 Beijing that day: the day's share as one market order.
    const at = `${firstDay}T14:50:00+08:00`;
    const run = async () => {
      const res = await page.request.post('/api/test/average-fixings', { data: { at } });
      expect(res.status()).toBe(200);
      const body = (await res.json()) as {
        day: string;
        fixings: { contract_id: number; outcome: string; lots: number }[];
      };
      expect(body.day).toBe(firstDay);
      return body.fixings.filter((f) => f.contract_id === contractId);
    };
    expect(await run()).toEqual([expect.objectContaining({ outcome: 'fixed', lots: share })]);
    // The simulated broker fills it (real time: the simulated exchange trades around the clock).
    await expect
      .poll(
        async () =>
          (
            await traderCall<{ days: { date: string; status: string }[] }>(page, '/api/trader/view/contract-schedule', {
              contract_id: contractId,
            })
          ).days[0],
        { timeout: 30_000 },
      )
      .toEqual(expect.objectContaining({ date: firstDay, status: 'filled' }));
    // The same instant again: the day is done, nothing is fixed a second time.
    expect(await run()).toEqual([]);

    // The trader's 详情: the first day planned and fixed, its price, the running average.
    await page.reload();
    await page.getByRole('button', { name: `详情 ${avgName}` }).click();
    detail = dialog(page, `合同详情 · ${avgName}`);
    const schedule = detail.getByTestId('contract-schedule');
    await expect(firstRow().getByRole('cell').nth(5)).toHaveText('已成交');
    const traded = await firstRow().getByRole('cell').allTextContents();
    const [, , , price, average] = traded;
    expect(traded).toEqual([firstDay, `${share} 手`, `${share} 手`, price, price, '已成交']);
    expect(price).toMatch(/^¥[\d,]+\.\d{2}$/);
    expect(average).toBe(price);
    await expect(schedule.getByTestId('running-average')).toHaveText(`当前均价 ${price}`);
    // The days to come share what is left.
    const planned = await schedule.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(planned.slice(1).reduce((s, t) => s + Number(t.replace(' 手', '')), 0)).toBe(20 - share);
    await firstRow().scrollIntoViewIfNeeded();
    await expect(firstRow()).toBeInViewport();
    await screenshot(page, testInfo, 'average-first-day');
    await detail.getByRole('button', { name: '关闭' }).last().click();

    // The desk: the same day and average, the lots left fell by the day's share, still no fixing by hand.
    await openCustomerDesk(page);
    const picker = page.getByLabel('合同', { exact: true });
    const option = (await picker.locator('option', { hasText: avgName }).textContent()) ?? '';
    expect(option).toContain(`剩余 ${20 - share} 手`);
    await picker.selectOption({ label: option });
    await expect(page.getByTestId('remaining')).toContainText(`${20 - share} 手`);
    const desk = page.getByTestId('desk-average-schedule');
    const deskFirst = desk.locator('tbody tr').first();
    await expect(deskFirst.getByRole('cell')).toHaveText([
      firstDay,
      `${share} 手`,
      `${share} 手`,
      price!,
      price!,
      '已成交',
    ]);
    await expect(desk.getByTestId('running-average')).toHaveText(`当前均价 ${price}`);
    await deskFirst.scrollIntoViewIfNeeded();
    await expect(deskFirst).toBeInViewport();
    // One order for the day (its 确认单 on the desk), not two.
    await expect(page.getByRole('button', { name: /^查看订单 \d+ 的确认单$/ })).toHaveCount(1);
    await expect(page.getByTestId('not-fixable')).toContainText('均价点价合同由系统每日自动点价，不能手动点价');
    await expect(page.getByRole('button', { name: '点价' })).toBeDisabled();
    await expectAccessible(page, testInfo, 'desk-average-first-day');
    await screenshot(page, testInfo, 'desk-average-first-day');
  });
});
