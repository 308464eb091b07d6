import { expect, test, type Page } from '@playwright/test';
import { beijingTradingDay } from '../common/dates';
import { demoTrader, pricerLogin, screenshot, signIn, traderCall } from './support';

/*
 * 转月申请, 复核, 员工, 资金与保证金 and 对账单 at 820 px (a tablet beside the sidebar) and 1920 px: what a desk reads
 * on each row is in view, whole — not cut by the table's edge or under its sticky 操作 column — and the
 * approvals name their maker, never an id. Screenshots of every page at both widths.
 */

const WIDTHS = [820, 1920];
const tag = Date.now() % 100_000;
const FULL_NAME = '江西长江有色金属材料贸易股份有限公司';
const STAFF_NAME = '欧阳风控专员';

async function open(page: Page, path: string) {
  await page.goto(`/trader/${path}`);
  await expect(page).toHaveURL(new RegExp(`/trader/${path}$`));
}

test.describe.configure({ mode: 'serial', timeout: 180_000 });
let staffId = '';

test.afterAll(async ({ browser }) => {
  if (!staffId) return;
  const page = await browser.newPage();
  await signIn(page, demoTrader);
  await traderCall(page, '/api/trader/rpc/update-staff', { user_id: staffId, status: 'disabled' });
  await page.close();
});

test('each page keeps what a desk reads in view at 820 and 1920 px', async ({ page, request }, testInfo) => {
  await page.setViewportSize({ width: 1920, height: 1000 });
  await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
  const customer = { username: `tab${tag}`, password: 'tab-pass-1', full_name: FULL_NAME };
  const c = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', customer);
  const copper = (
    await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', { product_name: '铜' })
  ).items;
  const k = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
    pricer_id: c.id,
    product_name: '铜',
    instrument_id: copper[0]!.symbol,
    direction: 'BUY',
    total_quantity: 10,
    basis: 150,
    fixing_deadline: beijingTradingDay(20),
    name: `长江有色第四季度电解铜长单-${tag}`,
  });
  const session = await pricerLogin(request, 1, customer.username, customer.password);
  const applied = await request.post('/api/pricer/rpc/apply-roll', {
    data: { contract_id: k.id, quantity: 4, to_instrument_id: copper[1]!.symbol },
    headers: { Authorization: `Bearer ${session.token}` },
  });
  expect(applied.ok()).toBe(true);
  // A second 风控 makes the policy hold the owner's large deposit: a request on 复核.
  staffId = (
    await traderCall<{ user_id: string }>(page, '/api/trader/rpc/create-staff', {
      username: `tab-r${tag}`,
      password: 'tab-pass-1',
      full_name: STAFF_NAME,
      roles: ['risk', 'finance'],
    })
  ).user_id;
  await traderCall(page, '/api/trader/rpc/record-funds', {
    pricer_id: c.id,
    kind: 'deposit',
    amount: 5_000_000,
    note: '大额入金',
    bank_ref: `ABC${tag}`,
  });

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 1000 });

    await open(page, 'roll-applications');
    const apps = page.getByTestId('roll-applications-card');
    const status = apps.getByText('待报价').first();
    await expect(status).toBeInViewport({ ratio: 1 });
    // Not under the sticky 操作 column: the status ends left of it.
    const statusBox = (await status.boundingBox())!;
    const actionsBox = (await apps.getByRole('columnheader', { name: '操作' }).boundingBox())!;
    expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(actionsBox.x);
    await expect(apps.getByRole('button', { name: '报价', exact: true }).first()).toBeInViewport({ ratio: 1 });
    await screenshot(page, testInfo, `tablet-roll-applications-${width}`);

    await open(page, 'approvals');
    const request = page.getByText(`银行流水号 ABC${tag}`).locator('..');
    await expect(request).toContainText(`${demoTrader.name} 提交于`);
    await screenshot(page, testInfo, `tablet-approvals-${width}`);

    await open(page, 'staff');
    const row = page.getByRole('row').filter({ hasText: STAFF_NAME });
    await expect(row.getByText('在职', { exact: true })).toBeInViewport({ ratio: 1 });
    await expect(row.getByRole('button', { name: '停用' })).toBeInViewport({ ratio: 1 });
    await screenshot(page, testInfo, `tablet-staff-${width}`);

    await open(page, 'margin');
    const account = page.getByText(FULL_NAME, { exact: true }).first();
    await expect(account).toBeVisible();
    // The customer's status and 资金入账 beside the name, whole (a card below 1,200 px, the table above).
    const line = page.locator('tr, [role=listitem]').filter({ hasText: FULL_NAME }).first();
    await line.scrollIntoViewIfNeeded();
    await expect(line.getByText('正常', { exact: true })).toBeInViewport({ ratio: 1 });
    await expect(line.getByRole('button', { name: '资金入账' })).toBeInViewport({ ratio: 1 });
    await screenshot(page, testInfo, `tablet-margin-${width}`);

    await open(page, 'statements');
    await expect(page.getByText('待处理的应收费用')).toBeInViewport();
    await screenshot(page, testInfo, `tablet-statements-${width}`);
  }
});
