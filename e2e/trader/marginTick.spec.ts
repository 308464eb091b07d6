import { beijingTradingDay } from '../common/dates';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openDesk as openCustomerDesk } from '../common/desk';
import { demoTrader, pricerLogin, screenshot, signIn, traderCall, type PricerSession } from './support';

/*
 * Calls on the tick (issue 41 item 3, docs/margin.md "Margin calls"): a customer of its own with 4 lots of lead fixed
 * at 10 % margin and ~3,000 元 to spare; the trader's console is closed; the customer's desk is open. The market falls
 * 3 % (the simulated market's shock, SIM_MARKET_HOOKS): with no console open and no read of the accounts, the desk's
 * floating P/L moves with the quotes, it shows the margin-call banner, and its bell gets the call's notification —
 * written by the margin watcher, woken by the tick. Lead is used by no other suite; the market is put back at the end.
 */

const TENANT = 1;
const CUSTOMER = { username: `mt${Date.now() % 100_000}`, password: 'mt-pass-1' };
const MULTIPLIER = 5; // lead: 5 吨 a lot
const LOTS = 4;
const SHIFT = -3;

let symbol = '';
let shifted = false;

async function shiftMarket(request: APIRequestContext, percent: number) {
  const res = await request.post('/api/test/market-shift', { data: { symbol, percent } });
  expect(res.status(), await res.text()).toBe(200);
}

async function pricerPost<T>(request: APIRequestContext, session: PricerSession, url: string, data: unknown) {
  const res = await request.post(url, { data, headers: { Authorization: `Bearer ${session.token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** The customer's desk in `page`, signed in with the session (as the login page leaves it). */
async function openDesk(page: Page, session: PricerSession) {
  await openCustomerDesk(page, TENANT, session, { username: CUSTOMER.username, company_name: '演示贸易有限公司' });
}

test.describe('margin calls on the tick', () => {
  test.describe.configure({ timeout: 150_000 });

  test.afterAll(async ({ request }) => {
    if (shifted) await shiftMarket(request, (1 / (1 + SHIFT / 100) - 1) * 100);
  });

  test('a fall into a call reaches the desk with no console open, and its floating P/L moves', async ({
    page,
    browser,
    request,
  }, testInfo) => {
    // The trader sets the customer up, then closes the console.
    const console = await browser.newPage();
    await signIn(console, demoTrader);
    const pricerId = (await traderCall<{ id: number }>(console, '/api/trader/rpc/create-pricer-user', CUSTOMER)).id;
    const lead = await traderCall<{ items: { symbol: string }[] }>(console, '/api/trader/view/instruments', {
      product_name: '铅',
    });
    symbol = lead.items[1]?.symbol ?? lead.items[0]!.symbol;
    const contract = await traderCall<{ id: number }>(console, '/api/trader/rpc/create-contract', {
      name: `追保即时铅-${CUSTOMER.username}`,
      pricer_id: pricerId,
      product_name: '铅',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 0,
      fixing_deadline: beijingTradingDay(20),
      margin_rate: 0.1,
    });
    const session = await pricerLogin(request, TENANT, CUSTOMER.username, CUSTOMER.password);
    type Snap = {
      contracts: { id: number; executed_quantity: number }[];
      market_data: Record<string, { last_price: number | null }>;
    };
    const snap = () => pricerPost<Snap>(request, session, '/api/pricer/view/my-data-snapshot', {});
    const last = Number((await snap()).market_data[symbol]!.last_price);
    // The margin of LOTS lots and 3,000 元 more (a 3 % fall costs ~10,000).
    await traderCall(console, '/api/trader/rpc/record-funds', {
      pricer_id: pricerId,
      kind: 'deposit',
      amount: Math.ceil(last * MULTIPLIER * LOTS * 0.1) + 3_000,
    });
    await console.close();
    // Market orders until LOTS are fixed (a FAK fills what the book shows).
    const executed = async () => (await snap()).contracts.find((c) => c.id === contract.id)!.executed_quantity;
    for (let attempt = 0; attempt < 6; attempt++) {
      const left = LOTS - (await executed());
      if (left <= 0) break;
      await pricerPost(request, session, '/api/pricer/rpc/submit-order', { contract_id: contract.id, quantity: left });
      await expect.poll(executed, { timeout: 10_000 }).toBeGreaterThan(LOTS - left);
    }
    expect(await executed()).toBe(LOTS);

    await openDesk(page, session);
    const line = page.getByTestId('margin-line');
    // The app's first load (a loaded machine takes a while); the desk is live from then on.
    await expect(line).toContainText('浮动盈亏', { timeout: 30_000 });
    const pnl = line.getByText(/^浮动盈亏 /);
    const before = (await pnl.textContent()) ?? '';
    const bell = page.getByRole('button', { name: /^通知：/ });
    await expect(bell).toBeVisible();
    await expect(page.getByTestId('margin-call-banner')).toHaveCount(0);

    // The market falls: nobody reads an account; the tick wakes the margin watcher.
    shifted = true;
    await shiftMarket(request, SHIFT);
    await expect(page.getByTestId('margin-call-banner')).toContainText(
      /账户处于追加保证金状态，请追加 [\d,.]+ 元后再点价/,
      {
        timeout: 10_000,
      },
    );
    await expect(pnl).not.toHaveText(before);
    await expect(pnl).toHaveText(/^浮动盈亏 ¥-[\d,.]+$/);
    // The watcher's notification, pushed to the bell.
    await expect(bell).toHaveAccessibleName(/^通知：\d+ 条未读$/, { timeout: 10_000 });
    await bell.click();
    await expect(page.getByText('追加保证金通知').first()).toBeVisible();
    await screenshot(page, testInfo, 'margin-call-on-tick-desk');

    // The floating P/L keeps moving with the quotes: a further 1 % fall moves it again.
    const inCall = (await pnl.textContent()) ?? '';
    await shiftMarket(request, -1);
    await expect(pnl).not.toHaveText(inCall);
    await shiftMarket(request, (1 / 0.99 - 1) * 100);
  });
});
