import { expect, test, type Page } from '@playwright/test';
import { newCustomerWithContract } from '../common/customers';
import { fixUntilFilled, signInOnDeskForm, SUBMIT } from '../common/desk';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, toast } from './support';

/*
 * 授权点价人 (issue 43 item 4, docs/authorised-pricers.md) on a 375 px phone and a 1366 px laptop: the
 * trader opens 客户管理 → a customer's 授权点价人 (the customer's first login is listed as the first),
 * adds a second person with their own login; that person signs in on the desk, which shows who is
 * fixing, fixes, and the confirmation names them; the trader then 停用 them after a confirmation that
 * says what happens (their session ends, their 条件单 are kept), and their next sign-in is refused.
 */

const TENANT = 1;

/** A new customer of the demo company, its 联系人 钱经理, with a copper contract. */
const newCustomer = async (page: Page, width: number) =>
  (
    await newCustomerWithContract(page, {
      username: `sq${width}${Date.now() % 100_000}`,
      password: 'sq-pass-1',
      full_name: `授权测试客户${width}有限公司`,
      contact_name: '钱经理',
    })
  ).customer;

for (const width of [375, 1366]) {
  test(`at ${width} px: the trader adds a 授权点价人, who signs in, fixes and is named on the confirmation; 停用 refuses them`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(150_000);
    const height = width < 600 ? 812 : 900;
    await page.setViewportSize({ width, height });
    await signIn(page, demoTrader, '/trader/pricers', /\/trader\/pricers$/);
    const customer = await newCustomer(page, width);
    // The customer accepted the 点价协议 (the agreement suite walks that gate); it covers all its persons.
    await pricerLogin(request, TENANT, customer.username, customer.password);
    const person = { name: `赵敏${width}`, username: `${customer.username}-zhao`, password: 'zhao-pass-1' };

    // 客户管理 → the customer's 授权点价人: the first login is listed, named by its 联系人.
    await page.reload();
    const row = page.getByRole('table', { name: '客户列表' }).getByRole('row').filter({ hasText: customer.username });
    await row.getByRole('button', { name: `授权点价人 ${customer.username}` }).click();
    const dialog = page.getByRole('dialog', { name: `授权点价人 · ${customer.full_name}` });
    const first = dialog.getByRole('listitem', { name: '钱经理' });
    await expect(first).toContainText('授权中');
    await expect(first).toContainText('客户首个登录');
    await expect(first).toContainText(`登录账号 ${customer.username}`);

    // 新增: a full ID number is refused by the form; the last 4 are kept.
    await dialog.getByRole('button', { name: '新增授权点价人' }).click();
    const form = page.getByRole('dialog', { name: '新增授权点价人' });
    await form.getByLabel('姓名').fill(person.name);
    await form.getByTestId('person-id-type').click();
    await page.getByRole('option', { name: '身份证' }).filter({ visible: true }).first().click();
    await form.getByLabel('证件号后 4 位').fill('12X');
    await form.getByLabel('手机号').fill('13800138000');
    await form.getByLabel('登录账号').fill(person.username);
    await form.getByLabel('初始密码').fill(person.password);
    await expect(form).toContainText(`为 ${customer.full_name} 点价、下条件单`);
    await form.getByRole('button', { name: '保存' }).click();
    await expect(form.getByText('证件号后 4 位（id_last4）必须是 4 位数字或字母，不要填写完整证件号')).toBeVisible();
    await form.getByLabel('证件号后 4 位').fill('123X');
    await screenshot(page, testInfo, `authorised-add-${width}`);
    await form.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, `已新增授权点价人 ${person.name}`)).toBeVisible();
    const second = dialog.getByRole('listitem', { name: person.name });
    await expect(second).toContainText('身份证 尾号 123X');
    await expect(second).toContainText(`登录账号 ${person.username}`);
    await screenshot(page, testInfo, `authorised-list-${width}`);
    await expectAccessible(page, testInfo, `authorised-list-${width}`);
    // The tablet's and the wide screen's look of the same list (the laptop run takes them).
    if (width === 1366) {
      for (const other of [820, 1920]) {
        await page.setViewportSize({ width: other, height: 900 });
        await expect(second).toBeVisible();
        await screenshot(page, testInfo, `authorised-list-${other}`);
      }
      await page.setViewportSize({ width, height });
    }
    await dialog.getByRole('button', { name: '完成' }).click();

    // The person signs in on the desk with their own login: the desk names them; they fix.
    const desk = await page.context().browser()!.newContext({ viewport: { width, height } });
    const phone = await desk.newPage();
    await signInOnDeskForm(phone, TENANT, person.username, person.password);
    await expect(phone.getByTestId('signed-in-person')).toHaveText(`点价人：${person.name}`);
    const token = await phone.evaluate(() => localStorage.getItem('pricer_token')!);
    const orderId = await fixUntilFilled(phone, request, token);
    await screenshot(phone, testInfo, `authorised-desk-${width}`);
    await phone.goto(`/pricer/${TENANT}/history`);
    await phone.getByTestId(`confirmation-${orderId}`).first().click();
    const doc = phone.getByTestId('confirmation');
    await expect(doc.locator('[data-field="客户"]')).toHaveText(customer.full_name);
    await expect(doc.locator('[data-field="点价人"]')).toHaveText(person.name);
    await screenshot(phone, testInfo, `authorised-confirmation-${width}`);
    // Back on the desk (live: pushed, not polled) while the trader switches them off.
    await phone.goto(`/pricer/${TENANT}/dashboard`);
    await expect(phone.getByTestId('signed-in-person')).toHaveText(`点价人：${person.name}`);

    // 停用: the confirmation says what happens; then their session ends and sign-in is refused.
    await row.getByRole('button', { name: `授权点价人 ${customer.username}` }).click();
    await dialog
      .getByRole('listitem', { name: person.name })
      .getByRole('button', { name: `停用 ${person.name}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `停用 ${person.name} 的点价授权？` });
    await expect(confirm).toContainText(`停用后，${person.name}（登录账号 ${person.username}）不能再点价、下条件单`);
    await expect(confirm).toContainText('其本人登录的点价端会立即退出，且不能再登录。');
    await expect(confirm).toContainText('其没有等待中的条件单。');
    await screenshot(page, testInfo, `authorised-deactivate-${width}`);
    await confirm.getByRole('button', { name: '确认停用' }).click();
    await expect(toast(page, `已停用 ${person.name} 的点价授权`)).toBeVisible();
    await expect(dialog.getByRole('listitem', { name: person.name })).toContainText('已停用');
    // Their desk, still open, is signed out by the live feed, and says why.
    await expect(phone).toHaveURL(new RegExp(`/pricer/${TENANT}/login`));
    await expect(phone.getByTestId('account-disabled')).toHaveText('账户已停用，请联系贸易商');
    const refused = await request.post('/api/pricer/rpc/pricer-login', {
      data: { tenant_id: TENANT, username: person.username, password: person.password },
    });
    expect(refused.status()).toBe(403);
    const ended = await request.post(SUBMIT, {
      data: { contract_id: 1, quantity: 1, price: 0 },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(ended.status()).toBe(401);
    await desk.close();
  });
}
