import { beijingTradingDay } from '../common/dates';
import { expect, test } from '@playwright/test';
import {
  demoTrader,
  pricerLogin,
  restingBuyPrice,
  screenshot,
  signIn,
  submitOrder,
  traderCall,
  type PricerSession,
} from './support';

/*
 * The console on a 375 px phone and customers by 客户全称 (issue 41): a customer with a legal name and
 * a resting order; the margin page says who, 可用 and 状态 in the viewport and opens the account in one
 * tap; the order stream and the contracts list name the customer by 客户全称, never by login.
 */

const TENANT = 1;
const CUSTOMER = { username: `ph${Date.now() % 100_000}`, password: 'ph-pass-1' };
const FULL_NAME = `手机测试铜材有限公司${CUSTOMER.username.slice(2)}`;
let pricerId = 0;
let contractId = 0;
let session: PricerSession;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 375, height: 812 } });

test('a customer with a 客户全称, funds and a resting order', async ({ page, request }) => {
  await signIn(page, demoTrader);
  pricerId = (
    await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', {
      ...CUSTOMER,
      full_name: FULL_NAME,
    })
  ).id;
  await traderCall(page, '/api/trader/rpc/record-funds', { pricer_id: pricerId, kind: 'deposit', amount: 200_000 });
  const zinc = await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', {
    product_name: '锌',
  });
  contractId = (
    await traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
      name: `手机锌-${CUSTOMER.username}`,
      pricer_id: pricerId,
      product_name: '锌',
      instrument_id: zinc.items[1]?.symbol ?? zinc.items[0]!.symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 0,
      fixing_deadline: beijingTradingDay(20),
      margin_rate: 0.1,
    })
  ).id;
  session = await pricerLogin(request, TENANT, CUSTOMER.username, CUSTOMER.password);
  await submitOrder(request, session, {
    contract_id: contractId,
    quantity: 1,
    price: await restingBuyPrice(request, session, contractId),
  });
});

test('资金与保证金 at 375 px: who, 可用 and 状态 in view; the name opens the account', async ({ page }, testInfo) => {
  await signIn(page, demoTrader, '/trader/margin', /\/trader\/margin$/);
  const card = page.getByRole('listitem').filter({ hasText: FULL_NAME });
  await expect(card).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  for (const text of [FULL_NAME, '可用保证金', '正常'])
    await expect(card.getByText(text, { exact: true })).toBeInViewport();
  // The available money beside its label, whole (not cut at the screen's edge).
  await expect(card.getByText('200,000.00', { exact: true }).first()).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('accounts-calls-summary')).toBeVisible();
  await expect(page.getByText(CUSTOMER.username, { exact: true })).toHaveCount(0);
  await screenshot(page, testInfo, 'phone-margin');
  await card.getByRole('button', { name: `查看 ${FULL_NAME} 的资金账户` }).click();
  await expect(page.getByRole('dialog', { name: new RegExp(FULL_NAME) })).toBeVisible();
});

test('the order stream at 375 px names the customer by 客户全称, with its status in view', async ({
  page,
}, testInfo) => {
  await signIn(page, demoTrader);
  const table = page.getByRole('table', { name: '实时订单流' });
  await expect(table.locator('tbody tr').first()).toBeAttached();
  const row = table.locator('tbody tr').filter({ hasText: FULL_NAME }).first();
  await expect(row).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await expect(row.getByText(FULL_NAME)).toBeInViewport();
  await expect(row.getByText(/待发送|处理中/).first()).toBeInViewport();
  await expect(page.getByTestId('orders-card').getByText(CUSTOMER.username, { exact: true })).toHaveCount(0);
  await screenshot(page, testInfo, 'phone-orders');
});

test('the contracts list names the customer by 客户全称, not by login', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
  const row = page.getByRole('row').filter({ hasText: `手机锌-${CUSTOMER.username}` });
  await expect(row).toBeVisible();
  await expect(row.getByText(FULL_NAME)).toBeVisible();
});
