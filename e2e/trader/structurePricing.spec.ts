import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoEnglish } from '../common/english';
import { beijingTradingDay, typeDay } from '../common/dates';
import { demoTrader, expectAccessible, LOGIN_PAGE, screenshot, traderCall } from './support';

test.describe.configure({ timeout: 180_000 });

/*
 * 含权报价 (issue 44 item 4, docs/pricing.md): the console's calculator on the demo company. A vanilla on a live
 * copper future (元/吨, 元 for the quantity, delta in 手, the vol against the chain's points, the payoff chart), an
 * accumulator's zero-cost strike by the button, a what-if market against a Black-76 computed here, and a bad term
 * answered with the server's Chinese refusal beside the form.
 */

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

/** zh-CN figures as shown: '1,234.56' → 1234.56, '-12 手' → -12. */
const figure = async (locator: Locator) => Number((await locator.innerText()).replace(/[,\s手]/g, ''));

/** Φ by Marsaglia's Taylor series (2004), to double precision for moderate x: independent of the product's normal. */
function normCdf(x: number): number {
  let sum = x;
  let term = x;
  for (let i = 3; Math.abs(term) > 1e-17 * Math.abs(sum); i += 2) {
    term *= (x * x) / i;
    sum += term;
  }
  return 0.5 + sum * Math.exp(-0.5 * x * x - Math.log(Math.sqrt(2 * Math.PI)));
}
const normPdf = (x: number) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);

/** Black-76 call, closed form: price, delta, vega (per 1.00 of vol), theta (per year of time passing). */
function black76Call(F: number, K: number, T: number, r: number, sigma: number) {
  const d1 = (Math.log(F / K) + (sigma * sigma * T) / 2) / (sigma * Math.sqrt(T));
  const d2 = d1 - sigma * Math.sqrt(T);
  const df = Math.exp(-r * T);
  const price = df * (F * normCdf(d1) - K * normCdf(d2));
  const vega = df * F * normPdf(d1) * Math.sqrt(T);
  return {
    price,
    delta: df * normCdf(d1),
    vega,
    theta: r * price - (df * F * normPdf(d1) * sigma) / (2 * Math.sqrt(T)),
  };
}

async function openCalculator(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  // signIn's steps with room for a loaded machine: the console's chunks can take more than 10 s to arrive.
  await page.goto('/trader/pricing');
  await page.waitForURL(LOGIN_PAGE, { timeout: 60_000 });
  await page.locator('#username').fill(demoTrader.username);
  await page.locator('#password').fill(demoTrader.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/trader\/pricing$/, { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: '结构与条款' })).toBeVisible({ timeout: 30_000 });
}

async function pickSelect(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** A copper future with listed options (the market list's `options=1`), picked in the form. */
async function pickCopper(page: Page): Promise<string> {
  const res = await page.request.get('/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1');
  const ids = ((await res.json()) as { data: string[] }).data;
  const symbol = ids[0]!;
  await pickSelect(page, 'calc-product', '铜');
  await pickSelect(page, 'calc-instrument', new RegExp(symbol.replace('.', '\\.')));
  return symbol;
}

/** A segment of a segmented control, clicked by its label as a person does. */
const segment = (page: Page, label: string) => page.locator('label').getByText(label, { exact: true }).click();

async function fill(page: Page, testId: string, value: number | string) {
  await page.getByTestId(testId).fill(String(value));
}

for (const size of SIZES) {
  test(`a vanilla on a live copper future: 元/吨, 元, delta in 手, the chain's vols, the payoff chart (${size.width} px)`, async ({
    page,
  }, testInfo) => {
    await openCalculator(page, size);
    const symbol = await pickCopper(page);
    // The future's price now, to put the strike at the money.
    const probe = await traderCall<{ forward: number }>(page, '/api/trader/rpc/price-structure', {
      structure: {
        kind: 'vanilla',
        instrument_id: symbol,
        option_type: 'call',
        strike: 1,
        expiry: beijingTradingDay(60),
      },
    });
    const strike = Math.round(probe.forward / 10) * 10;
    await fill(page, 'calc-strike', strike);
    await typeDay(page.getByTestId('calc-expiry'), beijingTradingDay(60));
    await fill(page, 'calc-quantity', 100);
    await page.getByTestId('calc-price').click();

    const result = page.getByTestId('calc-result');
    await expect(result.getByText('价格（元/吨）')).toBeVisible();
    const unitPrice = await figure(page.getByTestId('calc-unit-price'));
    expect(unitPrice).toBeGreaterThan(0);
    // 元 for the quantity: price × 100 吨 (20 手 of 5 吨).
    await expect(page.getByTestId('calc-total-sub')).toHaveText('数量 100 吨（合 20 手）');
    expect(await figure(page.getByTestId('calc-total'))).toBeCloseTo(unitPrice * 100, -1);
    // An at-the-money call's delta: about half the 20 手.
    await expect(page.getByTestId('calc-delta')).toHaveText(/手$/);
    const lots = await figure(page.getByTestId('calc-delta'));
    expect(lots).toBeGreaterThan(5);
    expect(lots).toBeLessThan(15);
    // The vol used, marked among the chain's listed strikes.
    const vols = page.getByTestId('calc-vol-table');
    await expect(vols.getByText('本次定价所用')).toBeVisible();
    // The future's price the figures were computed on, with its unit (it read a bare '86,210').
    await expect(page.getByTestId('calc-used-forward')).toHaveText(/^[\d,]+(\.\d+)? 元\/吨$/);
    expect(await vols.locator('tbody tr').count()).toBeGreaterThan(2);

    const chart = page.getByTestId('payoff-chart');
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toBeInViewport({ ratio: 0.9 });
    await expect(chart.locator('canvas')).toBeVisible();
    await expectNoEnglish(page, 'structure pricing');
    if (size.width === 1366) await expectAccessible(page, testInfo, 'structure-pricing');
    await screenshot(page, testInfo, `structure-pricing-${size.width}`);
  });
}

test('an accumulator’s zero-cost strike by the button, the price then near 0 (1366 px)', async ({ page }, testInfo) => {
  await openCalculator(page, SIZES[0]);
  await pickCopper(page);
  await segment(page, '累购·累沽');
  await segment(page, '假设行情');
  await fill(page, 'calc-forward', 5000);
  await fill(page, 'calc-volPct', 25);
  await fill(page, 'calc-ratePct', 2);
  await typeDay(page.getByTestId('calc-valuationDate'), '2027-01-04');
  await fill(page, 'calc-barrier', 5300);
  await fill(page, 'calc-leverage', 2);
  await fill(page, 'calc-quantityPerDay', 10);
  await typeDay(page.getByTestId('calc-start'), '2027-01-05');
  await typeDay(page.getByTestId('calc-end'), '2027-03-31');
  await expect(page.getByTestId('calc-strike')).toHaveValue('');
  await page.getByTestId('calc-solve').click();

  await expect(page.getByTestId('calc-strike')).not.toHaveValue('');
  const strike = Number((await page.getByTestId('calc-strike').inputValue()).replace(/,/g, ''));
  expect(strike).toBeGreaterThan(4000);
  expect(strike).toBeLessThan(5300);
  expect(Math.abs(await figure(page.getByTestId('calc-total')))).toBeLessThan(1);
  // Priced again at the filled strike (rounded to the fen): still next to nothing against 5000 × its 10 吨 a day.
  await page.getByTestId('calc-price').click();
  const total = Math.abs(await figure(page.getByTestId('calc-total')));
  const maxQty = 10 * 62;
  expect(total).toBeLessThan(1e-4 * 5000 * maxQty);
  await expect(page.getByTestId('calc-unit-price-sub')).toContainText('个交易日');
  await expect(page.getByTestId('payoff-chart')).toBeVisible();
  await screenshot(page, testInfo, 'structure-pricing-accumulator');
});

test('a what-if market’s figures match Black-76 computed here; a bad term shows the server’s refusal (1920 px)', async ({
  page,
}) => {
  await openCalculator(page, SIZES[1]);
  await pickCopper(page);
  await segment(page, '假设行情');
  await fill(page, 'calc-forward', 5000);
  await fill(page, 'calc-volPct', 30);
  await fill(page, 'calc-ratePct', 2);
  await typeDay(page.getByTestId('calc-valuationDate'), '2027-01-04');
  await fill(page, 'calc-strike', 5100);
  await typeDay(page.getByTestId('calc-expiry'), '2027-04-05');
  await fill(page, 'calc-quantity', 100);
  await page.getByTestId('calc-price').click();

  const T = 91 / 365;
  const want = black76Call(5000, 5100, T, 0.02, 0.3);
  await expect(page.getByTestId('calc-unit-price')).toHaveText(want.price.toFixed(2));
  expect(await figure(page.getByTestId('calc-total'))).toBeCloseTo(want.price * 100, 1);
  await expect(page.getByTestId('calc-delta-sub')).toHaveText(`每单位 ${want.delta.toFixed(4)}`);
  expect(await figure(page.getByTestId('calc-delta'))).toBeCloseTo((want.delta * 100) / 5, 2);
  expect(await figure(page.getByTestId('calc-vega'))).toBeCloseTo((want.vega * 100) / 100, 1);
  expect(await figure(page.getByTestId('calc-theta'))).toBeCloseTo((want.theta * 100) / 365, 1);
  await expect(page.getByText('假设行情：无期权链市场点')).toBeVisible();
  await expect(page.getByTestId('payoff-chart')).toBeInViewport();

  // A knock-out call whose barrier is below the future: the server's Chinese 400 beside the form, no crash.
  await segment(page, '障碍期权');
  await fill(page, 'calc-barrier', 4800);
  await pickSelect(page, 'calc-barrierType', '向上敲出');
  await page.getByTestId('calc-price').click();
  await expect(page.getByTestId('calc-error')).toHaveText('定价失败：向上障碍的障碍价须高于当前期货价格');
  await expect(page.getByTestId('calc-result')).toBeVisible();
});

test('the calculator on a phone and a tablet (375 and 820 px screenshots)', async ({ page }, testInfo) => {
  await openCalculator(page, { width: 375, height: 812 });
  // Every kind of structure can be read and tapped on a phone (the fourth ran off the card).
  for (const kind of ['普通期权', '亚式·均价期权', '障碍期权', '累购·累沽'])
    await expect(page.getByTestId('calc-kind').getByText(kind, { exact: true })).toBeInViewport({ ratio: 1 });
  await pickCopper(page);
  await segment(page, '假设行情');
  await fill(page, 'calc-forward', 5000);
  await fill(page, 'calc-volPct', 30);
  await fill(page, 'calc-ratePct', 2);
  await typeDay(page.getByTestId('calc-valuationDate'), '2027-01-04');
  await fill(page, 'calc-strike', 5100);
  await typeDay(page.getByTestId('calc-expiry'), '2027-04-05');
  await page.getByTestId('calc-price').click();
  await expect(page.getByTestId('payoff-chart')).toBeVisible();
  await screenshot(page, testInfo, 'structure-pricing-375');
  await page.setViewportSize({ width: 820, height: 1180 });
  await expect(page.getByTestId('payoff-chart')).toBeVisible();
  await screenshot(page, testInfo, 'structure-pricing-820');
});
