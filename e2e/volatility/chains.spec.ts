import { expect, test, type Page } from '@playwright/test';

/** The drawn series' [strike, σ|null] points, read from the echarts instance the app exposes to tests. */
async function drawnPoints(page: Page): Promise<number[] | null> {
  return page.evaluate(() => {
    type Chart = { isDisposed(): boolean; getOption(): { series: { data: [number, number | null][] }[] } };
    const hooks = (window as unknown as { __PFP_TEST_HOOKS__?: { volatility?: { chart?: Chart } } }).__PFP_TEST_HOOKS__;
    const chart = hooks?.volatility?.chart;
    if (!chart || chart.isDisposed()) return null;
    return chart.getOption().series.map((s) => s.data.filter((d) => d[1] !== null).length);
  });
}

test.describe('futures offered on the volatility page (issue 33)', () => {
  test('every copper future offered has a live chain: the first one draws its curves', async ({ page }) => {
    // The app exposes its chart to tests when this is set before it loads.
    await page.addInitScript(() => {
      (window as unknown as { __PFP_TEST_HOOKS__: object }).__PFP_TEST_HOOKS__ = {};
    });
    await page.goto('/volatility-surface?exchange=SHFE&product=cu');
    await page.getByRole('combobox', { name: '期货合约' }).click();
    const first = page.getByRole('listbox', { name: '期货合约' }).getByRole('option').first();
    await expect(first).toHaveText(/^cu\d{4}$/);
    await first.click();
    // call-last and put-last are preselected: both drawn with points, not an empty chart.
    await expect.poll(() => drawnPoints(page), { timeout: 20_000 }).toEqual([expect.any(Number), expect.any(Number)]);
    await expect
      .poll(async () => Math.min(...((await drawnPoints(page)) ?? [0])), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(3);
    await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toHaveCount(0);
  });
});
