import { expect, test, type Page, type Request } from '@playwright/test';
import {
  apiSession,
  cancelOrder,
  holdCancels,
  restingOrder,
  lastPrice,
  limitPrice,
  openSignedIn,
  pickContract,
  roundToTick,
  screenshot,
  snapshot,
  submitOrder,
  TENANT,
  toast,
  waitForOrder,
  type Contract,
} from './support';

const DESK = `/pricer/${TENANT}/dashboard`;
const PRICE_TEXT = /^¥\d{1,3}(,\d{3})*\.\d{2}$/;

async function chooseContract(page: Page, contract: Contract) {
  await page.getByLabel('合同').selectOption(String(contract.id));
  await expect(page.getByText(`合同「${contract.name}」的委托，每 5 秒自动刷新`)).toBeVisible();
}

async function openForm(page: Page) {
  const toggle = page.getByRole('button', { name: '点价' });
  await toggle.click();
  await expect(page.getByRole('button', { name: '收起' })).toHaveAttribute('aria-expanded', 'true');
}

/** Fills and sends the order form; answers the order id the server gave. */
async function placeOrder(page: Page, lots: number, price: number | 'market'): Promise<number> {
  await page.getByLabel('成交数量（手）').fill(String(lots));
  if (price === 'market') {
    await page.getByRole('radiogroup').getByText('市价', { exact: true }).click();
  } else {
    await page.getByRole('radiogroup').getByText('限价', { exact: true }).click();
    await page.getByLabel('委托价格').fill(String(price));
  }
  // The confirmation first (issue 29): nothing is sent before 确认点价.
  let sent = 0;
  const count = (r: Request) => {
    if (r.url().endsWith('/api/pricer/rpc/submit-order')) sent++;
  };
  page.on('request', count);
  await page.getByRole('button', { name: '提交订单' }).click();
  const sheet = page.getByRole('dialog', { name: '确认点价' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByTestId('confirm-lots')).toContainText(`${lots} 手`);
  expect(sent).toBe(0);
  const answer = page.waitForResponse('**/api/pricer/rpc/submit-order');
  // Watched from the click: the toast stays 2 s, which a loaded machine can spend before the checks below.
  const toastShown = toast(page, '订单已提交').waitFor({ state: 'visible', timeout: 15_000 });
  await sheet.getByRole('button', { name: '确认点价' }).click();
  const res = await answer;
  page.off('request', count);
  await expect(sheet).toBeHidden();
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };
  await toastShown;
  // A successful submit collapses the form.
  await expect(page.getByRole('button', { name: '点价' })).toHaveAttribute('aria-expanded', 'false');
  return data.id;
}

test.describe('trading desk', () => {
  // Orders go through the simulated broker; the shared e2e machine can be slow.
  test.describe.configure({ timeout: 120_000 });

  test('shows the first contract, its facts and the reference price', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const first = snap.contracts[0]!;
    // The socket refused: the desk falls back to the SPEC's 5 s poll (live.spec.ts has the pushed desk).
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => ws.close());
    await openSignedIn(page, session, DESK);
    await expect(page.getByLabel('合同')).toHaveValue(String(first.id));
    const option = page.getByLabel('合同').locator(`option[value="${first.id}"]`);
    await expect(option).toHaveText(
      new RegExp(`^${first.name} · ${first.instrument_id.split('.')[1]} · (买入|卖出) · 剩余 [\\d,]+ 手$`),
    );
    await expect(page.getByTestId('remaining')).toHaveText(/^[\d,]+ 手$/);
    const ref = page.getByTestId('reference-price');
    await expect(ref).toContainText(/参考价：¥[\d,]+\.\d{2}/);
    await expect(ref).toContainText(/更新于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    // The orders table polls every 5 s while the socket is down.
    const polls: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/pricer/view/my-orders')) polls.push(Date.now());
    });
    await expect.poll(() => polls.length, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);
    expect(polls[1]! - polls[0]!).toBeGreaterThan(4000);

    // A manual refresh loads both again at once.
    const reloaded = page.waitForRequest('**/api/pricer/view/my-data-snapshot');
    await page.getByRole('button', { name: '刷新' }).click();
    await reloaded;
    await expect(toast(page, '数据已刷新')).toBeVisible();
  });

  test('the order form checks its input; the server refuses too many lots', async ({ page, request }) => {
    const session = await apiSession(request);
    const contract = pickContract(await snapshot(request, session.token));
    await openSignedIn(page, session, DESK);
    await chooseContract(page, contract);
    await openForm(page);
    const submit = page.getByRole('button', { name: '提交订单' });
    await expect(submit).toBeDisabled();

    const remaining = contract.remaining_quantity;
    await page.getByLabel('成交数量（手）').fill(String(remaining + 1));
    await expect(page.getByText(`成交数量不能超过剩余数量（剩余 ${remaining} 手）`)).toBeVisible();
    await expect(submit).toBeDisabled();

    await page.getByLabel('成交数量（手）').fill('1');
    await expect(page.getByText('成交数量不能超过剩余数量')).toHaveCount(0);
    await page.getByLabel('委托价格').focus();
    await page.getByLabel('委托价格').blur();
    await expect(page.getByText('限价单必须有有效价格')).toBeVisible();
    await expect(submit).toBeDisabled();

    // A price on the instrument's grid inside the day's band.
    const snap = await snapshot(request, session.token);
    const onGrid = roundToTick(lastPrice(snap, contract), contract.price_tick);
    await page.getByLabel('委托价格').fill(String(onGrid));
    await expect(submit).toBeEnabled();
    // Choosing market clears the price.
    await page.getByRole('radiogroup').getByText('市价', { exact: true }).click();
    await expect(page.getByLabel('委托价格')).toHaveValue('');
    await expect(page.getByLabel('委托价格')).toBeDisabled();
    await expect(submit).toBeEnabled();

    await page.getByRole('button', { name: '收起' }).click();
    await expect(page.getByRole('button', { name: '点价' })).toHaveAttribute('aria-expanded', 'false');

    // The server holds the same rule, whatever a client sends.
    const answer = await page.evaluate(
      async ({ id, lots }) => {
        const res = await fetch('/api/pricer/rpc/submit-order', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${localStorage.getItem('pricer_token')}`,
          },
          body: JSON.stringify({ contract_id: id, quantity: lots, price: 0 }),
        });
        return { status: res.status, body: (await res.json()) as { error: { message: string; field?: string } } };
      },
      { id: contract.id, lots: remaining + 1 },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/^成交数量不能超过剩余数量/);
    expect(answer.body.error.field).toBe('quantity');
  });

  test('refuses a limit price the exchange would refuse, before sending; the price steps by 0.01 with two decimals', async ({
    page,
    request,
  }, testInfo) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    // A contract whose tick is a whole number of cents above one (half a tick is then off the grid).
    const contract = snap.contracts.find(
      (c) => c.status === 'active' && c.remaining_quantity >= 1 && c.price_tick >= 0.02,
    )!;
    expect(contract).toBeDefined();
    const market = snap.market_data[contract.instrument_id]!;
    expect(market.price_tick).toBe(contract.price_tick);
    expect(market.lower_limit).toBeLessThan(market.last_price!);
    expect(market.upper_limit).toBeGreaterThan(market.last_price!);
    const tick = contract.price_tick;
    const onGrid = roundToTick(market.last_price!, tick);

    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/pricer/rpc/submit-order')) sent.push(r.url());
    });
    await openSignedIn(page, session, DESK);
    await chooseContract(page, contract);
    await openForm(page);
    const price = page.getByLabel('委托价格');
    const submit = page.getByRole('button', { name: '提交订单' });
    await page.getByLabel('成交数量（手）').fill('1');

    await price.fill(String(onGrid + tick / 2));
    await expect(page.getByText('价格不是最小变动价位的整数倍')).toBeVisible();
    await expect(submit).toBeDisabled();
    await price.press('Enter');
    await price.fill(String(roundToTick(market.upper_limit! + tick, tick)));
    await expect(page.getByText('价格超出涨跌停板')).toBeVisible();
    await expect(submit).toBeDisabled();
    await price.fill(String(roundToTick(market.lower_limit! - tick, tick)));
    await expect(page.getByText('价格超出涨跌停板')).toBeVisible();
    await screenshot(page, testInfo, 'desk-price-refused-1280');
    expect(sent).toEqual([]);
    // The band and the tick are named under the field.
    await expect(page.getByText(/^最小变动价位 [\d,.]+ · 涨跌停板 ¥[\d,]+\.\d{2} – ¥[\d,]+\.\d{2}$/)).toBeVisible();

    // 填入参考价: on the grid, two decimals; the arrow key steps by 0.01 (then off the grid).
    await page.getByRole('button', { name: '填入参考价' }).click();
    await expect(price).toHaveValue(PRICE_TEXT);
    await expect(submit).toBeEnabled();
    // The live reference price moves: on the grid and near the price read before is what holds.
    const filled = Number((await price.inputValue()).replace(/[¥,]/g, ''));
    expect(roundToTick(filled, tick)).toBe(filled);
    expect(Math.abs(filled - onGrid) / onGrid).toBeLessThan(0.02);
    await price.press('ArrowUp');
    await expect(price).toHaveValue(`¥${(filled + 0.01).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    await expect(page.getByText('价格不是最小变动价位的整数倍')).toBeVisible();
    await expect(submit).toBeDisabled();
    expect(sent).toEqual([]);
  });

  test('from 375 to 1024 px no status badge is cut and 撤单 stays in view', async ({ page, request }, testInfo) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    // A filled market order too: its price cell (fill over 市价) is the widest a phone shows beside a status.
    const filled = await submitOrder(request, session.token, { contract_id: contract.id, quantity: 1, price: 0 });
    await waitForOrder(request, session.token, filled.id, ['FINISHED']);
    const resting = await restingOrder(request, session, snap, contract);
    try {
      await openSignedIn(page, session, DESK);
      await chooseContract(page, contract);
      const row = page.locator(`[data-order-id="${resting.id}"]`);
      await expect(page.locator(`[data-order-id="${filled.id}"]`).getByTestId('order-status')).toHaveText('已完成');
      for (const width of [375, 768, 820, 900, 1024]) {
        await page.setViewportSize({ width, height: 1000 });
        await expect(row.getByTestId('order-status')).toHaveText('执行中');
        const cut = await page.locator('[data-testid="order-status"], [data-testid="conditional-status"]').evaluateAll(
          (badges) =>
            badges.filter((b) => {
              const label = b.querySelector('.mantine-Badge-label') ?? b;
              return label.scrollWidth > label.clientWidth || b.scrollWidth > b.clientWidth;
            }).length,
        );
        expect(cut, `truncated badges at ${width}`).toBe(0);
        const cancel = row.getByRole('button', { name: '撤单' });
        await expect(cancel).toBeVisible();
        const box = (await cancel.boundingBox())!;
        expect(box.x + box.width, `撤单 at ${width}`).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, testInfo, `desk-${width}`);
      }
    } finally {
      await cancelOrder(request, session, resting.id);
    }
  });

  test('a marketable limit order and a market order fill', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 2);
    await openSignedIn(page, session, DESK);
    await chooseContract(page, contract);

    // BUY fills when limit ≥ ask, SELL when limit ≤ bid: 2% through the last price.
    await openForm(page);
    const price = limitPrice(contract, lastPrice(snap, contract), 0.02, true);
    const limitId = await placeOrder(page, 1, price);
    const limitRow = page.locator(`[data-order-id="${limitId}"]`);
    await expect(limitRow).toBeVisible();
    await expect(limitRow.getByTestId('order-status')).toHaveText('已完成', { timeout: 20_000 });
    await expect(limitRow.getByTestId('order-traded')).toHaveText('1 手');
    await expect(limitRow.getByTestId('order-trade-price')).toHaveText(PRICE_TEXT);
    const filled = await waitForOrder(request, session.token, limitId, ['FINISHED']);
    // A limit order never fills worse than its limit.
    if (contract.direction === 'BUY') expect(filled.trade_price).toBeLessThanOrEqual(price);
    else expect(filled.trade_price).toBeGreaterThanOrEqual(price);

    await openForm(page);
    const marketId = await placeOrder(page, 1, 'market');
    const marketRow = page.locator(`[data-order-id="${marketId}"]`);
    await expect(marketRow.getByTestId('order-status')).toHaveText('已完成', { timeout: 20_000 });
    await expect(marketRow.getByTestId('order-trade-price')).toHaveText(PRICE_TEXT);
    await expect(marketRow).toContainText('市价');

    // The contract's executed lots grew by the two fills.
    await expect
      .poll(
        async () =>
          (await snapshot(request, session.token)).contracts.find((c) => c.id === contract.id)?.executed_quantity,
      )
      .toBe(contract.executed_quantity + 2);
    // Filled orders cannot be cancelled.
    await expect(limitRow.getByRole('button', { name: '撤单' })).toHaveCount(0);
  });

  test('a resting order is cancelled and its lots return', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    const remaining = contract.remaining_quantity;
    await openSignedIn(page, session, DESK);
    await chooseContract(page, contract);
    await expect(page.getByTestId('remaining')).toHaveText(`${remaining.toLocaleString('en-US')} 手`);

    await openForm(page);
    const price = limitPrice(contract, lastPrice(snap, contract), 0.03, false);
    const id = await placeOrder(page, 1, price);
    await expect(page.getByTestId('remaining')).toHaveText(`${(remaining - 1).toLocaleString('en-US')} 手`);
    const row = page.locator(`[data-order-id="${id}"]`);
    await expect(row.getByTestId('order-status')).toHaveText('执行中', { timeout: 20_000 });

    // Hold the cancel on its way to the server to see the in-flight state.
    const cancels = await holdCancels(page);
    await row.getByRole('button', { name: '撤单' }).click();
    await expect(row.getByRole('button', { name: '撤单中...' })).toBeDisabled();
    await expect(row).toHaveAttribute('aria-disabled', 'true');
    cancels.release();
    await expect(toast(page, '撤单请求已提交')).toBeVisible();
    await expect(row.getByTestId('order-status')).toHaveText('已撤销', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: /撤单/ })).toHaveCount(0);
    await expect(page.getByTestId('remaining')).toHaveText(`${remaining.toLocaleString('en-US')} 手`, {
      timeout: 10_000,
    });
    await cancels.restore();
  });

  test('a cancel the server refuses shows its message', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    await openSignedIn(page, session, DESK);
    await chooseContract(page, contract);
    await openForm(page);
    const id = await placeOrder(page, 1, limitPrice(contract, lastPrice(snap, contract), 0.03, false));
    const row = page.locator(`[data-order-id="${id}"]`);
    await expect(row.getByTestId('order-status')).toHaveText('执行中', { timeout: 20_000 });

    // The desk's cancel is held until the order was cancelled elsewhere, so it arrives too late.
    const cancels = await holdCancels(page);
    await row.getByRole('button', { name: '撤单' }).click();
    await cancelOrder(request, session, id);
    const refused = page.waitForResponse('**/api/pricer/rpc/cancel-order');
    cancels.release();
    expect((await refused).status()).toBe(409);
    await expect(toast(page, '订单已结束，不能撤单')).toBeVisible();
    await expect(row.getByTestId('order-status')).toHaveText('已撤销', { timeout: 10_000 });
    await cancels.restore();
  });

  test('a failed load says 订单数据加载失败 and the desk recovers on the next poll', async ({ page, request }) => {
    const session = await apiSession(request);
    // The network drops the snapshot calls and the live socket (the server itself is untouched).
    await page.route('**/api/pricer/view/my-data-snapshot', (route) => route.abort('connectionfailed'));
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => ws.close());
    await openSignedIn(page, session, DESK);
    await expect(toast(page, '订单数据加载失败')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('alert').filter({ hasText: '订单数据加载失败' })).toBeVisible();
    await page.unroute('**/api/pricer/view/my-data-snapshot');
    await expect(page.getByLabel('合同')).toBeVisible({ timeout: 15_000 });
    // Still signed in: a network failure is not an auth error.
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('below 768 px the orders table uses compact columns', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openSignedIn(page, await apiSession(request), DESK);
    const table = page.getByRole('table', { name: '委托记录' });
    await expect(table.locator('thead th')).toHaveText(['时间', '数量', '价格', '状态', '操作']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(table.locator('thead th')).toHaveText([
      '时间',
      '方向',
      '委托数量',
      '成交数量',
      '委托价',
      '成交价',
      '状态',
      '备注',
      '操作',
    ]);
  });
});
