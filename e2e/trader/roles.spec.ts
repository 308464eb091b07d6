import { expect, test, type Page } from '@playwright/test';
import { demoTrader, expectAccessible, screenshot, signedInBrowser, toast, traderCall } from './support';

/*
 * Staff roles and maker-checker through the screens (issue 42, docs/roles.md), at 375 and 1366 px. The demo
 * company's admin adds a 财务 on 员工与角色 and a 风控 (by call); the 财务 signs in (the identity provider's
 * real login, over HTTP: support.ts signIn), sees only what 财务 may do, and records a 200,000 元 deposit with its
 * 银行流水号: it waits for approval and the balance does not move. The 风控 signs in, sees the inbox's badge, approves it on 复核, and
 * the ledger shows maker and checker. Both staff members are disabled at the end, so the demo company is a
 * one-person company again for the suites after this one (its default policy holds nothing without a second 风控).
 */

const SIZES = [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1366, height: 900 },
] as const;
const AMOUNT = 200_000;

interface Account {
  pricer_id: number;
  balance: number;
}

const staffOf: string[] = [];

/** The nav, opened from the menu button on a phone. */
async function nav(page: Page, mobile: boolean) {
  if (!mobile) return page.getByRole('navigation', { name: '主导航' }).first();
  await page.getByRole('button', { name: '打开菜单' }).click();
  return page.getByRole('dialog', { name: '点价宝 · 管理端' }).getByRole('navigation');
}

test.describe.configure({ mode: 'serial' });
// Three sign-ins through the identity provider and two browsers in one test.
test.setTimeout(180_000);

test.afterAll(async ({ browser }) => {
  if (!staffOf.length) return;
  const page = await signedInBrowser(browser, SIZES[1], demoTrader);
  for (const user_id of staffOf)
    await traderCall(page, '/api/trader/rpc/update-staff', { user_id, status: 'disabled' });
  await page.context().close();
});

for (const size of SIZES) {
  test(`a deposit by 财务 waits for and is approved by 风控 (${size.width} px)`, async ({ browser }, testInfo) => {
    const mobile = size.width < 768;
    const tag = `${size.name}${Date.now() % 100_000}`;
    const financeUser = { username: `fin-${tag}`, password: 'finance-pass-1', name: `钱财务${size.width}` };
    const riskUser = { username: `risk-${tag}`, password: 'risk-pass-1', name: `李风控${size.width}` };
    const customer = { username: `rl${tag}`, password: 'rl-pass-1' };

    // The admin adds the 财务 on 员工与角色.
    const admin = await signedInBrowser(browser, size, demoTrader, '/trader/staff');
    await admin.getByRole('button', { name: '新增员工' }).click();
    const form = admin.getByRole('dialog', { name: '新增员工' });
    await form.getByLabel('姓名').fill(financeUser.name);
    await form.getByLabel('用户名').fill(financeUser.username);
    await form.getByLabel('初始密码').fill(financeUser.password);
    await form.getByRole('checkbox', { name: /^财务/ }).check();
    await form.getByRole('button', { name: '保存' }).click();
    await expect(toast(admin, `已新增员工「${financeUser.name}」`)).toBeVisible();
    const row = admin
      .getByRole('table', { name: '员工与角色' })
      .getByRole('row', { name: new RegExp(financeUser.username) });
    await expect(row).toContainText('财务');
    await screenshot(admin, testInfo, `roles-staff-${size.width}`);
    const staff = await traderCall<{ items: { user_id: string; username: string }[] }>(admin, '/api/trader/view/staff');
    staffOf.push(staff.items.find((s) => s.username === financeUser.username)!.user_id);
    const risk = await traderCall<{ user_id: string }>(admin, '/api/trader/rpc/create-staff', {
      username: riskUser.username,
      password: riskUser.password,
      full_name: riskUser.name,
      roles: ['risk'],
    });
    staffOf.push(risk.user_id);
    const { id: pricerId } = await traderCall<{ id: number }>(admin, '/api/trader/rpc/create-pricer-user', customer);
    await admin.context().close();

    // The 财务: only what 财务 may do; the deposit waits for a second person.
    const fin = await signedInBrowser(browser, size, financeUser);
    const finNav = await nav(fin, mobile);
    await expect(finNav.getByRole('link', { name: '资金与保证金' })).toBeVisible();
    await expect(finNav.getByRole('link', { name: '员工与角色' })).toHaveCount(0);
    await expect(finNav.getByRole('link', { name: '通知推送' })).toHaveCount(0);
    await fin.goto('/trader/margin');
    // A table on a laptop, a card per customer on a phone (issue 41).
    const accountRow = mobile
      ? fin.getByTestId('accounts-cards').getByRole('listitem').filter({ hasText: customer.username })
      : fin.getByTestId('accounts-table').getByRole('row', { name: new RegExp(customer.username) });
    await expect(accountRow.getByRole('button', { name: '授信' })).toHaveCount(0);
    await accountRow.getByRole('button', { name: '资金入账' }).click();
    const funds = fin.getByRole('dialog', { name: `资金入账 · ${customer.username}` });
    await funds.getByLabel('金额（元）').fill(String(AMOUNT));
    await expect(funds.getByRole('button', { name: '下一步' })).toBeDisabled();
    await funds.getByLabel('银行流水号').fill(`ICBC-${tag}`);
    await funds.getByRole('button', { name: '下一步' }).click();
    await expect(funds).toContainText(`银行流水号：ICBC-${tag}`);
    await funds.getByRole('button', { name: '确认入账' }).click();
    await expect(toast(fin, /已提交复核申请（编号 \d+）/)).toBeVisible();
    const balance = async (page: Page) =>
      (await traderCall<{ items: Account[] }>(page, '/api/trader/view/pricer-accounts')).items.find(
        (a) => a.pricer_id === pricerId,
      )?.balance ?? 0;
    expect(await balance(fin)).toBe(0);
    await screenshot(fin, testInfo, `roles-finance-${size.width}`);
    await fin.context().close();

    // The 风控: the badge, the request with what it changes, approved once.
    const chk = await signedInBrowser(browser, size, riskUser);
    const chkNav = await nav(chk, mobile);
    // The inbox is read once the profile is; a loaded machine answers slowly.
    await expect(chkNav.getByRole('link', { name: /^复核，\d+ 条待复核$/ })).toBeVisible({ timeout: 30_000 });
    await chkNav.getByRole('link', { name: /^复核/ }).click();
    await expect(chk).toHaveURL(/\/trader\/approvals$/);
    const request = chk.getByRole('listitem', { name: `出入金与调整 · ${customer.username}` });
    await expect(request).toContainText(`入金 200,000.00 元 · 银行流水号 ICBC-${tag}`);
    await expect(request).toContainText('资金余额：0.00 元 → 200,000.00 元');
    await expect(request).toContainText(`${financeUser.name} 提交于`);
    await screenshot(chk, testInfo, `roles-inbox-${size.width}`);
    await expectAccessible(chk, testInfo, `roles-inbox-${size.width}`);
    await request.getByRole('button', { name: '通过' }).click();
    const confirm = chk.getByRole('dialog', { name: '通过' });
    await expect(confirm).toContainText('通过后该操作立即生效，不可撤销');
    await confirm.getByRole('button', { name: '通过' }).click();
    await expect(toast(chk, '已复核通过，操作已生效')).toBeVisible();
    await expect(chk.getByRole('list', { name: '已处理' })).toContainText('已通过');
    expect(await balance(chk)).toBe(AMOUNT);

    // The ledger names who entered it and who approved it.
    await chk.goto('/trader/margin');
    await (
      mobile
        ? chk.getByTestId('accounts-cards').getByRole('listitem').filter({ hasText: customer.username })
        : chk.getByTestId('accounts-table').getByRole('row', { name: new RegExp(customer.username) })
    )
      .getByRole('button', { name: '流水' })
      .click();
    const ledger = chk.getByRole('table', { name: `资金流水 · ${customer.username}` });
    await expect(ledger).toContainText(`ICBC-${tag}`);
    await expect(ledger).toContainText(financeUser.name);
    await expect(ledger).toContainText(riskUser.name);
    await screenshot(chk, testInfo, `roles-ledger-${size.width}`);
    await chk.context().close();
  });
}
