import { expect, test, type Page } from '@playwright/test';
import { openDesk as openCustomerDesk } from '../common/desk';
import { beijingTradingDay } from '../common/dates';
import { expectNoEnglish } from '../common/english';
import { demoTrader, expectAccessible, pricerLogin, screenshot, signedInBrowser, toast, traderCall } from './support';

/*
 * The 转月 auto-pricing rule's console card (issue 42, docs/roles.md "转月 auto pricing"), at 1366 and 375 px:
 * the admin turns it on from 转月申请 (the confirmation says what turning it on does), a customer applies for a
 * roll on the desk and sees the system's offer at once, and a 交易员-only member sees the rule without 修改规则.
 * The rule is turned off again at the end, so the suite's other roll specs find applications waiting.
 */

const TENANT = 1;
const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
const staff: string[] = [];

async function openDesk(page: Page, customer: { username: string; password: string }) {
  const session = await pricerLogin(page.request, TENANT, customer.username, customer.password);
  await openCustomerDesk(page, TENANT, session, customer);
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.afterAll(async ({ browser }) => {
  const page = await signedInBrowser(browser, SIZES[0], demoTrader);
  await traderCall(page, '/api/trader/rpc/set-roll-auto-pricing', {
    enabled: false,
    max_spread_deviation: 0,
    fee_per_unit: 0,
    valid_seconds: 60,
  });
  for (const user_id of staff) await traderCall(page, '/api/trader/rpc/update-staff', { user_id, status: 'disabled' });
  await page.context().close();
});

for (const size of SIZES) {
  test(`the admin turns auto pricing on; the customer sees the system's offer; a 交易员 cannot edit (${size.width} px)`, async ({
    browser,
  }, testInfo) => {
    const tag = `${size.name}${Date.now() % 100_000}`;
    const customer = { username: `ap${tag}`, password: 'ap-pass-1' };
    const traderOnly = { username: `tr-${tag}`, password: 'trader-pass-1', full_name: `赵交易${size.width}` };

    // The admin turns it on from 转月申请; the confirmation says what turning it on does.
    const admin = await signedInBrowser(browser, size, demoTrader, '/trader/roll-applications');
    const card = admin.getByTestId('roll-auto-pricing');
    await expect(card).toContainText('自动报价规则');
    await card.getByRole('button', { name: '修改规则' }).click();
    const dialog = admin.getByRole('dialog', { name: '修改转月自动报价规则' });
    const on = dialog.getByRole('checkbox', { name: '开启自动报价' });
    if (!(await on.isChecked())) await on.check();
    await dialog.getByLabel('月差偏离上限（元/吨）').fill('500');
    await dialog.getByLabel('手续费（元/吨）').fill('2');
    await dialog.getByLabel('报价有效期（秒，10 ~ 86400）').fill('600');
    const effect = dialog.getByTestId('roll-auto-effect');
    await expect(effect).toContainText(
      '开启后，客户的转月申请在月差偏离不超过 500.00 元/吨时由系统按实时月差自动报价，客户接受后即执行转月',
    );
    await expect(effect).toContainText('自动报价在 600 秒内有效');
    await screenshot(admin, testInfo, `roll-auto-dialog-${size.width}`);
    await dialog.getByRole('button', { name: '保存规则' }).click();
    await expect(toast(admin, '转月自动报价规则已保存')).toBeVisible();
    await expect(card.getByTestId('roll-auto-status')).toHaveText('已开启');
    await expect(card.getByTestId('roll-auto-deviation-value')).toContainText('500.00 元/吨');
    await expect(card.getByTestId('roll-auto-fee-value')).toContainText('2.00 元/吨');
    await expect(card.getByTestId('roll-auto-valid-value')).toContainText('600 秒');
    await expectNoEnglish(admin, 'roll auto pricing card', [demoTrader.username, /^SHFE\.cu\d+$/]);
    await expectAccessible(admin, testInfo, `roll-auto-card-${size.width}`);
    await screenshot(admin, testInfo, `roll-auto-card-${size.width}`);

    // A customer with a copper contract applies on the desk and sees the system's offer at once.
    const pricer = await traderCall<{ id: number }>(admin, '/api/trader/rpc/create-pricer-user', customer);
    const copper = (
      await traderCall<{ items: { symbol: string }[] }>(admin, '/api/trader/view/instruments', { product_name: '铜' })
    ).items;
    const name = `自动报价铜合同-${customer.username}`;
    await traderCall(admin, '/api/trader/rpc/create-contract', {
      pricer_id: pricer.id,
      product_name: '铜',
      instrument_id: copper[0]!.symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 150,
      fixing_deadline: beijingTradingDay(20),
      name,
    });
    const member = await traderCall<{ user_id: string }>(admin, '/api/trader/rpc/create-staff', {
      ...traderOnly,
      roles: ['trader'],
    });
    staff.push(member.user_id);

    const desk = await browser.newPage({ viewport: { width: size.width, height: size.height } });
    await openDesk(desk, customer);
    const mine = desk.getByTestId('roll-applications');
    await mine.getByRole('button', { name: '申请转月' }).click();
    const form = desk.getByRole('dialog', { name: `申请转月 · ${name}` });
    await form.getByLabel('转入月份').selectOption(copper[1]!.symbol);
    await form.getByLabel('转月数量（手）').fill('4');
    await expect(form.getByTestId('roll-market-spread')).toContainText('市场月差（原月 − 新月）');
    await form.getByRole('button', { name: '提交转月申请' }).click();
    await expect(toast(desk, '系统已按实时月差自动报价，请在有效期内确认')).toBeVisible();
    const line = mine.getByTestId('roll-application').first();
    await expect(line).toContainText('已报价，待客户确认');
    await expect(line).toContainText(/月差 [+-]?[\d,.]+ 元\/吨，新基差 [+-]?[\d,.]+ 元\/吨/);
    await expect(line).toContainText('转月费 2.00 元/吨 × 4 手 = 40.00 元');
    await expect(line.getByRole('button', { name: '接受报价并转月' })).toBeVisible();
    await line.scrollIntoViewIfNeeded();
    await screenshot(desk, testInfo, `roll-auto-desk-offer-${size.width}`);
    await desk.context().close();

    // A 交易员-only member reads the rule but has no 修改规则.
    const trader = await signedInBrowser(browser, size, traderOnly, '/trader/roll-applications');
    const seen = trader.getByTestId('roll-auto-pricing');
    await expect(seen.getByTestId('roll-auto-status')).toHaveText('已开启');
    await expect(seen.getByTestId('roll-auto-summary')).toContainText('月差偏离不超过 500.00 元/吨');
    await expect(seen.getByRole('button', { name: '修改规则' })).toHaveCount(0);
    await expectAccessible(trader, testInfo, `roll-auto-trader-${size.width}`);
    await screenshot(trader, testInfo, `roll-auto-trader-${size.width}`);
    await trader.context().close();
    await admin.context().close();
  });
}
