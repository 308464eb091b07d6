import { expect, test } from '@playwright/test';
import { demoTrader, signIn, traderCall } from './support';

/**
 * The trader unlocks a customer locked out by failed logins (issue 30): 解锁 on the customer's row, a
 * confirmation saying what it clears, then the customer signs in with the password they had.
 */
test('解锁 on the customer row: confirmed, then the locked customer signs in at once, audited', async ({ page }) => {
  const username = `lk${Date.now() % 1_000_000}`;
  await signIn(page, demoTrader, '/trader/pricers', /\/trader\/pricers$/);
  await traderCall(page, '/api/trader/rpc/create-pricer-user', { username, password: 'right-pw-1' });
  const login = (password: string) =>
    page.request
      .post('/api/pricer/rpc/pricer-login', { data: { tenant_id: 1, username, password } })
      .then((r) => r.status());
  for (let i = 0; i < 5; i++) expect(await login(`wrong-${i}`)).toBe(401);
  expect(await login('right-pw-1')).toBe(429);

  await page.reload();
  const row = page.getByRole('table', { name: '客户列表' }).getByRole('row').filter({ hasText: username });
  const unlock = row.getByRole('button', { name: `解锁 ${username}` });
  await expect(unlock).toBeInViewport();
  await unlock.click();
  const dialog = page.getByRole('dialog', { name: `解除登录锁定：${username}` });
  await expect(dialog).toContainText('所有地址上记录的失败次数全部清除');
  // Cancelling changes nothing: still locked.
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
  expect(await login('right-pw-1')).toBe(429);

  await unlock.click();
  await dialog.getByRole('button', { name: '解除锁定' }).click();
  await expect(page.getByText('已解除该客户的登录锁定')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await login('right-pw-1')).toBe(200);

  await page.getByRole('link', { name: '审计日志' }).click();
  const audit = page.getByRole('table', { name: '操作记录' });
  await expect(audit.getByRole('row').filter({ hasText: '解除客户登录锁定' }).first()).toBeVisible();
});
