import { expect, test } from '@playwright/test';
import { openDesk, SUBMIT } from '../common/desk';
import { demoTrader, pricerLogin, pricerSnapshot, restingBuyPrice, signIn, toast, traderCall } from './support';

/*
 * Issue 29: the trader may switch the confirm sheet off for an experienced customer (default on).
 * Off, the desk sends a fix at 提交订单 without the sheet; on again, the sheet is back. The demo's
 * pricer2 (no other spec uses it), with a limit order that rests and is cancelled afterwards.
 */

const PROFILE = '/api/trader/rpc/update-pricer-profile';

test('the trader switches the confirm sheet off for a customer: the desk sends without it', async ({
  page,
  browser,
  request,
}) => {
  await signIn(page, demoTrader);
  const users = await traderCall<{ items: { id: number; confirm_before_fix: boolean }[] }>(
    page,
    '/api/trader/view/users',
    { filter: "username = 'pricer2'" },
  );
  const userId = users.items[0]!.id;
  expect(users.items[0]!.confirm_before_fix).toBe(true);
  await traderCall(page, PROFILE, { user_id: userId, confirm_before_fix: false });

  const session = await pricerLogin(request, 1, 'pricer2', 'pricer123');
  const snap = (await pricerSnapshot(request, session)) as unknown as {
    contracts: { id: number; direction: string; not_fixable_reason: string | null; remaining_quantity: number }[];
  };
  const contract = snap.contracts.find(
    (c) => c.direction === 'BUY' && !c.not_fixable_reason && c.remaining_quantity > 0,
  )!;
  const price = await restingBuyPrice(request, session, contract.id);

  const desk = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  try {
    await openDesk(desk, 1, session, { username: 'pricer2', company_name: '演示贸易有限公司' });
    await desk.getByLabel('合同', { exact: true }).selectOption(String(contract.id));
    await desk.getByRole('button', { name: '点价', exact: true }).click();
    await desk.getByLabel('成交数量（手）').fill('1');
    await desk.getByRole('radiogroup', { name: '订单类型' }).getByText('限价', { exact: true }).click();
    await desk.getByLabel('委托价格').fill(String(price));
    const answer = desk.waitForResponse(`**${SUBMIT}`);
    await desk.getByRole('button', { name: '提交订单' }).click();
    // Sent at once: no sheet stood between the click and the order.
    const res = await answer;
    expect(res.status()).toBe(200);
    await expect(desk.getByRole('dialog', { name: '确认点价' })).toHaveCount(0);
    const orderId = ((await res.json()) as { data: { id: number } }).data.id;
    await request.post('/api/pricer/rpc/cancel-order', {
      data: { order_id: orderId },
      headers: { Authorization: `Bearer ${session.token}` },
    });

    // Switched on again: the sheet is back at the next fix (the snapshot carries the setting).
    await traderCall(page, PROFILE, { user_id: userId, confirm_before_fix: true });
    await desk.reload();
    await desk.getByLabel('合同', { exact: true }).selectOption(String(contract.id));
    if (!(await desk.getByRole('button', { name: '收起' }).isVisible()))
      await desk.getByRole('button', { name: '点价', exact: true }).click();
    await desk.getByLabel('成交数量（手）').fill('1');
    await desk.getByRole('radiogroup', { name: '订单类型' }).getByText('限价', { exact: true }).click();
    await desk.getByLabel('委托价格').fill(String(price));
    await desk.getByRole('button', { name: '提交订单' }).click();
    const sheet = desk.getByRole('dialog', { name: '确认点价' });
    await expect(sheet).toBeVisible();
    await sheet.getByRole('button', { name: '取消' }).click();
    await expect(sheet).toBeHidden();
    await expect(toast(desk, '委托已提交')).toHaveCount(0);
  } finally {
    await traderCall(page, PROFILE, { user_id: userId, confirm_before_fix: true });
    await desk.close();
  }
});
