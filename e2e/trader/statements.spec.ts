import { beijingDay, beijingTradingDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import { expect, test, type Page } from '@playwright/test';
import { openDesk } from '../common/desk';
import {
  demoTrader,
  expectAccessible,
  pricerLogin,
  screenshot,
  signIn,
  submitOrder,
  traderCall,
  type PricerSession,
} from './support';

/*
 * Fees are receivables and a statement that balances (issue 41 items 4 and 5, docs/statements.md), on
 * the demo company with a customer of its own: 10,000 元 above a 1-lot fix's margin, a 转月 whose fee is
 * far above that, and still the fix on the contract due tomorrow fills; the trader's 对账单 shows the
 * fees and every balance (funds, fees, lots; the contract never fixed listed too) and waives a fee;
 * the customer disputes the statement from the desk, the trader corrects, the customer confirms.
 * Looked at on a phone (375 px) and a laptop (1366 px).
 */

const TENANT = 1;
const SUFFIX = Date.now() % 100_000;
const CUSTOMER = { username: `dz${SUFFIX}`, password: 'dz-pass-1' };
const FULL_NAME = `对账测试${SUFFIX}铜业有限公司`;
const TODAY = beijingDay();
const MONTH_START = `${TODAY.slice(0, 8)}01`;

let pricerId = 0;
let session: PricerSession;
let rollFee = 0;

const yuan = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Account {
  pricer_id: number;
  balance: number;
  margin_call: boolean;
}
const account = async (page: Page) =>
  (await traderCall<{ items: Account[] }>(page, '/api/trader/view/pricer-accounts')).items.find(
    (a) => a.pricer_id === pricerId,
  )!;

/** The customer's desk in `page`, signed in with the session (as the login page leaves it). */
async function openCustomerPage(page: Page, path: string) {
  await openDesk(page, TENANT, session, { username: CUSTOMER.username, company_name: '演示贸易有限公司' }, path);
}

/** The trader's 对账单 of this month for the customer. */
async function openStatement(page: Page) {
  await page.goto('/trader/statements');
  await page.getByTestId('statement-customer-select').click();
  await page.getByRole('option', { name: FULL_NAME }).click();
  await expect(page.getByTestId('statement-customer')).toHaveText(`客户：${FULL_NAME}`);
}

test.describe.serial('fees and the statement through the screens', () => {
  test.describe.configure({ timeout: 150_000 });

  test('a 转月 fee above the free money does not block the fix on the contract due tomorrow', async ({
    page,
    request,
  }) => {
    await signIn(page, demoTrader);
    pricerId = (await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', CUSTOMER)).id;
    await traderCall(page, '/api/trader/rpc/update-pricer-profile', { user_id: pricerId, full_name: FULL_NAME });
    const copper = await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', {
      product_name: '铜',
    });
    const [near, far] = [copper.items[1]!.symbol, copper.items[2]!.symbol];
    const contract = (extra: Record<string, unknown>) =>
      traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
        pricer_id: pricerId,
        product_name: '铜',
        instrument_id: near,
        direction: 'BUY',
        total_quantity: 20,
        basis: 150,
        margin_rate: 0.1,
        ...extra,
      });
    const due = await contract({ name: `明日到期-${SUFFIX}`, fixing_deadline: beijingTradingDay(1) });
    const toRoll = await contract({ name: `转月-${SUFFIX}`, fixing_deadline: beijingTradingDay(20) });
    await contract({ name: `未点价-${SUFFIX}`, fixing_deadline: beijingTradingDay(20), total_quantity: 6 });
    session = await pricerLogin(request, TENANT, CUSTOMER.username, CUSTOMER.password);
    const snap = (await (
      await request.post('/api/pricer/view/my-data-snapshot', {
        data: {},
        headers: { Authorization: `Bearer ${session.token}` },
      })
    ).json()) as { data: { market_data: Record<string, { last_price: number }> } };
    const last = snap.data.market_data[near]!.last_price;
    // 1 lot's margin at 3 % above the market, and 10,000 元 more.
    const deposit = Math.ceil(((last * 1.03 + 150) * 5 * 0.1 + 10_000) / 1000) * 1000;
    await traderCall(page, '/api/trader/rpc/record-funds', { pricer_id: pricerId, kind: 'deposit', amount: deposit });
    const feePerTon = Math.ceil(deposit / 50 / 10) * 10 + 100; // × 10 lots × 5 吨: above the whole deposit
    const roll = await traderCall<{ to: { fees: number } }>(page, '/api/trader/rpc/roll-contract', {
      contract_id: toRoll.id,
      to_instrument_id: far,
      quantity: 10,
      spread: 0,
      fee_per_unit: feePerTon,
      agreed_via: 'phone',
    });
    rollFee = roll.to.fees;
    expect(rollFee).toBeGreaterThan(deposit);
    await traderCall(page, '/api/trader/rpc/extend-deadline', {
      contract_id: toRoll.id,
      fixing_deadline: beijingTradingDay(25),
      fee: 300,
    });
    expect(await account(page)).toMatchObject({ balance: deposit, margin_call: false });
    const order = await submitOrder(request, session, { contract_id: due.id, quantity: 1, price: 0 });
    await expect
      .poll(
        async () => {
          const res = await request.post('/api/pricer/view/my-orders', {
            data: { filter: `id = ${order.id}` },
            headers: { Authorization: `Bearer ${session.token}` },
          });
          return ((await res.json()) as { data: { items: { status: string }[] } }).data.items[0]!.status;
        },
        { timeout: 20_000 },
      )
      .toBe('FINISHED');
  });

  test('the trader’s 对账单 shows the fees and balances; a fee is waived with a note', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, demoTrader);
    await openStatement(page);
    const fees = page.getByTestId('statement-fees');
    await expect(fees.getByTestId('fees-closing')).toContainText(yuan(rollFee + 300));
    await expect(fees).toContainText(`本期新增${yuan(rollFee + 300)}`);
    for (const id of ['funds-balanced', 'fees-balanced', 'lots-balanced'])
      await expect(page.getByTestId(id)).toHaveText('期初 + 本期变动 = 期末，已核平');
    const contracts = page.getByTestId('statement-contracts');
    await expect(contracts.getByTestId('statement-contract')).toHaveCount(4);
    // The contract never fixed is listed: 0 + 6 − 0 − 0 = 6.
    const cells = (name: string) => contracts.getByRole('row').filter({ hasText: name }).getByRole('cell');
    // 合同 (期货合约 · 方向), 期初未点价, 新增, 本期点价, 转月转出, 期末未点价, 累计已点价, 均价, 金额, 费用
    await expect(cells(`未点价-${SUFFIX}`)).toHaveText([
      new RegExp(`^未点价-${SUFFIX}SHFE\\.cu\\d+ · 买入$`),
      '0',
      '6',
      '0',
      '0',
      '6',
      '0',
      '—',
      '0.00',
      '0.00',
    ]);
    await expect(cells(`明日到期-${SUFFIX}`)).toHaveText([
      /明日到期/,
      '0',
      '20',
      '1',
      '0',
      '19',
      '1',
      /\d/,
      /\d/,
      '0.00',
    ]);
    await expect(
      contracts
        .getByRole('row')
        .filter({ hasText: `转月-${SUFFIX}` })
        .first()
        .getByRole('cell')
        .nth(4),
    ).toHaveText('10');
    await expect(page.getByTestId('statement-response')).toHaveText('待客户确认');
    await screenshot(page, testInfo, 'statement-1366');
    await expectNoEnglish(page, 'statement');
    await expectAccessible(page, testInfo, 'statement');

    // 减免 the 延期费 from the open fees: the note, then the consequence, then it is done.
    const open = page
      .getByTestId('open-fees')
      .getByRole('row')
      .filter({ hasText: FULL_NAME })
      .filter({ hasText: '延期费' });
    await open.getByRole('button', { name: '减免' }).click();
    const dialog = page.getByRole('dialog', { name: '减免费用' });
    await expect(dialog.getByRole('button', { name: '下一步' })).toBeDisabled();
    await dialog.getByTestId('settle-note').fill('老客户减免');
    await dialog.getByRole('button', { name: '下一步' }).click();
    await expect(dialog).toContainText(`将 ${FULL_NAME} 的 300.00 元费用记为已减免`);
    await dialog.getByRole('button', { name: '确认' }).click();
    await expect(page.getByTestId('statement-fee-items').getByRole('row').filter({ hasText: '延期费' })).toContainText(
      '已减免（老客户减免）',
    );
    await expect(page.getByTestId('statement-fees')).toContainText(`已减免-300.00`);
    await expect(page.getByTestId('fees-closing')).toContainText(yuan(rollFee));

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('statement-contracts').getByTestId('statement-contract').first()).toBeVisible();
    await expect(page.getByTestId('statement-contracts')).toContainText(
      '期初 0 + 新增 6 − 点价 0 − 转出 0 = 期末 6 手',
    );
    await screenshot(page, testInfo, 'statement-375');
  });

  test('the customer disputes from the desk, the trader corrects, the customer confirms', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openCustomerPage(page, 'statement');
    await expect(page.getByTestId('statement-customer')).toHaveText(`客户：${FULL_NAME}`);
    await expect(page.getByTestId('statement-fees')).toContainText(yuan(rollFee));
    await page.getByTestId('statement-dispute').click();
    const dispute = page.getByRole('dialog', { name: '对账有异议' });
    await dispute.getByTestId('statement-respond-submit').click();
    await expect(dispute).toContainText('请填写异议说明');
    await dispute.getByTestId('dispute-note').fill('入金少记 1 元');
    await dispute.getByTestId('statement-respond-submit').click();
    await expect(page.getByTestId('statement-response')).toContainText('客户有异议');
    await expect(page.getByTestId('statement-response')).toContainText('入金少记 1 元');
    await expect(page.getByTestId('statement-confirm')).toHaveCount(0);
    await screenshot(page, testInfo, 'customer-statement-disputed-375');
    await expectNoEnglish(page, 'customer statement');

    // The trader sees the dispute and records the missing 1 元.
    const trader = await page.context().newPage();
    await trader.setViewportSize({ width: 1366, height: 900 });
    await signIn(trader, demoTrader);
    await openStatement(trader);
    await expect(trader.getByTestId('statement-response')).toContainText('客户有异议');
    await traderCall(trader, '/api/trader/rpc/record-funds', {
      pricer_id: pricerId,
      kind: 'deposit',
      amount: 1,
      note: '补记',
    });

    await page.reload();
    await expect(page.getByTestId('statement-response')).toHaveText('客户曾答复，但对账单此后有变动，需重新确认');
    await page.getByTestId('statement-confirm').click();
    const confirm = page.getByRole('dialog', { name: '确认对账单' });
    await expect(confirm).toContainText(`确认 ${MONTH_START} 至 ${TODAY} 的对账单无误？`);
    await confirm.getByTestId('statement-respond-submit').click();
    await expect(page.getByTestId('statement-response')).toContainText('客户已确认无误');
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, testInfo, 'customer-statement-confirmed-1366');
    await expectAccessible(page, testInfo, 'customer statement');

    await trader.reload();
    await trader.getByTestId('statement-customer-select').click();
    await trader.getByRole('option', { name: FULL_NAME }).click();
    await expect(trader.getByTestId('statement-response')).toContainText('客户已确认无误');
    // Audited in Chinese.
    await trader.goto('/trader/audit');
    // One action at a time: other suites' fills (成交入账) may fill the log's first page meanwhile.
    const logged = async (action: string, ...texts: string[]) => {
      await trader.getByRole('combobox', { name: '按操作筛选' }).selectOption({ label: action });
      const row = [action, ...texts].reduce((rows, text) => rows.filter({ hasText: text }), trader.getByRole('row'));
      // The log loads slowly on a busy machine: a longer wait, not a timed assertion.
      await expect(row.first()).toBeVisible({ timeout: 30_000 });
    };
    await logged('客户确认对账单', `开始日期: ${MONTH_START}`, `结束日期: ${TODAY}`);
    await logged('客户对账有异议', '备注: 入金少记 1 元');
    await logged('处理应收费用', '备注: 老客户减免');
  });
});
