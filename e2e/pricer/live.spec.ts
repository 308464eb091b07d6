import { expect, test } from '@playwright/test';
import {
  apiSession,
  cancelOrder,
  openSignedIn,
  pickContract,
  restingOrder,
  snapshot,
  TENANT,
  toast,
  waitForOrder,
} from './support';

const DESK = `/pricer/${TENANT}/dashboard`;
const SNAPSHOT = '**/api/pricer/view/my-data-snapshot';

test.describe('the live desk (docs/live.md)', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the reference price ticks and a fill arrives by push, with the snapshot poll cut off', async ({
    page,
    request,
  }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    await openSignedIn(page, session, DESK);
    await page.getByLabel('合同').selectOption(String(contract.id));
    const ref = page.getByTestId('reference-price');
    await expect(ref).toContainText(/参考价：¥[\d,]+\.\d{2}/);
    // From here on no snapshot call gets through: whatever changes on the desk came over the socket.
    await page.route(SNAPSHOT, (route) => route.abort('connectionfailed'));

    // Three different readings of the reference price line (price, or the tick's 更新于 time) within 4 s.
    const seen = new Set<string>();
    await expect
      .poll(async () => seen.add((await ref.textContent()) ?? '').size, { timeout: 4_000, intervals: [100] })
      .toBeGreaterThanOrEqual(3);

    // A market order fills at the simulated broker; the desk shows it sooner than the 5 s poll it replaces would,
    // with its snapshot call cut off, so only a push can bring it. Typically 0.05–0.2 s; the bound was 1 s until a CI
    // run missed it with 7–29 threads runnable on the 2 cores (vmstat) — a lost push never arrives at all.
    const pushed = { timeout: 5_000 };
    const remaining = page.getByTestId('remaining');
    const before = (await remaining.textContent()) ?? '';
    await page.getByRole('button', { name: '点价' }).click();
    await page.getByLabel('成交数量（手）').fill('1');
    await page.getByRole('radiogroup').getByText('市价', { exact: true }).click();
    await page.getByRole('button', { name: '提交订单' }).click();
    const answer = page.waitForResponse('**/api/pricer/rpc/submit-order');
    await page.getByRole('dialog', { name: '确认点价' }).getByRole('button', { name: '确认点价' }).click();
    const { data } = (await (await answer).json()) as { data: { id: number } };
    await expect(toast(page, '订单已提交')).toBeVisible();
    await waitForOrder(request, session.token, data.id, ['FINISHED']);
    const row = page.locator(`[data-order-id="${data.id}"]`);
    await expect(row.getByTestId('order-status')).toHaveText('已完成', pushed);
    await expect(row.getByTestId('order-traded')).toHaveText('1 手', pushed);
    // The contract's lots come with the pushed snapshot only (its HTTP call is cut off).
    await expect(remaining).not.toHaveText(before, pushed);
  });

  test('while the socket is down the desk polls every 5 s', async ({ page, request }) => {
    const session = await apiSession(request);
    // The socket is refused: the SPEC's poll takes over.
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => ws.close());
    const polls: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/pricer/view/my-data-snapshot')) polls.push(Date.now());
    });
    await openSignedIn(page, session, DESK);
    await expect(page.getByTestId('reference-price')).toContainText(/参考价：¥[\d,]+\.\d{2}/);
    await expect.poll(() => polls.length, { timeout: 14_000 }).toBeGreaterThanOrEqual(3);
    expect(polls[2]! - polls[1]!).toBeGreaterThan(4000);
  });

  test('an order placed while the desk’s first read of its orders is on its way is read again when it is pushed', async ({
    page,
    request,
  }) => {
    // The contract's first orders read is answered by the server before the order exists and reaches the page only
    // after the pushes that announce it (placed, then resting). Read again on those pushes, it must not be the
    // answer: TanStack Query joins a first load in flight, and a desk with its socket up does not poll.
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    let holding = true;
    let held = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/pricer/view/my-orders', async (route) => {
      if (!holding || (route.request().postDataJSON() as { contract_id?: number }).contract_id !== contract.id)
        return route.continue();
      held++;
      const response = await route.fetch(); // answered by the server now
      await released; // delivered later (a read the page has given up on is dropped)
      await route.fulfill({ response }).catch(() => {});
    });
    // The pushed snapshots, as the desk receives them. From the release on the socket goes quiet (a later push would
    // read the orders again whatever the desk does): only the reads already made can bring the order.
    const pushed: string[] = [];
    await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (!holding) return;
        if (String(message).includes('"snapshot":{')) pushed.push(String(message));
        ws.send(message);
      });
    });
    await openSignedIn(page, session, DESK);
    await page.getByLabel('合同').selectOption(String(contract.id));
    await expect.poll(() => held, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => pushed.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const order = await restingOrder(request, session, snap, contract);
    // Pushed with the order resting (its row would read 执行中).
    await expect
      .poll(() => new RegExp(`\\{"id":${order.id},[^{}]*"status":"ALIVE"`).test(pushed.at(-1) ?? ''), {
        timeout: 10_000,
      })
      .toBe(true);
    // The first answer arrives now, stale, with the reads made on the pushes; the socket falls quiet.
    holding = false;
    release();
    await expect(page.locator(`[data-order-id="${order.id}"]`).getByTestId('order-status')).toHaveText('执行中', {
      timeout: 5_000,
    });
    await cancelOrder(request, session, order.id);
  });
});
