import { expect, test } from '@playwright/test';
import { beijingTradingDay } from '../common/dates';
import { signInOnDeskForm } from '../common/desk';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, toast, traderCall } from './support';

/*
 * 授权点价人's 重置密码 (docs/authorised-pricers.md) on a 375 px phone: the trader opens 客户管理 → a
 * customer's 授权点价人, presses 重置密码 on an added person's row, reads what the reset does (their session
 * ends, the customer and the others keep theirs), types the new password twice; the person's old session
 * has ended, the old password is refused, and the person signs in on the desk with the new one.
 */

const TENANT = 1;

test('at 375 px: the trader resets an 授权点价人’s password; the person signs in on the desk with it', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const width = 375;
  const height = 812;
  await page.setViewportSize({ width, height });
  await signIn(page, demoTrader, '/trader/pricers', /\/trader\/pricers$/);
  const customer = {
    username: `rs${Date.now() % 1_000_000}`,
    password: 'rs-pass-1',
    full_name: '重置测试客户有限公司',
    contact_name: '孙经理',
  };
  const user = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', customer);
  await traderCall(page, '/api/trader/rpc/create-contract', {
    pricer_id: user.id,
    product_name: '铜',
    instrument_id: (
      await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', { product_name: '铜' })
    ).items[1]!.symbol,
    direction: 'BUY',
    total_quantity: 10,
    basis: 150,
    fixing_deadline: beijingTradingDay(20),
    margin_rate: 0,
  });
  // The customer accepted the 点价协议 (it covers its persons).
  await pricerLogin(request, TENANT, customer.username, customer.password);
  const person = { name: '周芷若', username: `${customer.username}-zhou`, old: 'zhou-pass-1', fresh: 'zhou-new-22' };
  await traderCall(page, '/api/trader/rpc/add-authorised-pricer', {
    user_id: user.id,
    name: person.name,
    id_type: 'passport',
    id_last4: 'E123',
    phone: '13900139000',
    username: person.username,
    password: person.old,
  });
  const signInApi = (password: string) =>
    request.post('/api/pricer/rpc/pricer-login', {
      data: { tenant_id: TENANT, username: person.username, password },
    });
  const before = await signInApi(person.old);
  expect(before.status()).toBe(200);
  const oldToken = ((await before.json()) as { data: { jwt_token: string } }).data.jwt_token;

  await page.reload();
  const row = page.getByRole('table', { name: '客户列表' }).getByRole('row').filter({ hasText: customer.username });
  await row.getByRole('button', { name: `授权点价人 ${customer.username}` }).click();
  const dialog = page.getByRole('dialog', { name: `授权点价人 · ${customer.full_name}` });
  const card = dialog.getByRole('listitem', { name: person.name });
  const reset = card.getByRole('button', { name: `重置密码 ${person.name}` });
  // The row's three buttons stay inside the dialog on a phone.
  for (const name of [`编辑 ${person.name}`, `重置密码 ${person.name}`, `停用 ${person.name}`])
    await expect(card.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, `authorised-reset-list-${width}`);
  await reset.click();

  const form = page.getByRole('dialog', { name: `重置密码：${person.username}` });
  await expect(form).toContainText(
    `重置后，${person.name}（登录账号 ${person.username}）须用新密码登录，其当前登录的点价端会立即退出；客户和其他点价人不受影响。`,
  );
  await form.getByLabel('新密码').fill(person.fresh);
  await form.getByLabel('确认密码').fill('zhou-new-2x');
  await form.getByRole('button', { name: '重置' }).click();
  await expect(form.getByText('两次输入的密码不一致')).toBeVisible();
  await form.getByLabel('确认密码').fill(person.fresh);
  await screenshot(page, testInfo, `authorised-reset-form-${width}`);
  await expectAccessible(page, testInfo, `authorised-reset-form-${width}`);
  await form.getByRole('button', { name: '重置' }).click();
  await expect(toast(page, '密码已重置')).toBeVisible();
  // Back to the list of the customer's persons.
  await expect(dialog.getByRole('listitem', { name: person.name })).toContainText('授权中');

  // The old session has ended and the old password is refused.
  const ended = await request.post('/api/pricer/view/my-data-snapshot', {
    data: {},
    headers: { Authorization: `Bearer ${oldToken}` },
  });
  expect(ended.status()).toBe(401);
  expect((await signInApi(person.old)).status()).toBe(401);

  // The person signs in on the desk with the new password, as themselves.
  const desk = await page.context().browser()!.newContext({ viewport: { width, height } });
  const phone = await desk.newPage();
  await signInOnDeskForm(phone, TENANT, person.username, person.fresh);
  await expect(phone.getByTestId('signed-in-person')).toHaveText(`点价人：${person.name}`);
  await screenshot(phone, testInfo, `authorised-reset-desk-${width}`);
  await desk.close();
});
