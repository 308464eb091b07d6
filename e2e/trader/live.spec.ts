import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { demoTrader, pricerLogin, pricerSnapshot, restingBuyPrice, signIn, submitOrder } from './support';

/**
 * pricer1, signed in, ready to place a 1-lot buy that rests (below the market) on its first active contract with
 * lots left, and to withdraw it again (the demo's lots stay for the other suites).
 */
async function restingOrder(request: APIRequestContext) {
  const pricer = await pricerLogin(request, 1, 'pricer1', 'pricer123');
  const { contracts } = await pricerSnapshot(request, pricer);
  const contract = contracts.find((c) => c.status === 'active' && c.remaining_quantity > 0);
  if (!contract) throw new Error('no active contract with lots left');
  const price = await restingBuyPrice(request, pricer, contract.id);
  return {
    place: () => submitOrder(request, pricer, { contract_id: contract.id, quantity: 1, price }),
    withdraw: (orderId: number) =>
      request.post('/api/pricer/rpc/cancel-order', {
        data: { order_id: orderId },
        headers: { authorization: `Bearer ${pricer.token}` },
      }),
  };
}

/** The order stream's row of an order: its 订单号 cell. */
const orderCell = (page: Page, id: number) => page.getByRole('cell', { name: String(id), exact: true });

test.describe('the live console (docs/live.md)', () => {
  test('a customer’s new order reaches the order stream by push, not at the next 10 s poll', async ({
    page,
    request,
  }) => {
    await signIn(page, demoTrader);
    const customer = await restingOrder(request);
    // Right after the order stream's own poll: the next one is 10 s away.
    await page.waitForRequest('**/api/trader/view/orders', { timeout: 15_000 });
    const order = await customer.place();
    await expect(orderCell(page, order.id)).toBeVisible({ timeout: 2_000 });
    await customer.withdraw(order.id);
  });

  test('an order placed while the console subscribes is read at once, not at the next 10 s poll', async ({
    page,
    request,
  }) => {
    // The console's subscription waits (its messages held) until the order is in: the version it then answers
    // already counts the order, so no later version announces it.
    const held: (string | Buffer)[] = [];
    let release: (() => void) | undefined;
    let open!: () => void;
    const openGate = new Promise<void>((resolve) => (open = resolve));
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => (release ? server.send(m) : held.push(m)));
      const flush = () => {
        for (const m of held.splice(0)) server.send(m);
      };
      void openGate.then(() => {
        release = flush;
        flush();
      });
    });
    const firstOrders = page.waitForResponse('**/api/trader/view/orders', { timeout: 30_000 });
    await signIn(page, demoTrader);
    await firstOrders;
    const customer = await restingOrder(request);
    const order = await customer.place();
    await expect(orderCell(page, order.id)).toHaveCount(0);
    open();
    await expect(orderCell(page, order.id)).toBeVisible({ timeout: 2_000 });
    await customer.withdraw(order.id);
  });

  test('an order placed while the console’s first reads are on their way is read again when it is pushed', async ({
    page,
    request,
  }) => {
    // The order stream's first reads are answered by the server before the order exists, and reach the page only
    // after the push that announces it. Read again on that push, they must not be the answer (TanStack Query joins
    // a first load in flight instead of reading again: the order waited for the 10 s poll).
    let holding = true;
    let held = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/trader/view/orders', async (route) => {
      if (!holding) return route.continue();
      held++;
      const response = await route.fetch(); // answered by the server now
      await released; // delivered later (a read the page has given up on is dropped)
      await route.fulfill({ response }).catch(() => {});
    });
    const pushed: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const version = /"console":\{"version":"(\d+)"/.exec(String(f.payload))?.[1];
        if (version) pushed.push(version);
      }),
    );
    await signIn(page, demoTrader);
    await expect.poll(() => held, { timeout: 30_000 }).toBeGreaterThan(0);
    const customer = await restingOrder(request);
    const before = pushed.length;
    const order = await customer.place();
    await expect.poll(() => pushed.length, { timeout: 10_000 }).toBeGreaterThan(before);
    // The first answers arrive now, stale; whatever was read after the push goes through the server as it is.
    holding = false;
    release();
    await expect(orderCell(page, order.id)).toBeVisible({ timeout: 5_000 });
    await customer.withdraw(order.id);
  });
});
