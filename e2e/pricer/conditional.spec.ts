import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  apiSession,
  lastPrice,
  openSignedIn,
  pickContract,
  roundToTick,
  screenshot,
  snapshot,
  TENANT,
  toast,
  waitForOrder,
  type Contract,
} from './support';

/*
 * 条件单 on the desk (docs/conditional-orders.md): the order form's third type, validated in Chinese;
 * a condition the simulated market meets fires exactly one fixing order, which fills; a cancelled
 * one never fires. Conditions already met at creation trigger at the next tick (the simulated
 * market ticks every 500 ms), so the test does not wait for the market to wander.
 */

const DESK = `/pricer/${TENANT}/dashboard`;

interface ConditionalRow {
  id: number;
  status: string;
  order_id: number | null;
  contract_id: number;
}

async function myConditionals(request: APIRequestContext, token: string, contractId: number) {
  const res = await request.post('/api/pricer/view/my-conditional-orders', {
    data: { contract_id: contractId, slice_start: 0, slice_end: 100 },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { items: ConditionalRow[] } }).data.items;
}

async function openConditionalForm(page: Page, contract: Contract) {
  await page.getByLabel('合同').selectOption(String(contract.id));
  await page.getByRole('button', { name: '点价' }).click();
  await page.getByRole('radiogroup', { name: '订单类型' }).getByText('条件单', { exact: true }).click();
  await expect(page.getByRole('form', { name: '条件单' })).toBeVisible();
}

/** Fills and sends the 条件单 form; answers the condition's id. */
async function placeConditional(
  page: Page,
  lots: number,
  op: '≥' | '≤',
  trigger: number,
  firesAtOnce = false,
): Promise<number> {
  const form = page.getByRole('form', { name: '条件单' });
  await form.getByLabel('成交数量（手）').fill(String(lots));
  await form.getByRole('radiogroup', { name: '触发条件' }).getByText(`最新价 ${op}`, { exact: true }).click();
  await form.getByRole('textbox', { name: '触发价', exact: true }).fill(String(trigger));
  await form.getByRole('button', { name: '提交条件单' }).click();
  // The confirmation first (issue 29).
  const sheet = page.getByRole('dialog', { name: '确认条件单' });
  await expect(sheet.getByTestId('confirm-trigger')).toContainText(`最新价 ${op}`);
  // A trigger the last price already meets: the sheet says it fires at once.
  await expect(sheet.getByTestId('confirm-fires-at-once')).toHaveCount(firesAtOnce ? 1 : 0);
  if (firesAtOnce)
    await expect(sheet.getByTestId('confirm-fires-at-once')).toContainText('提交后将在下一笔行情时立即触发点价');
  const answer = page.waitForResponse('**/api/pricer/rpc/create-conditional-order');
  await sheet.getByRole('button', { name: '确认提交条件单' }).click();
  const res = await answer;
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number; status: string } };
  expect(data.status).toBe('WAITING');
  await expect(toast(page, '条件单已提交')).toBeVisible();
  return data.id;
}

const row = (page: Page, id: number) =>
  page.getByTestId('conditional-orders').locator(`tr[data-conditional-id="${id}"]`);

test.describe.serial('conditional orders on the desk', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the form refuses what the server would, in Chinese, before anything is sent', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 2);
    await openSignedIn(page, session, DESK);
    await openConditionalForm(page, contract);
    const form = page.getByRole('form', { name: '条件单' });
    const submit = form.getByRole('button', { name: '提交条件单' });
    // The trigger defaults to the customer's favourable side: a buyer waits for ≤, a seller for ≥.
    await expect(
      form.getByRole('radio', { name: contract.direction === 'BUY' ? '最新价 ≤' : '最新价 ≥' }),
    ).toBeChecked();

    await form.getByLabel('成交数量（手）').fill(String(contract.remaining_quantity + 1));
    await expect(form.getByText(`成交数量不能超过剩余数量（剩余 ${contract.remaining_quantity} 手）`)).toBeVisible();
    await form.getByLabel('成交数量（手）').fill('1');
    const last = lastPrice(snap, contract);
    await form
      .getByRole('textbox', { name: '触发价', exact: true })
      .fill(String(roundToTick(last, contract.price_tick) + contract.price_tick / 2));
    await expect(form.getByText(/^触发价必须是最小变动价位 [\d,.]+ 的整数倍$/)).toBeVisible();
    await expect(submit).toBeDisabled();
    await form.getByRole('radiogroup', { name: '触发后委托' }).getByText('限价', { exact: true }).click();
    await form.getByRole('textbox', { name: '委托价', exact: true }).fill('');
    await form.getByRole('textbox', { name: '委托价', exact: true }).blur();
    await expect(form.getByText('限价单必须有有效价格')).toBeVisible();
    await form.getByLabel('有效期至（北京时间，可不填）').fill('2020-01-01T10:00');
    await expect(form.getByText('有效期必须晚于当前时间')).toBeVisible();
    await expect(submit).toBeDisabled();

    // Back to the other types: the order form returns.
    await page.getByRole('radiogroup', { name: '订单类型' }).getByText('市价', { exact: true }).click();
    await expect(page.getByRole('button', { name: '提交订单' })).toBeVisible();
  });

  test('a condition the market meets fires one fixing order, which fills', async ({ page, request }, testInfo) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 2);
    const last = lastPrice(snap, contract);
    await openSignedIn(page, session, DESK);
    await openConditionalForm(page, contract);
    // Already met (last ≥ 5 % below it): triggers at the next tick, as a market order.
    const met = roundToTick(last * 0.95, contract.price_tick);
    const id = await placeConditional(page, 1, '≥', met, true);

    await expect(row(page, id).getByTestId('conditional-status')).toHaveText('已触发', { timeout: 20_000 });
    const [k] = (await myConditionals(request, session.token, contract.id)).filter((r) => r.id === id);
    expect(k?.order_id).toBeGreaterThan(0);
    await expect(row(page, id).getByTestId('conditional-order')).toHaveText(`#${k!.order_id}`);
    const order = await waitForOrder(request, session.token, k!.order_id!, ['FINISHED']);
    expect(order.volume_orign).toBe(1);
    // Exactly one order came of it, and it shows in the contract's orders.
    const all = await myConditionals(request, session.token, contract.id);
    expect(all.filter((r) => r.order_id === k!.order_id)).toHaveLength(1);
    await expect(page.locator(`tr[data-order-id="${k!.order_id}"]`)).toBeVisible({ timeout: 12_000 });
    await screenshot(page, testInfo, 'conditional-triggered');
  });

  test('a cancelled condition gives its lots back and never fires', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 2);
    const last = lastPrice(snap, contract);
    await openSignedIn(page, session, DESK);
    await openConditionalForm(page, contract);
    // Far from the market (10 % below, '≤'): it waits.
    const far = roundToTick(last * 0.9, contract.price_tick);
    const before = contract.remaining_quantity;
    const id = await placeConditional(page, 2, '≤', far);
    await expect(row(page, id).getByTestId('conditional-status')).toHaveText('等待触发');
    await expect(page.getByTestId('remaining')).toHaveText(`${before - 2} 手`, { timeout: 12_000 });

    await row(page, id)
      .getByRole('button', { name: `撤销条件单 ${id}` })
      .click();
    await expect(toast(page, '条件单已撤销')).toBeVisible();
    await expect(row(page, id).getByTestId('conditional-status')).toHaveText('已撤销', { timeout: 12_000 });
    await expect(page.getByTestId('remaining')).toHaveText(`${before} 手`, { timeout: 12_000 });
    const [k] = (await myConditionals(request, session.token, contract.id)).filter((r) => r.id === id);
    expect(k).toMatchObject({ status: 'CANCELLED', order_id: null });
  });
});
