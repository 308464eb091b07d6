import { expect, test } from '@playwright/test';
import { accessToken, demoTrader, pricerLogin, pricerSnapshot, screenshot, signIn, toast, traderCall } from './support';

/*
 * 条件单 in the trader console (docs/conditional-orders.md): the dashboard counts the waiting ones,
 * the 条件单 page lists every conditional order of the tenant in the data table, and 撤销 ends one
 * (its lots go back to the contract).
 */

const TENANT = 1;

interface Page<T> {
  items: T[];
  total_count: number;
}

test.describe.serial('conditional orders in the trader console', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the dashboard counts waiting conditions; the 条件单 table lists them and cancels one', async ({
    page,
    request,
  }, testInfo) => {
    // A customer of the demo company leaves a condition far from the market: it waits.
    const pricer = await pricerLogin(request, TENANT, 'pricer1', 'pricer123');
    const snap = await pricerSnapshot(request, pricer);
    const contract = snap.contracts.find(
      (c) => c.remaining_quantity >= 1 && snap.market_data[c.instrument_id]?.last_price,
    );
    expect(contract).toBeDefined();
    const last = snap.market_data[contract!.instrument_id]!.last_price!;
    const tick = contract!.price_tick;
    const trigger = Math.round(Math.floor((last * 1.1) / tick) * tick * 1e6) / 1e6;
    const created = await request.post('/api/pricer/rpc/create-conditional-order', {
      data: { contract_id: contract!.id, quantity: 1, trigger_op: '>=', trigger_price: trigger },
      headers: { Authorization: `Bearer ${pricer.token}` },
    });
    expect(created.status()).toBe(200);
    const id = ((await created.json()) as { data: { id: number } }).data.id;

    await signIn(page, demoTrader);
    const waiting = await traderCall<Page<unknown>>(page, '/api/trader/view/conditional-orders', {
      status: 'WAITING',
      slice_start: 0,
      slice_end: 0,
    });
    expect(waiting.total_count).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('stat-conditional-waiting-value')).toHaveText(
      new Intl.NumberFormat('zh-CN').format(waiting.total_count),
    );

    await page.getByRole('link', { name: '条件单' }).click();
    await expect(page).toHaveURL(/\/trader\/conditional$/);
    const table = page.getByTestId('conditional-card');
    const cancel = table.getByRole('button', { name: `撤销条件单 ${id}` });
    await expect(cancel).toBeVisible();
    await screenshot(page, testInfo, 'conditional-table');
    await cancel.click();
    await expect(toast(page, '条件单已撤销').first()).toBeVisible();
    await expect(cancel).toHaveCount(0, { timeout: 15_000 });

    const after = await traderCall<Page<{ id: number; status: string; order_id: number | null }>>(
      page,
      '/api/trader/view/conditional-orders',
      { filter: `id = ${id}` },
    );
    expect(after.items).toMatchObject([{ id, status: 'CANCELLED', order_id: null }]);
    // Cancelling again is refused in Chinese, nothing changes.
    const again = await page.request.post('/api/trader/rpc/cancel-conditional-order', {
      data: { id },
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe('条件单已撤销，不能撤销');
  });
});
