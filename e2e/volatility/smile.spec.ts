import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The smile fit on the volatility page (issue 44 §1, docs/smile.md): beside the curves on a wide screen, the selected
 * chain's fitted line over its market points and a table of every chain's fit error; in a drawer on a phone.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shotDir = path.join(root, 'e2e/artifacts/screenshots');

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __PFP_TEST_HOOKS__: object }).__PFP_TEST_HOOKS__ = {};
  });
  mkdirSync(shotDir, { recursive: true });
});

async function firstCopperFuture(request: APIRequestContext) {
  const resp = await request.get('/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1');
  return ((await resp.json()) as { data: string[] }).data[0]!;
}

/** The fit chart's drawn series: name, and how many points it has. */
async function fitSeries(page: Page) {
  return page.evaluate(() => {
    type Chart = { isDisposed(): boolean; getOption(): { series: { name: string; data: unknown[] }[] } };
    const hooks = (window as unknown as { __PFP_TEST_HOOKS__?: { volatility?: { fitChart?: Chart } } })
      .__PFP_TEST_HOOKS__;
    const chart = hooks?.volatility?.fitChart;
    if (!chart || chart.isDisposed()) return null;
    return chart.getOption().series.map((s) => ({ name: s.name, points: s.data.length }));
  });
}

/** The table's rows as a person reads them: chain, expiry, points, RMSE, max error. */
async function fitRows(page: Page) {
  const table = page.getByRole('table', { name: '各期权链拟合误差' });
  await expect(table.getByRole('columnheader', { name: '均方根误差' })).toBeVisible();
  await expect(page.getByText(/^误差单位：波动率点/)).toBeVisible();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`beside the chart at ${viewport.width}px: the fitted line over the market points, each chain's error`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const future = await firstCopperFuture(request);
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    const panel = page.getByTestId('smile-panel');
    await expect(panel.getByRole('heading', { name: '微笑曲线拟合' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('img', { name: '微笑拟合图' })).toBeVisible();
    await expect
      .poll(() => fitSeries(page), { timeout: 30_000 })
      .toEqual([
        { name: '市场报价点', points: expect.any(Number) },
        { name: '拟合曲线', points: 61 },
      ]);
    expect((await fitSeries(page))![0]!.points).toBeGreaterThanOrEqual(5);

    const rows = await fitRows(page);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const short = future.split('.')[1]!;
    expect(rows.map((r) => r[0])).toContain(short);
    for (const [chain, expiry, points, rmse, maxError] of rows) {
      expect(chain).toMatch(/^cu\d{4}/);
      expect(expiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number(points)).toBeGreaterThanOrEqual(5);
      // The simulated chains fit within a vol point; the largest error is at least the RMSE.
      expect(Number(rmse)).toBeLessThan(1);
      expect(Number(maxError)).toBeGreaterThanOrEqual(Number(rmse));
    }
    await expect(panel.getByText(/拟合时间 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}（北京时间）$/)).toBeVisible();

    // Beside the curve chart, not below it: the chart keeps the viewport's height.
    const chart = (await page.getByTestId('volatility-chart').boundingBox())!;
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(chart.x + chart.width - 1);
    expect(chart.y + chart.height).toBeGreaterThanOrEqual(viewport.height - 2);
    await page.screenshot({ path: path.join(shotDir, `volatility-smile-${viewport.width}.png`) });
  });
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 820, height: 1180 },
]) {
  test(`in a drawer at ${viewport.width}px`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const future = await firstCopperFuture(request);
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    await expect(page.getByTestId('smile-panel')).toHaveCount(0);
    await page.getByRole('button', { name: '微笑拟合' }).click();
    await expect(page.getByRole('dialog', { name: '微笑曲线拟合' })).toBeVisible();
    await expect.poll(async () => (await fitRows(page)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => fitSeries(page), { timeout: 30_000 }).not.toBeNull();
    await page.screenshot({ path: path.join(shotDir, `volatility-smile-${viewport.width}.png`) });
  });
}
