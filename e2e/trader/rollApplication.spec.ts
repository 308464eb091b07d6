import { expect, test, type Page } from '@playwright/test';
import { openDesk as openCustomerDesk } from '../common/desk';
import { expectNoEnglish } from '../common/english';
import { beijingTradingDay } from '../common/dates';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signIn, toast, traderCall } from './support';

/*
 * 转月 as the customer's application (issue 42 item 3, docs/fixing.md), end to end on the demo company:
 * the customer applies on the desk at 375 px (target month, lots, the live bid/ask of both months and the
 * market's 月差), the trader prices it in the console at 1366 px (月差, 转月费, validity: what the
 * acceptance will do is said before 发出报价), the customer accepts the offer on the desk (the
 * confirmation names the lots, months, new basis and fee), and the roll runs: the old contract keeps its
 * total with the rolled lots shown as rolled out, and the console shows the application 已转月.
 */

const TENANT = 1;
const CUSTOMER = { username: `ra${Date.now() % 100_000}`, password: 'ra-pass-1' };
const DEADLINE = beijingTradingDay(20);
const PHONE = { width: 375, height: 812 };
const CONSOLE = { width: 1366, height: 768 };

interface Instrument {
  symbol: string;
  name: string;
}

async function openDesk(page: Page) {
  const session = await pricerLogin(page.request, TENANT, CUSTOMER.username, CUSTOMER.password);
  await openCustomerDesk(page, TENANT, session, CUSTOMER);
}

test.describe.serial('转月申请: apply on the desk, priced in the console, accepted on the desk', () => {
  test.describe.configure({ timeout: 120_000 });
  let copper: Instrument[] = [];
  let contractId = 0;
  const name = `转月申请铜合同-${CUSTOMER.username}`;

  test('the customer applies from the desk and sees both months’ bid/ask and the market spread (375 px)', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(CONSOLE);
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    const customer = await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', CUSTOMER);
    copper = (await traderCall<{ items: Instrument[] }>(page, '/api/trader/view/instruments', { product_name: '铜' }))
      .items;
    contractId = (
      await traderCall<{ id: number }>(page, '/api/trader/rpc/create-contract', {
        pricer_id: customer.id,
        product_name: '铜',
        instrument_id: copper[0]!.symbol,
        direction: 'BUY',
        total_quantity: 10,
        basis: 150,
        fixing_deadline: DEADLINE,
        name,
      })
    ).id;

    await page.setViewportSize(PHONE);
    await openDesk(page);
    const mine = page.getByTestId('roll-applications');
    await expect(mine).toContainText('暂无转月申请');
    await mine.getByRole('button', { name: '申请转月' }).click();
    const form = page.getByRole('dialog', { name: `申请转月 · ${name}` });
    await form.getByLabel('转入月份').selectOption(copper[1]!.symbol);
    await form.getByLabel('转月数量（手）').fill('6');
    const quote = form.getByTestId('roll-quote');
    await expect(quote).toContainText(`原月 ${copper[0]!.symbol}`);
    await expect(quote).toContainText(`新月 ${copper[1]!.symbol}`);
    await expect(quote.getByRole('columnheader', { name: '买价' })).toBeVisible();
    await expect(form.getByTestId('roll-market-spread')).toHaveText(
      /^市场月差（原月 − 新月）[+-]?[\d,.]+ ~ [+-]?[\d,.]+ 元\/吨$/,
    );
    await expect(form).toContainText('月差和转月费由交易员报价，报价后您确认才会转月');
    await expectNoEnglish(page, 'roll application form', [CUSTOMER.username, /^SHFE\.cu\d+$/]);
    await expectAccessible(page, testInfo, 'desk-roll-apply');
    await screenshot(page, testInfo, 'desk-roll-apply-375');
    await form.getByRole('button', { name: '提交转月申请' }).click();
    await expect(toast(page, '转月申请已提交，等待交易员报价')).toBeVisible();
    const line = mine.getByTestId('roll-application').first();
    await expect(line).toContainText(`6 手 ${copper[0]!.symbol} → ${copper[1]!.symbol}`);
    await expect(line).toContainText('待报价');
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, 'desk-roll-applied-375');
  });

  test('the trader prices it in the console, told what the acceptance will do (1366 px)', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(CONSOLE);
    await signIn(page, demoTrader, '/trader/roll-applications', /\/trader\/roll-applications$/);
    // This customer's one application (the table's rows are no ARIA rows: read the card, press its 报价).
    const [mineApp] = (
      await traderCall<{ items: { id: number }[] }>(page, '/api/trader/view/roll-applications', {
        search: CUSTOMER.username,
      })
    ).items;
    const row = page.getByTestId('roll-applications-card');
    await expect(row).toContainText(CUSTOMER.username);
    await expect(row).toContainText('待报价');
    await expect(row).toContainText('6 手');
    await row.getByTestId(`price-roll-${mineApp!.id}`).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^转月报价 · 申请 #\\d+ · ${name}$`) });
    await expect(dialog.getByTestId('roll-market-spread')).toContainText('市场月差（原月 − 新月）');
    await dialog.getByTestId('price-spread').fill('-20');
    await dialog.getByTestId('price-fee').fill('2');
    await dialog.getByTestId('price-valid').fill('600');
    const effect = dialog.getByTestId('price-roll-effect');
    await expect(effect).toContainText(`客户确认后，把 6 手（30 吨）由 ${copper[0]!.symbol} 转入 ${copper[1]!.symbol}`);
    await expect(effect).toContainText('新基差 +130.00（原基差 +150.00，月差 -20.00）');
    await expect(effect).toContainText('转月费合计 60.00 元');
    await expect(effect).toContainText('报价在 600 秒内有效，过期后客户不能接受，需重新报价');
    await expect(effect).toContainText('报价不影响客户的委托和条件单');
    await expectNoEnglish(page, 'price roll dialog', [demoTrader.username, CUSTOMER.username, /^SHFE\.cu\d+$/]);
    await expectAccessible(page, testInfo, 'console-price-roll');
    await screenshot(page, testInfo, 'console-price-roll-1366');
    await dialog.getByRole('button', { name: '发出报价' }).click();
    await expect(toast(page, '报价已发出，等待客户确认')).toBeVisible();
    await expect(row).toContainText('已报价，待客户确认');
    await expect(row).toContainText('月差 -20.00，转月费 60.00 元');
  });

  test('the customer accepts the offer on the desk and the roll runs; the old total stays (375 px)', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(PHONE);
    await openDesk(page);
    const line = page.getByTestId('roll-application').first();
    await expect(line).toContainText('已报价，待客户确认');
    await expect(line).toContainText('月差 -20.00 元/吨，新基差 +130.00 元/吨');
    await expect(line).toContainText('转月费 2.00 元/吨 × 6 手 = 60.00 元');
    await expect(line).toContainText(/报价有效至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}（北京时间）/);
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, 'desk-roll-offer-375');
    await line.getByRole('button', { name: '接受报价并转月' }).click();
    const confirm = page.getByRole('dialog', { name: '确认转月' });
    await expect(confirm.getByTestId('roll-accept-effect')).toHaveText(
      `确认后 6 手（30 吨）将由 ${copper[0]!.symbol} 转入 ${copper[1]!.symbol} 的新合同，新基差 +130.00 元/吨，收取转月费 60.00 元（记入资金流水）。`,
    );
    await expect(confirm).toContainText('转月不可撤销，原合同的总数量不变，转出的手数记为已转出。');
    await expectAccessible(page, testInfo, 'desk-roll-accept');
    await screenshot(page, testInfo, 'desk-roll-accept-375');
    await confirm.getByRole('button', { name: '确认转月' }).click();
    await expect(toast(page, /^转月完成，新合同 #\d+$/)).toBeVisible();
    // The desk shows the newest contract first (the new month's); the customer goes back to the old one.
    // The old contract keeps its agreed total; the rolled lots show as rolled out, 4 left to fix.
    await page.getByLabel('合同', { exact: true }).selectOption(String(contractId));
    await expect(line).toContainText('已转月');
    await expect(line).toContainText(/已转入新合同 #\d+/);
    await expect(line.getByRole('button', { name: '接受报价并转月' })).toHaveCount(0);
    await expect(page.getByTestId('total')).toContainText('10 手（已转出 6 手）');
    await expect(page.getByTestId('remaining')).toContainText('4 手');
    await expectNoEnglish(page, 'desk after the roll', [CUSTOMER.username, /^SHFE\.cu\d+$/]);
    await page.getByTestId('total').scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, 'desk-rolled-375');
  });

  test('the console shows the application rolled (1366 px)', async ({ page }, testInfo) => {
    await page.setViewportSize(CONSOLE);
    await signIn(page, demoTrader, '/trader/roll-applications', /\/trader\/roll-applications$/);
    const row = page.getByTestId('roll-applications-card');
    // The console's first load after sign-in is slow on a busy machine.
    await expect(row).toContainText(CUSTOMER.username, { timeout: 30_000 });
    await expect(row).toContainText('已转月');
    // No 报价 on a rolled application (the column header 报价 is a sort button too: look for the row's).
    await expect(row.locator('[data-testid^="price-roll-"]')).toHaveCount(0);
    await screenshot(page, testInfo, 'console-roll-applications-1366');
  });
});
