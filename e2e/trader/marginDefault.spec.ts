import { beijingTradingDay, typeDay } from '../common/dates';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openDesk as openCustomerDesk } from '../common/desk';
import {
  demoTrader,
  expectAccessible,
  pricerLogin,
  screenshot,
  signIn,
  toast,
  traderCall,
  type PricerSession,
} from './support';

/*
 * Issue 41 §1–2 (docs/margin.md "Which rate a contract gets", "Value"), on the demo company (10 % by
 * default): the create form offers the default and asks to confirm a typed 0; the contracts list, the
 * desk and the confirm sheet show the rate; two new customers with fixed lots and nothing deposited hold
 * margin (before: 正常 with 浮动盈亏 0); 资金与保证金 and the contract's 详情 show value and floating P/L.
 * Lead (铅, 5 吨 a lot) is this suite's own product; the market is put back at the end.
 */

const TENANT = 1;
const stamp = Date.now() % 100_000;
const A = { username: `md${stamp}a`, password: 'md-pass-1', full_name: `甲铅业${stamp}有限公司` };
const B = { username: `md${stamp}b`, password: 'md-pass-1', full_name: `乙铅业${stamp}有限公司` };
const NAME = (who: string) => `铅合同-${who}`;
const ZERO_NAME = `铅合同-不收-${B.username}`;
const MULTIPLIER = 5;
const BASIS = 100;
const LOTS = 2;

interface Value {
  contract_id: number;
  pricer_id: number;
  margin_rate: number;
  open_lots: number;
  basis: number;
  fixed_futures_price: number | null;
  fixed_price: number | null;
  market_futures_price: number | null;
  fixed_value: number;
  market_value: number | null;
  pnl_per_unit: number | null;
  floating_pnl: number | null;
}

let symbol = '';
const ids: Record<string, number> = {};
const contracts: Record<string, number> = {};
const sessions: Record<string, PricerSession> = {};
let shifted = 0;

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
const yuan = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function choose(page: Page, select: ReturnType<Page['getByTestId']>, option: string | RegExp) {
  await select.click();
  await page.getByRole('option', { name: option }).filter({ visible: true }).first().click();
}

async function shiftMarket(request: APIRequestContext, percent: number) {
  const res = await request.post('/api/test/market-shift', { data: { symbol, percent } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Marketable limit fixes until `lots` are filled (the simulated book may be thin for a moment). */
async function fix(request: APIRequestContext, who: string, lots: number) {
  const session = sessions[who]!;
  let filled = 0;
  for (let attempt = 0; attempt < 8 && filled < lots; attempt++) {
    const snap = await request.post('/api/pricer/view/my-data-snapshot', {
      data: {},
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const data = ((await snap.json()) as { data: { market_data: Record<string, { last_price: number }> } }).data;
    const price = Math.ceil((data.market_data[symbol]!.last_price * 1.01) / 5) * 5;
    const res = await request.post('/api/pricer/rpc/submit-order', {
      data: { contract_id: contracts[who], quantity: lots - filled, price },
      headers: { Authorization: `Bearer ${session.token}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    const id = ((await res.json()) as { data: { id: number } }).data.id;
    await expect
      .poll(
        async () => {
          const r = await request.post('/api/pricer/view/my-orders', {
            data: { filter: `id = ${id}` },
            headers: { Authorization: `Bearer ${session.token}` },
          });
          const o = ((await r.json()) as { data: { items: Record<string, unknown>[] } }).data.items[0]!;
          if (o.status !== 'FINISHED' && o.status !== 'CANCELLED') return false;
          filled += Number(o.volume_traded);
          return true;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  }
  expect(filled).toBe(lots);
}

async function openDesk(page: Page, who: typeof A) {
  const session = sessions[who.username]!;
  await openCustomerDesk(page, TENANT, session, { username: who.username, company_name: '演示贸易有限公司' });
}

test.describe.serial('margin on by default, value for every contract', () => {
  test.describe.configure({ timeout: 150_000 });

  test.afterAll(async ({ request }) => {
    if (shifted && symbol) await shiftMarket(request, (1 / (1 + shifted / 100) - 1) * 100);
  });

  test('the create form offers the company’s 10 % and asks to confirm a typed 0; the list shows the rate', async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, demoTrader, '/trader/contracts', /\/trader\/contracts$/);
    for (const who of [A, B]) {
      ids[who.username] = (await traderCall<{ id: number }>(page, '/api/trader/rpc/create-pricer-user', who)).id;
      sessions[who.username] = await pricerLogin(request, TENANT, who.username, who.password);
    }
    const lead = await traderCall<{ items: { symbol: string }[] }>(page, '/api/trader/view/instruments', {
      product_name: '铅',
    });
    symbol = lead.items[1]?.symbol ?? lead.items[0]!.symbol;
    await page.reload();

    const create = async (who: typeof A, name: string, zero: boolean) => {
      await page.getByRole('button', { name: '新建合同' }).click();
      const form = dialog(page, '新建合同');
      await choose(page, form.getByTestId('contract-pricer'), who.username);
      await choose(page, form.getByTestId('contract-product'), /^铅$/);
      await choose(page, form.getByTestId('contract-instrument'), new RegExp(symbol.replace('.', '\\.')));
      await choose(page, form.getByTestId('contract-direction'), '买入');
      await form.getByTestId('contract-quantity').fill('10');
      await form.getByTestId('contract-basis').fill(String(BASIS));
      await typeDay(form.getByTestId('contract-deadline'), beijingTradingDay(20));
      await form.getByLabel('合同名称').fill(name);
      // The company's default, said where it comes from.
      await expect(form.getByTestId('contract-margin-rate')).toHaveValue('10%');
      await expect(form.getByText('默认 10%（公司默认）；已点价的手数按此比例占用保证金')).toBeVisible();
      if (zero) {
        await form.getByTestId('contract-margin-rate').fill('0');
        await form.getByRole('button', { name: '创建' }).click();
        await expect(form.getByText('保证金比例为 0，请勾选“确认不收保证金”')).toBeVisible();
        await expect(
          form.getByText('比例为 0：该合同点价后不占用保证金，行情不利时也不会触发追加保证金'),
        ).toBeVisible();
        await screenshot(page, testInfo, 'margin-default-zero-confirm-1366');
        await expectAccessible(page, testInfo, 'margin-default-zero-confirm');
        await form.getByLabel('确认不收保证金').check();
      } else {
        await screenshot(page, testInfo, 'margin-default-create-form-1366');
      }
      await form.getByRole('button', { name: '创建' }).click();
      // One toast per contract: the previous one may still be on its way out.
      await expect(toast(page, '合同已创建').last()).toBeVisible();
      await expect(form).toBeHidden();
    };
    await create(A, NAME(A.username), false);
    await create(B, NAME(B.username), false);
    await create(B, ZERO_NAME, true);

    // Under each contract's status, in view at 1366 px.
    const table = page.getByRole('table', { name: '合同列表' });
    for (const [name, rate] of [
      [NAME(A.username), '保证金 10%'],
      [NAME(B.username), '保证金 10%'],
      [ZERO_NAME, '不收保证金'],
    ] as const) {
      const row = table.getByRole('row').filter({ hasText: name });
      await expect(row.getByTestId('contract-margin-rate')).toHaveText(rate);
      await expect(row.getByTestId('contract-margin-rate')).toBeInViewport();
    }
    await screenshot(page, testInfo, 'margin-default-contracts-1366');
    const rates: Record<string, number> = {};
    for (const who of [A, B]) {
      const { items } = await traderCall<{ items: { id: number; name: string; margin_rate: number }[] }>(
        page,
        '/api/trader/view/contracts',
        { filter: `pricer_id = ${ids[who.username]}` },
      );
      for (const c of items) rates[c.name] = c.margin_rate;
      contracts[who.username] = items.find((c) => c.name === NAME(who.username))!.id;
    }
    expect(rates).toEqual({ [NAME(A.username)]: 0.1, [NAME(B.username)]: 0.1, [ZERO_NAME]: 0 });
  });

  test('two new customers with nothing deposited: their fixes hold margin; value and P/L for each', async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, demoTrader, '/trader/margin', /\/trader\/margin$/);
    // Nothing deposited: a fix needs margin they do not have.
    const refused = await request.post('/api/pricer/rpc/submit-order', {
      data: { contract_id: contracts[A.username], quantity: LOTS, price: 0 },
      headers: { Authorization: `Bearer ${sessions[A.username]!.token}` },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^可用保证金不足/);
    // A credit line of 100,000 each (lead ≈ 17,000 × 5 × 2 × 10 % ≈ 17,000 of margin), then the fixes.
    for (const who of [A, B]) {
      await traderCall(page, '/api/trader/rpc/set-credit-line', { pricer_id: ids[who.username], credit_line: 100_000 });
      await fix(request, who.username, LOTS);
    }
    // The figures, checked by hand: price × lots × multiplier.
    const values = await traderCall<{ items: Value[] }>(page, '/api/trader/view/contract-values');
    for (const who of [A, B]) {
      const v = values.items.find((i) => i.contract_id === contracts[who.username])!;
      expect(v).toMatchObject({ margin_rate: 0.1, open_lots: LOTS, basis: BASIS });
      const fixed = v.fixed_futures_price!;
      expect(v.fixed_value).toBeCloseTo((fixed + BASIS) * LOTS * MULTIPLIER, 2);
      expect(v.market_value).toBeCloseTo((v.market_futures_price! + BASIS) * LOTS * MULTIPLIER, 2);
      expect(v.floating_pnl).toBeCloseTo((v.market_futures_price! - fixed) * LOTS * MULTIPLIER, 2);
    }
    // The market falls 1 %: both lose, and their accounts say so (before issue 41: 正常, 浮动盈亏 0).
    shifted = -1;
    await shiftMarket(request, shifted);
    await page.reload();
    const accounts = page.getByTestId('accounts-table');
    for (const who of [A, B]) {
      const v = (await traderCall<{ items: Value[] }>(page, '/api/trader/view/contract-values')).items.find(
        (i) => i.contract_id === contracts[who.username],
      )!;
      const row = accounts.getByRole('row').filter({ hasText: who.full_name });
      // 占用保证金 (fixed + basis) × lots × 5 × 10 %.
      await expect(row).toContainText(yuan(Math.round(v.fixed_value * 0.1 * 100) / 100));
      await expect(row.getByRole('cell').nth(4)).toHaveText(/^-[\d,]+\.\d{2}$/);
      const card = page.getByTestId('contract-values');
      await expect(
        card.getByRole('table', { name: '客户价值合计' }).getByRole('row').filter({ hasText: who.full_name }),
      ).toContainText(`${yuan(v.fixed_value)} 元`);
      await expect(
        card
          .getByRole('table', { name: '合同价值' })
          .getByRole('row')
          .filter({ hasText: NAME(who.username) }),
      ).toContainText(/-[\d,]+\.\d{2} 元/);
    }
    await screenshot(page, testInfo, 'margin-default-values-1366');
    await expectAccessible(page, testInfo, 'margin-default-values');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, testInfo, 'margin-default-values-375');

    // The contract's 详情: its rate, lots, value and P/L.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/trader/contracts');
    await page.getByRole('button', { name: `详情 ${NAME(A.username)}` }).click();
    const detail = dialog(page, `合同详情 · ${NAME(A.username)}`);
    await expect(detail.getByTestId('value-rate')).toHaveText('10%');
    await expect(detail.getByTestId('value-open-lots')).toHaveText(`${LOTS} 手（${LOTS * MULTIPLIER} 吨）`);
    await expect(detail.getByTestId('value-pnl')).toHaveText(/^-[\d,]+\.\d{2} 元$/);
    await screenshot(page, testInfo, 'margin-default-detail-1366');
  });

  test('the desk shows the rate and the value; the confirm sheet the rate', async ({ page }, testInfo) => {
    for (const width of [375, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await openDesk(page, A);
      await expect(page.getByTestId('contract-margin-rate')).toHaveText('10%');
      await expect(page.getByTestId('contract-value')).toContainText(
        `已点价未结算 ${LOTS} 手（${LOTS * MULTIPLIER} 吨）`,
      );
      await expect(page.getByTestId('contract-pnl')).toHaveText(
        /^浮动盈亏 -[\d,]+\.\d{2} 元（-[\d,]+\.\d{2} 元\/吨）$/,
      );
      await page.getByRole('button', { name: '点价', exact: true }).click();
      await page.getByLabel('成交数量（手）').fill('1');
      await page.getByRole('radiogroup').getByText('市价', { exact: true }).click();
      await page.getByRole('button', { name: '提交订单' }).click();
      const sheet = page.getByRole('dialog', { name: '确认点价' });
      await expect(sheet.getByTestId('confirm-margin-rate')).toHaveText('10%');
      await screenshot(page, testInfo, `margin-default-confirm-${width}`);
      await sheet.getByRole('button', { name: '取消' }).click();
      await expect(sheet).toBeHidden();
    }
  });
});
