import { expect, test, type Locator, type Page } from '@playwright/test';
import { beijingTradingDay, typeDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import {
  demoTrader,
  expectAccessible,
  firstTimeTrader,
  pricerLogin,
  restingBuyPrice,
  screenshot,
  signIn,
  submitOrder,
  toast,
  traderCall,
  type PricerSession,
} from './support';

/*
 * A first-time trader (created before the server starts, see playwright.config.ts) sets up the
 * company, a customer and a contract; the customer fixes prices through the API; the trader
 * watches and cancels orders. Serial: each step builds on the data of the one before.
 */

const COMPANY = '华东点价贸易有限公司';
const CUSTOMER = { username: 'kehu01', password: 'kh-pass-1', phone: '13800138000' };
const CONTRACT_NAME = '华东铜合同';
const BULK_ORDERS = 105;
/** A fixing deadline three weeks out (a trading day, docs/calendar.md). */
const DEADLINE = beijingTradingDay(21);

let tenantId = 0;
let contractId = 0;

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

async function choose(page: Page, field: Locator, option: string | RegExp) {
  await field.click();
  // Only the open dropdown's options (the tables' filters have hidden native ones).
  await page.getByRole('option', { name: option }).filter({ visible: true }).first().click();
}

test.describe.serial('first-time trader', () => {
  test('configures the company: validation, save, sidebar, portal link and QR code', async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, firstTimeTrader);
    await expect(page.getByTestId('trader-name')).toHaveText(firstTimeTrader.name);
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar.getByTestId('not-configured')).toContainText('尚未配置');
    await expect(sidebar.getByTestId('not-configured')).toContainText('请点击设置按钮完成系统配置');
    await expect(page.getByTestId('portal-link-panel')).toHaveCount(0);
    await expect(page.getByTestId('setup-required')).toBeVisible();

    await sidebar.getByRole('button', { name: '系统配置', exact: true }).click();
    const settings = dialog(page, '系统配置');
    await expect(settings).toBeVisible();
    await expect(settings.getByRole('checkbox', { name: /模拟交易/ })).toBeChecked();

    await settings.getByRole('button', { name: '保存' }).click();
    await expect(settings.getByText('请输入公司名称')).toBeVisible();

    await settings.getByRole('checkbox', { name: /模拟交易/ }).uncheck();
    await settings.getByRole('button', { name: '保存' }).click();
    await expect(settings.getByText('请输入期货公司')).toBeVisible();
    await expect(settings.getByText('请输入期货账户')).toBeVisible();
    await expect(settings.getByLabel('账户密码')).toHaveAttribute('placeholder', '留空则保持不变');
    // Typing clears that field's error only.
    await settings.getByLabel('期货账户').fill('8800');
    await expect(settings.getByText('请输入期货账户')).toHaveCount(0);
    await expect(settings.getByText('请输入期货公司')).toBeVisible();
    await settings.getByLabel('公司名称').fill(COMPANY);
    await expect(settings.getByText('请输入公司名称')).toHaveCount(0);

    await settings.getByRole('checkbox', { name: /模拟交易/ }).check();
    await expect(settings.getByLabel('期货账户')).toHaveCount(0);
    await settings.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '配置保存成功')).toBeVisible();
    await expect(settings).toBeHidden();

    const profile = await traderCall<{ tenant_id: number; company_name: string }>(page, '/api/trader/view/my-self');
    tenantId = profile.tenant_id;
    expect(profile.company_name).toBe(COMPANY);
    await expect(sidebar.getByTestId('company')).toHaveText(`${COMPANY} (#${tenantId})`);
    await expect(sidebar.getByTestId('account')).toHaveText('模拟');
    await expect(page.getByTestId('setup-required')).toHaveCount(0);

    const link = `${new URL(page.url()).origin}/pricer/${tenantId}`;
    await expect(page.getByTestId('portal-link')).toHaveValue(link);
    await expect(page.getByTestId('portal-link')).toHaveAttribute('readonly', '');
    const qr = page.getByTestId('portal-qr');
    await expect(qr).toBeVisible();
    await expect(qr).toHaveAttribute('aria-label', `客户端链接二维码：${link}`);
    // Version 2 for this link: 25 modules of 4 px plus a 4 px margin each side.
    await expect(qr).toHaveAttribute('width', '108');
    await expect(page.getByTestId('portal-link-panel')).toContainText('扫码访问');
    await page.getByRole('button', { name: '复制链接' }).click();
    await expect(toast(page, '链接已复制到剪贴板')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // Reopened: preloaded from the profile, password blank; cancel closes.
    await sidebar.getByRole('button', { name: '系统配置', exact: true }).click();
    await expect(settings.getByLabel('公司名称')).toHaveValue(COMPANY);
    await expect(settings.getByRole('checkbox', { name: /模拟交易/ })).toBeChecked();
    await expectAccessible(page, testInfo, 'settings-dialog');
    await screenshot(page, testInfo, 'settings-1280');
    await settings.getByRole('button', { name: '取消' }).click();
    await expect(settings).toBeHidden();
  });

  test('creates a customer and resets a password', async ({ page }) => {
    await signIn(page, firstTimeTrader, '/trader/pricers', /\/trader\/pricers$/);
    await expect(page.getByTestId('stat-users-total-value')).toHaveText('0');

    await page.getByRole('button', { name: '新建客户' }).click();
    const create = dialog(page, '新建客户');
    const submit = create.getByRole('button', { name: '创建' });
    await expect(submit).toBeDisabled();
    await create.getByLabel('用户名').fill('k');
    await expect(submit).toBeDisabled();
    await create.getByLabel(/^密码/).fill('x');
    await create.getByLabel('手机号').fill('12345');
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(create.getByText('用户名至少 2 个字符')).toBeVisible();
    await expect(create.getByText('密码至少 2 个字符')).toBeVisible();
    await expect(create.getByText('手机号格式不正确')).toBeVisible();

    // Escape cancels.
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();

    await page.getByRole('button', { name: '新建客户' }).click();
    await expect(create.getByLabel('用户名')).toHaveValue('');
    await create.getByLabel('用户名').fill(CUSTOMER.username);
    await create.getByLabel(/^密码/).fill(CUSTOMER.password);
    await create.getByLabel('手机号').fill(CUSTOMER.phone);
    // Enter submits.
    await create.getByLabel('手机号').press('Enter');
    await expect(toast(page, '客户已创建')).toBeVisible();
    await expect(create).toBeHidden();

    const table = page.getByRole('table', { name: '客户列表' });
    const row = table.getByRole('row').filter({ hasText: CUSTOMER.username });
    await expect(row).toContainText('待激活');
    await expect(row).toContainText(CUSTOMER.phone);
    await expect(page.getByTestId('stat-users-total-value')).toHaveText('1');
    await expect(page.getByTestId('stat-users-pending-value')).toHaveText('1');

    // The same username again: the server's message in the toast.
    await page.getByRole('button', { name: '新建客户' }).click();
    await create.getByLabel('用户名').fill(CUSTOMER.username);
    await create.getByLabel(/^密码/).fill('another');
    await create.getByRole('button', { name: '创建' }).click();
    await expect(toast(page, `客户创建失败: 用户名 ${CUSTOMER.username} 已存在`)).toBeVisible();
    await expect(create).toBeVisible();
    await create.getByRole('button', { name: '取消' }).click();

    // 编辑: the customer's legal identity and the confirm sheet (issue 29).
    await row.getByRole('button', { name: `编辑 ${CUSTOMER.username}` }).click();
    const edit = dialog(page, `编辑客户 ${CUSTOMER.username}`);
    await expect(edit.getByLabel('手机号')).toHaveValue(CUSTOMER.phone);
    await expect(edit.getByLabel('点价前确认')).toBeChecked();
    await edit.getByLabel('客户全称').fill('江南饲料科技有限公司');
    await edit.getByLabel('联系人').fill('李经理');
    await edit.getByLabel('手机号').fill('12345');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(edit.getByText('手机号格式不正确')).toBeVisible();
    await edit.getByLabel('手机号').fill(CUSTOMER.phone);
    await edit.getByLabel('点价前确认').uncheck();
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '客户资料已保存')).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('江南饲料科技有限公司');
    // Reopened: what was saved, and the sheet switched back on (the default the later tests rely on).
    await row.getByRole('button', { name: `编辑 ${CUSTOMER.username}` }).click();
    await expect(edit.getByLabel('客户全称')).toHaveValue('江南饲料科技有限公司');
    await expect(edit.getByLabel('联系人')).toHaveValue('李经理');
    await expect(edit.getByLabel('点价前确认')).not.toBeChecked();
    await edit.getByLabel('点价前确认').check();
    await edit.getByRole('button', { name: '保存' }).click();
    // The first save's toast may still show: the newest one.
    await expect(toast(page, '客户资料已保存').last()).toBeVisible();

    await row.getByRole('button', { name: `重置密码 ${CUSTOMER.username}` }).click();
    const reset = dialog(page, `重置密码：${CUSTOMER.username}`);
    await reset.getByRole('button', { name: '重置' }).click();
    await expect(reset.getByText('请输入新密码')).toBeVisible();
    await expect(reset.getByText('请确认密码')).toBeVisible();
    await reset.getByLabel('新密码').fill('temp-1');
    await reset.getByLabel('确认密码').fill('temp-2');
    await reset.getByRole('button', { name: '重置' }).click();
    await expect(reset.getByText('两次输入的密码不一致')).toBeVisible();
    await reset.getByLabel('确认密码').fill('temp-1');
    await reset.getByRole('button', { name: '重置' }).click();
    await expect(toast(page, '密码已重置')).toBeVisible();
    await expect(reset).toBeHidden();
    CUSTOMER.password = 'temp-1';
  });

  test('停用 a customer: it cannot sign in until 启用 again; a header click replaces the sort', async ({
    page,
  }, testInfo) => {
    await signIn(page, firstTimeTrader, '/trader/pricers', /\/trader\/pricers$/);
    const table = page.getByRole('table', { name: '客户列表' });
    const row = table.getByRole('row').filter({ hasText: CUSTOMER.username });
    await row.getByRole('button', { name: `停用 ${CUSTOMER.username}` }).click();
    const confirm = dialog(page, `停用客户：${CUSTOMER.username}`);
    await expect(confirm).toContainText('停用后该客户不能登录');
    await expect(confirm.getByTestId('pricer-status-effect')).toContainText('将撤销 0 笔未成交委托和 0 笔条件单');
    await expectAccessible(page, testInfo, 'deactivate-dialog');
    // Cancel changes nothing.
    await confirm.getByRole('button', { name: '取消' }).click();
    await expect(row.locator('[data-status]')).not.toHaveAttribute('data-status', 'inactive');
    await row.getByRole('button', { name: `停用 ${CUSTOMER.username}` }).click();
    await confirm.getByRole('button', { name: '确认停用' }).click();
    await expect(toast(page, '客户已停用')).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'inactive');
    await expect(row).toContainText('已停用');
    await expect(page.getByTestId('stat-users-inactive-value')).toHaveText('1');

    // The customer's login page refuses the account.
    await page.goto(`/pricer/${tenantId}/login`);
    await page.getByLabel('用户名').fill(CUSTOMER.username);
    await page.getByLabel(/^密码/).fill(CUSTOMER.password);
    const refused = page.waitForResponse('**/api/pricer/rpc/pricer-login');
    await page.getByRole('button', { name: '登录' }).click();
    expect((await refused).status()).toBe(403);
    await expect(toast(page, '账户已停用，请联系贸易商')).toBeVisible();
    await expect(page.getByTestId('account-disabled')).toHaveText('账户已停用，请联系贸易商');
    await expect(page).toHaveURL(new RegExp(`/pricer/${tenantId}/login$`));
    await screenshot(page, testInfo, 'inactive-login-1280');

    await page.goto('/trader/pricers');
    await row.getByRole('button', { name: `启用 ${CUSTOMER.username}` }).click();
    await dialog(page, `启用客户：${CUSTOMER.username}`).getByRole('button', { name: '确认启用' }).click();
    await expect(toast(page, '客户已启用')).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'active');
    await page.goto(`/pricer/${tenantId}/login`);
    await page.getByLabel('用户名').fill(CUSTOMER.username);
    await page.getByLabel(/^密码/).fill(CUSTOMER.password);
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page).toHaveURL(new RegExp(`/pricer/${tenantId}/dashboard$`));

    // Every table: a click on a header replaces the sort, shift-click adds one.
    await page.goto('/trader/pricers');
    const header = (name: string) => table.locator('th', { has: page.getByRole('button', { name: `按${name}排序` }) });
    await table.getByRole('button', { name: '按用户名排序' }).click();
    await expect(header('用户名')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header('编号')).toHaveAttribute('aria-sort', 'none');
    await table.getByRole('button', { name: '按状态排序' }).click();
    await expect(header('状态')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header('用户名')).toHaveAttribute('aria-sort', 'none');
    await table.getByRole('button', { name: '按用户名排序' }).click({ modifiers: ['Shift'] });
    await expect(header('状态')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header('用户名')).toHaveAttribute('aria-sort', 'ascending');
  });

  test('creates a contract, pauses and re-activates it', async ({ page }, testInfo) => {
    await signIn(page, firstTimeTrader, '/trader/contracts', /\/trader\/contracts$/);
    await expect(page.getByTestId('stat-contracts-total-value')).toHaveText('0');

    await page.getByRole('button', { name: '新建合同' }).click();
    const form = dialog(page, '新建合同');
    await form.getByRole('button', { name: '创建' }).click();
    for (const message of [
      '请选择客户',
      '请选择期货合约',
      '请选择期货方向',
      '总数量必须大于0',
      '请输入基差（可为负数）',
      '请选择点价截止日',
    ])
      await expect(form.getByText(message)).toBeVisible();

    const instrument = form.getByTestId('contract-instrument');
    await expect(instrument).toBeDisabled();
    await choose(page, form.getByTestId('contract-pricer'), CUSTOMER.username);
    await expect(form.getByText('请选择客户')).toHaveCount(0);
    // Many products: the dropdown really shows them in columns — the option boxes stand at 4 distinct x
    // positions (issue 29: the CSS said four columns while all options stood at one x).
    await form.getByTestId('contract-product').click();
    const boxes = page.getByRole('listbox').getByRole('option');
    await expect(boxes.first()).toBeVisible();
    const xs = await boxes.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().x)));
    expect(new Set(xs).size).toBe(4);
    // Commodity futures only (issue 29): no index or bond futures to price goods off.
    await expect(page.getByRole('option', { name: '沪深300股指' })).toHaveCount(0);
    await expect(page.getByRole('option', { name: '10年期国债' })).toHaveCount(0);
    await screenshot(page, testInfo, 'contract-products-grid-1280');
    await page.getByRole('option', { name: '铝', exact: true }).filter({ visible: true }).click();
    await expect(instrument).toBeEnabled();
    await choose(page, instrument, /^铝\d{4}/);
    // Choosing another product resets the futures contract.
    await choose(page, form.getByTestId('contract-product'), /^铜$/);
    await expect(instrument).toHaveValue('');
    await choose(page, instrument, /^铜2701（SHFE\.cu2701）$/);
    await choose(page, form.getByTestId('contract-direction'), '买入');
    await form.getByTestId('contract-quantity').fill('1000');
    await form.getByTestId('contract-basis').fill('50');
    await typeDay(form.getByTestId('contract-deadline'), DEADLINE);
    await form.getByLabel('合同名称').fill(CONTRACT_NAME);
    await expect(form.getByTestId('contract-status')).toHaveValue('执行中');
    // A new company holds 10 % margin by default (issue 41); this customer fixes without money: a typed 0,
    // which the form asks to confirm.
    await expect(form.getByTestId('contract-margin-rate')).toHaveValue('10%');
    await form.getByTestId('contract-margin-rate').fill('0');
    await form.getByRole('button', { name: '创建' }).click();
    await expect(form.getByText('保证金比例为 0，请勾选“确认不收保证金”')).toBeVisible();
    await form.getByLabel('确认不收保证金').check();
    await form.getByRole('button', { name: '创建' }).click();
    await expect(toast(page, '合同已创建')).toBeVisible();
    await expect(form).toBeHidden();

    const table = page.getByRole('table', { name: '合同列表' });
    const row = table.getByRole('row').filter({ hasText: CONTRACT_NAME });
    // The customer by 客户全称 (issue 41), as set on 编辑客户 above.
    await expect(row).toContainText('江南饲料科技有限公司');
    await expect(row).toContainText('cu2701');
    await expect(row).toContainText('买入');
    await expect(row).toContainText('1,000 手');
    await expect(row).toContainText('执行中');
    await expect(page.getByTestId('stat-contracts-total-value')).toHaveText('1');
    await expect(page.getByTestId('stat-contracts-active-value')).toHaveText('1');
    await expect(page.getByTestId('stat-contracts-rate-value')).toHaveText('0%');
    contractId = Number(await row.getByRole('cell').first().textContent());
    expect(contractId).toBeGreaterThan(0);

    // 暂停 says what it will stop before it does it (issue 30).
    await row.getByRole('button', { name: `暂停 ${CONTRACT_NAME}` }).click();
    const pause = dialog(page, `暂停合同：${CONTRACT_NAME}`);
    await expect(pause.getByTestId('contract-status-effect')).toContainText('将撤销 0 笔未成交委托，暂停 0 笔条件单');
    await expectNoEnglish(page, 'pause dialog');
    await pause.getByRole('button', { name: '确认暂停' }).click();
    await expect(toast(page, '合同状态已更新')).toBeVisible();
    await expect(row).toContainText('已暂停');
    await expect(page.getByTestId('stat-contracts-paused-value')).toHaveText('1');
    await expect(page.getByTestId('stat-contracts-active-value')).toHaveText('0');
    await row.getByRole('button', { name: `激活 ${CONTRACT_NAME}` }).click();
    const activate = dialog(page, `激活合同：${CONTRACT_NAME}`);
    await expect(activate.getByTestId('contract-status-effect')).toContainText('0 笔条件单恢复监控行情');
    await activate.getByRole('button', { name: '确认激活' }).click();
    await expect(row).toContainText('执行中');
    await expect(page.getByTestId('stat-contracts-active-value')).toHaveText('1');

    // Edit: only the status can change.
    await row.getByRole('button', { name: `编辑 ${CONTRACT_NAME}` }).click();
    const edit = dialog(page, '编辑合同');
    await expect(edit.getByTestId('contract-pricer')).toBeDisabled();
    await expect(edit.getByTestId('contract-instrument')).toBeDisabled();
    await expect(edit.getByTestId('contract-quantity')).toBeDisabled();
    await choose(page, edit.getByTestId('contract-status'), '已过期');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '合同已更新')).toBeVisible();
    await expect(row).toContainText('已过期');
    await row.getByRole('button', { name: `编辑 ${CONTRACT_NAME}` }).click();
    await choose(page, edit.getByTestId('contract-status'), '执行中');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(row).toContainText('执行中');
  });

  test('a customer fixes a price; the order streams in and the trader cancels it', async ({ page, request }) => {
    const session: PricerSession = await pricerLogin(request, tenantId, CUSTOMER.username, CUSTOMER.password);
    const price = await restingBuyPrice(request, session, contractId);
    // Wide enough for every column of the stream (narrower screens hide the contract's name).
    await page.setViewportSize({ width: 1920, height: 1000 });
    await signIn(page, firstTimeTrader);
    await expect(page.getByTestId('orders-empty')).toHaveText('暂无订单数据');
    await expect(page.getByTestId('stat-total-value')).toHaveText('0');

    const order = await submitOrder(request, session, { contract_id: contractId, quantity: 3, price });
    const table = page.getByRole('table', { name: '实时订单流' });
    // Auto refresh (10 s) brings it in without a click.
    const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: String(order.id), exact: true }) });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row).toContainText('江南饲料科技有限公司');
    await expect(row).toContainText('cu2701');
    await expect(row).toContainText(CONTRACT_NAME);
    await expect(row).toContainText('3 手');
    await expect(row).toContainText(/待发送|处理中/);
    await expect(page.getByTestId('stat-total-value')).toHaveText('1');
    await expect(page.getByTestId('stat-active-value')).toHaveText('1');
    await expect(page.getByTestId('stat-success-rate-value')).toHaveText('0%');

    await row.getByRole('button', { name: `撤单 ${order.id}` }).click();
    await expect(toast(page, '撤单请求已提交')).toBeVisible();
    await expect(row).toContainText('已撤销', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: /撤单/ })).toHaveCount(0);
    await expect(page.getByTestId('stat-active-value')).toHaveText('0');
    await page.getByTestId('dashboard-refresh').click();
    await expect(toast(page, '数据已刷新')).toBeVisible();
  });

  test('pages, sorts and filters more than 100 orders', async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    const session = await pricerLogin(request, tenantId, CUSTOMER.username, CUSTOMER.password);
    const price = await restingBuyPrice(request, session, contractId);
    for (let i = 0; i < BULK_ORDERS; i++)
      await submitOrder(request, session, { contract_id: contractId, quantity: 1 + (i % 5), price });
    const total = BULK_ORDERS + 1;

    await signIn(page, firstTimeTrader);
    const card = page.getByTestId('orders-card');
    const table = page.getByRole('table', { name: '实时订单流' });
    const rows = table.locator('tbody tr');
    await expect(card).toContainText(`显示第 1 - 20 条，共 ${total} 条记录`);
    await expect(rows).toHaveCount(20);
    await expect(card).toContainText(`第 1 / 6 页`);
    // Default order: newest first.
    const ids = await rows.locator('td:first-child').allTextContents();
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => b - a));
    await expect(page.getByTestId('stat-total-value')).toHaveText(String(total));
    await screenshot(page, testInfo, 'dashboard-1280');

    await card.getByRole('button', { name: '下一页' }).click();
    await expect(card).toContainText(`显示第 21 - 40 条，共 ${total} 条记录`);
    await card.getByRole('button', { name: '末页' }).click();
    await expect(card).toContainText(`显示第 101 - ${total} 条，共 ${total} 条记录`);
    await expect(rows).toHaveCount(total - 100);
    await card.getByRole('button', { name: '首页' }).click();
    await expect(card).toContainText(`第 1 / 6 页`);

    // Sort by ordered lots, ascending then descending (the column's place depends on the width).
    const lotsColumn = await table
      .locator('thead tr')
      .first()
      .locator('th')
      .evaluateAll((ths) => ths.findIndex((th) => th.textContent!.startsWith('委托手数')));
    expect(lotsColumn).toBeGreaterThan(0);
    const lots = rows.locator(`td:nth-child(${lotsColumn + 1})`);
    await card.getByRole('button', { name: '按委托手数排序' }).click();
    await expect(table.locator('th[aria-sort="ascending"]')).toContainText('委托手数');
    await expect(lots.first()).toHaveText('1 手');
    await card.getByRole('button', { name: '按委托手数排序' }).click();
    await expect(table.locator('th[aria-sort="descending"]')).toContainText('委托手数');
    await expect(lots.first()).toHaveText('5 手');

    // Filter: the one cancelled order; then by customer text.
    await card.getByRole('combobox', { name: '按状态筛选' }).click();
    await page.getByRole('option', { name: '已撤销' }).filter({ visible: true }).click();
    await page.keyboard.press('Escape');
    await expect(card).toContainText('显示第 1 - 1 条，共 1 条记录');
    await expect(card.getByText("status in ['CANCELLED']")).toBeVisible();
    await card.getByRole('button', { name: '清除筛选' }).click();
    await expect(card).toContainText(`共 ${total} 条记录`);
    await card.getByRole('textbox', { name: '按客户筛选' }).fill('nobody-here');
    await expect(card).toContainText('共 0 条记录');
    await card.getByRole('textbox', { name: '按客户筛选' }).fill('江南饲料科技'); // the stream names customers by 客户全称 (issue 41)
    await expect(card).toContainText(`共 ${total} 条记录`);
    await card.getByRole('combobox', { name: '每页条数' }).selectOption('50');
    await expect(rows).toHaveCount(50);
    await expect(card).toContainText(`第 1 / 3 页`);

    await expectAccessible(page, testInfo, 'dashboard');
  });

  test("a table whose load fails says 数据加载失败 with the server's message, never the transport text", async ({
    page,
  }, testInfo) => {
    await signIn(page, firstTimeTrader, '/trader/contracts', /\/trader\/contracts$/);
    const card = page
      .getByRole('table', { name: '合同列表' })
      .locator('xpath=ancestor::div[contains(@class,"mantine-Card-root")]');
    await expect(page.getByRole('table', { name: '合同列表' })).toContainText(CONTRACT_NAME);
    // The server refuses a search of more than 200 characters (a 400 with a Chinese message).
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/trader/view/contracts') && r.status() === 400);
    await card.getByRole('searchbox', { name: '全局搜索' }).fill('铜'.repeat(201));
    await answer;
    const alert = card.getByRole('alert');
    await expect(alert).toContainText('数据加载失败');
    await expect(alert).toContainText('搜索内容过长（最多 200 个字符）');
    await expect(page.getByText(/HTTP error|status:|"result"/)).toHaveCount(0);
    await screenshot(page, testInfo, 'load-failed-1280');
    await card.getByRole('searchbox', { name: '全局搜索' }).fill('');
    await expect(alert).toHaveCount(0);
  });

  test('Ctrl+B collapses the sidebar, remembered in the sidebar_state cookie', async ({ page, context }) => {
    await signIn(page, firstTimeTrader);
    const shell = page.getByTestId('trader-shell');
    await expect(shell).toHaveAttribute('data-sidebar-state', 'expanded');
    await page.keyboard.press('Control+b');
    await expect(shell).toHaveAttribute('data-sidebar-state', 'collapsed');
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-compact', 'true');
    // Icon mode keeps the links, with their names.
    await expect(page.getByRole('link', { name: '合同管理' })).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(Math.round((cookie?.expires ?? 0) - Date.now() / 1000)).toBeGreaterThan(604_800 - 60);
    await page.reload();
    await expect(shell).toHaveAttribute('data-sidebar-state', 'collapsed');
    await page.keyboard.press('Meta+b');
    await expect(shell).toHaveAttribute('data-sidebar-state', 'expanded');
    await page.getByRole('button', { name: '切换侧边栏' }).click();
    await expect(shell).toHaveAttribute('data-sidebar-state', 'collapsed');
    await page.getByRole('button', { name: '切换侧边栏' }).click();
    await expect(shell).toHaveAttribute('data-sidebar-state', 'expanded');
  });

  test('navigation highlights the current page; unknown paths go to the dashboard', async ({ page }) => {
    await signIn(page, firstTimeTrader);
    const nav = page.getByRole('navigation', { name: '主导航' });
    for (const [text, path] of [
      ['客户管理', '/trader/pricers'],
      ['合同管理', '/trader/contracts'],
      ['仪表盘', '/trader/dashboard'],
    ] as const) {
      await nav.getByRole('link', { name: text }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId('page-title')).toHaveText(text);
      await expect(nav.getByRole('link', { name: text })).toHaveAttribute('aria-current', 'page');
      const crumbs = page.getByTestId('breadcrumbs');
      await expect(crumbs.getByRole('link', { name: '贸易商管理后台' })).toHaveAttribute('href', '/trader');
      await expect(crumbs).toContainText(text);
    }
    await page.goto('/trader/whatever/deep');
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
    await page.getByTestId('breadcrumbs').getByRole('link', { name: '贸易商管理后台' }).click();
    await expect(page).toHaveURL(/\/trader\/dashboard$/);
  });

  test('below 768 px the sidebar is a slide-in sheet', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signIn(page, firstTimeTrader);
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByRole('button', { name: '打开菜单' }).click();
    const sheet = page.getByRole('dialog', { name: '点价宝 · 管理端' });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId('company')).toContainText(COMPANY);
    await expect(sheet.getByTestId('portal-link')).toHaveValue(new RegExp(`/pricer/${tenantId}$`));
    await screenshot(page, testInfo, 'sheet-375');
    await sheet.getByRole('link', { name: '合同管理' }).click();
    await expect(page).toHaveURL(/\/trader\/contracts$/);
    await expect(sheet).toBeHidden();
    await page.keyboard.press('Control+b');
    await expect(sheet).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    for (const [path, name] of [
      ['/trader/dashboard', 'dashboard'],
      ['/trader/pricers', 'pricers'],
      ['/trader/contracts', 'contracts'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId('page-title')).not.toBeEmpty();
      await expect(page.getByRole('table').first()).toBeVisible();
      await expectAccessible(page, testInfo, `${name}-375`);
      await screenshot(page, testInfo, `${name}-375`);
    }
  });

  test('pages at 1280 px pass the accessibility scan', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, firstTimeTrader, '/trader/pricers', /\/trader\/pricers$/);
    await expect(page.getByRole('table', { name: '客户列表' })).toContainText(CUSTOMER.username);
    await expectAccessible(page, testInfo, 'pricers');
    await screenshot(page, testInfo, 'pricers-1280');
    await page.getByRole('link', { name: '合同管理' }).click();
    await expect(page.getByRole('table', { name: '合同列表' })).toContainText(CONTRACT_NAME);
    await expectAccessible(page, testInfo, 'contracts');
    await screenshot(page, testInfo, 'contracts-1280');
    await page.getByRole('button', { name: '新建合同' }).click();
    await dialog(page, '新建合同').getByRole('button', { name: '创建' }).click();
    await expect(dialog(page, '新建合同').getByText('请选择客户')).toBeVisible();
    await expectAccessible(page, testInfo, 'contract-dialog');
    await screenshot(page, testInfo, 'contract-dialog-1280');
  });
});

test.describe('demo trader', () => {
  test('sees the demo company with its contracts and customers', async ({ page }, testInfo) => {
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    await expect(page.getByTestId('company')).toHaveText('演示贸易有限公司 (#1)');
    await expect(page.getByRole('table', { name: '合同列表' })).toContainText('铜2701-pricer1');
    await expect(page.getByTestId('stat-contracts-total-value')).not.toHaveText('-');
    await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', /^(ok|error)$/);
    await screenshot(page, testInfo, 'demo-contracts-1280');
  });
});
