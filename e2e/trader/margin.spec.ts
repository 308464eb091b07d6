import { beijingTradingDay } from '../common/dates';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openDesk as openCustomerDesk } from '../common/desk';
import {
  demoTrader,
  expectAccessible,
  pricerLogin,
  screenshot,
  signIn,
  toast,
  traderCall,
  type PricerSession,
} from './support';

/*
 * Margin through the screens (issue 31, docs/margin.md), on the demo company with a customer and a zinc
 * contract of its own (10 % margin, basis 0): the trader deposits on 资金与保证金; the customer fixes on
 * the desk; the market falls (the simulated market's shock, SIM_MARKET_HOOKS: playwright.config.ts); the
 * desk shows the margin-call banner and the trader's dashboard lists the customer; the trader deposits
 * and the call ends; the trader settles the lots from the contract row and the margin is released.
 * Serial; the market is put back at the end.
 */

const TENANT = 1;
const CUSTOMER = { username: `mg${Date.now() % 100_000}`, password: 'mg-pass-1' };
const CONTRACT_NAME = `保证金锌-${CUSTOMER.username}`;
const MULTIPLIER = 5; // zinc: 5 吨 a lot
/** 8 lots of zinc (~22,000 × 5 × 8 × 10 % ≈ 90,000 of margin) leave ~10,000 available. */
const FIRST_DEPOSIT = 100_000;
const LOTS = 8;

interface Account {
  pricer_id: number;
  pricer_name: string;
  balance: number;
  margin_required: number;
  floating_pnl: number;
  available: number;
  margin_call: boolean;
  call_amount: number;
}

let contractId = 0;
let pricerId = 0;
let symbol = '';
let session: PricerSession;
let fixedLots = 0;
let shifted = 0;

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
const yuan = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function account(page: Page): Promise<Account> {
  const { items } = await traderCall<{ items: Account[] }>(page, '/api/trader/view/pricer-accounts');
  return items.find((a) => a.pricer_id === pricerId)!;
}

async function lastPrice(request: APIRequestContext) {
  const res = await request.post('/api/pricer/view/my-data-snapshot', {
    data: {},
    headers: { Authorization: `Bearer ${session.token}` },
  });
  const snap = (await res.json()) as { data: { market_data: Record<string, { last_price: number | null }> } };
  return Number(snap.data.market_data[symbol]?.last_price);
}

/** The customer's desk in `page`, signed in with the session (as the login page leaves it). */
async function openDesk(page: Page) {
  await openCustomerDesk(page, TENANT, session, { username: CUSTOMER.username, company_name: '演示贸易有限公司' });
}

async function shiftMarket(request: APIRequestContext, percent: number) {
  const res = await request.post('/api/test/market-shift', { data: { symbol, percent } });
  expect(res.status(), await res.text()).toBe(200);
}

/** On 资金与保证金: 资金入账 → 入金 of `amount` → 下一步 → the confirmation → 确认入账. */
async function deposit(page: Page, amount: number) {
  await page.goto('/trader/margin');
  const row = page.getByTestId('accounts-table').getByRole('row').filter({ hasText: CUSTOMER.username });
  await row.getByRole('button', { name: '资金入账' }).click();
  const form = dialog(page, `资金入账 · ${CUSTOMER.username}`);
  await form.getByRole('textbox', { name: '金额（元）' }).fill(String(amount));
  await form.getByRole('textbox', { name: '备注' }).fill('追加保证金');
  await form.getByRole('textbox', { name: /银行流水号/ }).fill(`ICBC-${Date.now()}`);
  await form.getByRole('button', { name: '下一步' }).click();
  await expect(form).toContainText(yuan(amount));
  await form.getByRole('button', { name: '确认入账' }).click();
  await expect(toast(page, '资金已入账')).toBeVisible();
  return row;
}

test.describe.serial('margin through the screens', () => {
  test.describe.configure({ timeout: 150_000 });

  test.afterAll(async ({ request }) => {
    // The market back where it was for the suites after this one.
    if (shifted && symbol) await shiftMarket(request, (1 / (1 + shifted / 100) - 1) * 100);
  });

  test('the trader records a deposit for a customer with a margin contract', async ({ page, request }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader);
    pricerId = (await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', CUSTOMER)).id;
    const zinc = await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', {
      product_name: '锌',
    });
    symbol = zinc.items[1]?.symbol ?? zinc.items[0]!.symbol;
    const created = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
      name: CONTRACT_NAME,
      pricer_id: pricerId,
      product_name: '锌',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 0,
      fixing_deadline: beijingTradingDay(20),
      margin_rate: 0.1,
    });
    contractId = created.id;
    session = await pricerLogin(request, TENANT, CUSTOMER.username, CUSTOMER.password);

    const row = await deposit(page, FIRST_DEPOSIT);
    await expect(row).toContainText(yuan(FIRST_DEPOSIT));
    await expect(row).toContainText('正常');
  });

  test('the customer fixes on the desk and sees the margin it holds', async ({ page, request }) => {
    await openDesk(page);
    await expect(page.getByText('可用保证金', { exact: false }).first()).toBeVisible();
    // Market orders until LOTS are fixed (a FAK fills what the book shows).
    for (let attempt = 0; attempt < 6 && fixedLots < LOTS; attempt++) {
      await page.getByRole('button', { name: '点价' }).click();
      await page.getByLabel('成交数量（手）').fill(String(LOTS - fixedLots));
      await page.getByRole('radiogroup').getByText('市价', { exact: true }).click();
      // The order form: the margin the fixing will hold and the available after it.
      await expect(page.getByText(/本次点价占用保证金 ¥[\d,.]+，点价后可用 ¥[\d,.]+/)).toBeVisible();
      await page.getByRole('button', { name: '提交订单' }).click();
      const confirm = page.getByRole('dialog', { name: '确认点价' });
      const answer = page.waitForResponse('**/api/pricer/rpc/submit-order');
      await confirm.getByRole('button', { name: '确认点价' }).click();
      const { data } = (await (await answer).json()) as { data: { id: number } };
      await expect
        .poll(
          async () => {
            const res = await request.post('/api/pricer/view/my-orders', {
              data: { filter: `id = ${data.id}` },
              headers: { Authorization: `Bearer ${session.token}` },
            });
            const o = ((await res.json()) as { data: { items: Record<string, unknown>[] } }).data.items[0]!;
            if (o.status !== 'FINISHED' && o.status !== 'CANCELLED') return false;
            fixedLots += Number(o.volume_traded);
            return true;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
    }
    expect(fixedLots).toBe(LOTS);
    await expect(page.getByText('占用保证金', { exact: false }).first()).toBeVisible();
  });

  test('the market falls: a margin call on the desk and on the trader’s dashboard', async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader);
    const before = await account(page);
    expect(before.margin_call).toBe(false);
    expect(before.margin_required).toBeGreaterThan(0);
    // A fall that costs the available and 10,000 more (a buyer loses the fall × lots × multiplier).
    const last = await lastPrice(request);
    shifted = -((before.available + 10_000) / (fixedLots * MULTIPLIER * last)) * 100;
    expect(shifted).toBeGreaterThan(-5); // inside the day's limits
    await shiftMarket(request, shifted);

    await expect(page.getByTestId('margin-calls')).toContainText(CUSTOMER.username, { timeout: 20_000 });
    await expect(page.getByTestId('margin-calls')).toContainText('需追加');
    await screenshot(page, testInfo, 'margin-call-dashboard');
    const inCall = await account(page);
    expect(inCall.margin_call).toBe(true);
    expect(inCall.floating_pnl).toBeLessThan(0);

    await page.goto('/trader/margin');
    const row = page.getByTestId('accounts-table').getByRole('row').filter({ hasText: CUSTOMER.username });
    await expect(row).toContainText('追加保证金');

    // The customer's desk: the banner with the amount to add, and a new fixing refused with the reason.
    const desk = await page.context().newPage();
    await openDesk(desk);
    await expect(desk.getByText(/账户处于追加保证金状态，请追加 [\d,.]+ 元后再点价/)).toBeInViewport({
      timeout: 20_000,
    });
    const refused = await request.post('/api/pricer/rpc/submit-order', {
      data: { contract_id: contractId, quantity: 1, price: 0 },
      headers: { Authorization: `Bearer ${session.token}` },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/追加保证金/);
    await screenshot(desk, testInfo, 'margin-call-desk');
    await desk.close();
  });

  test('the trader deposits what the call asks: the call ends', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader);
    const inCall = await account(page);
    expect(inCall.margin_call).toBe(true);
    const row = await deposit(page, Math.ceil(inCall.call_amount) + 20_000);
    await expect(row).toContainText('正常', { timeout: 15_000 });
    const after = await account(page);
    expect(after.margin_call).toBe(false);
    // The desk: the margin line drawn from a fresh snapshot, and no banner beside it.
    await openDesk(page);
    await expect(page.getByText('可用保证金', { exact: false }).first()).toBeVisible();
    await expect(page.getByText(/账户处于追加保证金状态/)).toHaveCount(0);
  });

  test('the trader settles from the contract row’s 详情: the margin is released', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    const held = (await account(page)).margin_required;
    expect(held).toBeGreaterThan(0);
    const row = page.getByRole('table', { name: '合同列表' }).getByRole('row').filter({ hasText: CONTRACT_NAME });
    // The row's 详情 opens the contract's panel: 交割结算 is there while fixed lots are unsettled.
    await row.getByRole('button', { name: `详情 ${CONTRACT_NAME}` }).click();
    await dialog(page, `合同详情 · ${CONTRACT_NAME}`)
      .getByRole('button', { name: `交割结算 ${CONTRACT_NAME}` })
      .click();
    const form = dialog(page, `交割结算 · ${CONTRACT_NAME}`);
    await expect(form).toContainText(`${fixedLots} 手（${fixedLots * MULTIPLIER} 吨）`);
    await expect(form).toContainText(`结算后释放保证金 ${yuan(held)} 元`);
    await expectAccessible(page, testInfo, 'settle-dialog');
    await form.getByRole('textbox', { name: '备注' }).fill('提货完成');
    await form.getByRole('button', { name: '下一步' }).click();
    const confirm = dialog(page, '确认交割结算');
    await expect(confirm).toContainText(`确认结算合同 ${CONTRACT_NAME}（客户 ${CUSTOMER.username}）的 ${fixedLots} 手`);
    await screenshot(page, testInfo, 'settle-confirm');
    await confirm.getByRole('button', { name: '确认结算' }).click();
    await expect(toast(page, '已结算，保证金已释放')).toBeVisible();
    // Nothing left to settle: the panel no longer offers it.
    await row.getByRole('button', { name: `详情 ${CONTRACT_NAME}` }).click();
    const panel = dialog(page, `合同详情 · ${CONTRACT_NAME}`);
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('button', { name: `交割结算 ${CONTRACT_NAME}` })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    await page.goto('/trader/margin');
    const accountRow = page.getByTestId('accounts-table').getByRole('row').filter({ hasText: CUSTOMER.username });
    await expect(accountRow).toContainText('正常');
    const after = await account(page);
    expect(after.margin_required).toBe(0);
    expect(after.floating_pnl).toBe(0);
    await expect(accountRow.getByRole('cell').nth(3)).toHaveText('0.00');
  });
});
