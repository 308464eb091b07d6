import { expect, test, type Page } from '@playwright/test';
import { beijingTradingDay } from '../common/dates';
import { demoTrader, screenshot, signedInBrowser, traderCall } from './support';

/*
 * "The console shows only what a role may do" on 客户管理 and 合同管理 (issue 42, docs/roles.md), at 375 and
 * 1366 px: a 只读 and a 财务 member see the customers and the contracts (and a contract's 详情) but no 新建客户,
 * 停用, 新建合同, 暂停, 转月 or 延期; a 交易员 sees them — and not 解锁 (风控's). The buttons follow the route
 * table's roles (packages/contract paths.ts), the one the server's guard reads. The staff are disabled at
 * the end, so the demo company is as it was for the suites after this one.
 */

const SIZES = [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1366, height: 900 },
] as const;

const staffIds: string[] = [];

test.describe.configure({ mode: 'serial' });
// Four sign-ins through the identity provider in one test.
test.setTimeout(420_000);

test.afterAll(async ({ browser }) => {
  if (!staffIds.length) return;
  const page = await signedInBrowser(browser, SIZES[1], demoTrader);
  for (const user_id of staffIds)
    await traderCall(page, '/api/trader/rpc/update-staff', { user_id, status: 'disabled' });
  await page.context().close();
});

/** What one member sees on 客户管理 (where they signed in) and 合同管理 (and a contract's 详情). */
async function seen(page: Page, customer: string, contract: string) {
  await expect(page.getByText(customer, { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  const visible = async (name: string) => (await page.getByRole('button', { name, exact: true }).count()) > 0;
  const pricers = {
    create: await visible('新建客户'),
    edit: await visible(`编辑 ${customer}`),
    reset: await visible(`重置密码 ${customer}`),
    unlock: await visible(`解锁 ${customer}`),
    deactivate: await visible(`停用 ${customer}`),
  };
  await page.goto('/trader/contracts');
  const detail = page.getByRole('button', { name: `详情 ${contract}`, exact: true });
  await expect(detail).toBeVisible({ timeout: 60_000 });
  const contracts = {
    create: await visible('新建合同'),
    edit: await visible(`编辑 ${contract}`),
    pause: await visible(`暂停 ${contract}`),
  };
  await detail.click();
  const dialog = page.getByRole('dialog', { name: `合同详情 · ${contract}` });
  await expect(dialog).toBeVisible();
  // The panel's own figures are in view before its buttons are counted.
  await expect(dialog.getByText('合同详情', { exact: false }).first()).toBeVisible();
  const inDetail = {
    roll: (await dialog.getByRole('button', { name: '转月', exact: true }).count()) > 0,
    extend: (await dialog.getByRole('button', { name: '延期', exact: true }).count()) > 0,
  };
  return { pricers, contracts, detail: inDetail };
}

for (const size of SIZES) {
  test(`客户管理 and 合同管理 show only what the role may do (${size.width} px)`, async ({ browser }, testInfo) => {
    const tag = `${size.name.slice(0, 1)}${Date.now() % 1_000_000}`;
    const customer = `rp${tag}`;
    const contract = `角色锌-${tag}`;
    const admin = await signedInBrowser(browser, size, demoTrader);
    const members: Record<'viewer' | 'finance' | 'trader', { username: string; password: string }> = {
      viewer: { username: `vw-${tag}`, password: 'viewer-pass-1' },
      finance: { username: `fn-${tag}`, password: 'finance-pass-1' },
      trader: { username: `tr-${tag}`, password: 'trader-pass-1' },
    };
    for (const [role, user] of Object.entries(members)) {
      const made = await traderCall<{ user_id: string }>(admin, '/api/trader/rpc/create-staff', {
        ...user,
        full_name: `${role}${size.width}`,
        roles: [role],
      });
      staffIds.push(made.user_id);
    }
    const { id: pricerId } = await traderCall<{ id: number }>(admin, '/api/trader/rpc/create-pricer-user', {
      username: customer,
      password: 'rp-pass-1',
    });
    const zinc = await traderCall<{ items: { symbol: string }[] }>(admin, '/api/trader/view/instruments', {
      product_name: '锌',
    });
    await traderCall(admin, '/api/trader/rpc/create-contract', {
      name: contract,
      pricer_id: pricerId,
      product_name: '锌',
      instrument_id: zinc.items[0]!.symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 0,
      fixing_deadline: beijingTradingDay(20),
      margin_rate: 0,
    });
    await admin.context().close();

    const none = {
      pricers: { create: false, edit: false, reset: false, unlock: false, deactivate: false },
      contracts: { create: false, edit: false, pause: false },
      detail: { roll: false, extend: false },
    };
    for (const role of ['viewer', 'finance'] as const) {
      const page = await signedInBrowser(browser, size, members[role], '/trader/pricers');
      expect(await seen(page, customer, contract), role).toEqual(none);
      await screenshot(page, testInfo, `roles-pages-${role}-${size.width}`);
      await page.context().close();
    }
    const page = await signedInBrowser(browser, size, members.trader, '/trader/pricers');
    expect(await seen(page, customer, contract)).toEqual({
      pricers: { create: true, edit: true, reset: true, unlock: false, deactivate: true },
      contracts: { create: true, edit: true, pause: true },
      detail: { roll: true, extend: true },
    });
    await screenshot(page, testInfo, `roles-pages-trader-${size.width}`);
    await page.context().close();
  });
}
