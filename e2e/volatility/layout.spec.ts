import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shotDir = path.join(root, 'e2e/artifacts/screenshots');

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __PFP_TEST_HOOKS__: object }).__PFP_TEST_HOOKS__ = {};
  });
  mkdirSync(shotDir, { recursive: true });
});

async function rpcList(request: APIRequestContext, call: string, params: Record<string, string>) {
  const resp = await request.get(`/api/rpc/${call}?${new URLSearchParams({ ...params, options: '1' }).toString()}`);
  expect(resp.ok()).toBe(true);
  return ((await resp.json()) as { data: string[] }).data;
}

/** The drawn series and the x axis' position, from the live echarts instance the app exposes to tests. */
async function drawn(page: Page) {
  return page.evaluate(() => {
    type Chart = {
      isDisposed(): boolean;
      getDom(): HTMLElement;
      getOption(): { series: { id: string; data: [number, number | null][] }[] };
      getModel(): { getComponent(t: string): { coordinateSystem: { getRect(): { y: number; height: number } } } };
    };
    const chart = (window as unknown as { __PFP_TEST_HOOKS__?: { volatility?: { chart?: Chart } } }).__PFP_TEST_HOOKS__
      ?.volatility?.chart;
    if (!chart || chart.isDisposed()) return null;
    const grid = chart.getModel().getComponent('grid').coordinateSystem.getRect();
    const top = chart.getDom().getBoundingClientRect().top;
    return {
      series: chart.getOption().series.map((s) => ({ id: s.id, data: s.data })),
      /** The x axis (the grid's bottom edge) in viewport pixels. */
      axisY: top + grid.y + grid.height,
    };
  });
}

const VIEWPORTS = [
  { width: 375, height: 667 },
  { width: 768, height: 1024 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

test.describe('volatility page layout', () => {
  for (const viewport of VIEWPORTS) {
    test(`the chart fills the viewport below the top bar at ${viewport.width}px`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      const future = (await rpcList(request, 'future_list', { exchange_id: 'SHFE', product_id: 'cu' }))[2]!;
      await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
      await expect.poll(async () => (await drawn(page))?.series.length, { timeout: 30_000 }).toBe(2);

      const bar = (await page.getByTestId('top-bar').boundingBox())!;
      const chart = (await page.getByTestId('volatility-chart').boundingBox())!;
      const { axisY } = (await drawn(page))!;
      // The bar wraps on a phone; the chart starts below it and ends at the viewport's bottom…
      expect(chart.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
      expect(chart.y + chart.height).toBeLessThanOrEqual(viewport.height + 0.5);
      expect(chart.y + chart.height).toBeGreaterThanOrEqual(viewport.height - 2);
      // …with the strike axis on screen, and nothing to scroll to.
      expect(axisY).toBeLessThanOrEqual(viewport.height);
      expect(axisY).toBeGreaterThan(chart.y + chart.height / 2);
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(viewport.height);
      await page.screenshot({ path: path.join(shotDir, `volatility-layout-${viewport.width}.png`) });
    });
  }
});

/** Largest |call − put| σ at one strike, over the strikes both curves have. */
function parityGap(series: { id: string; data: [number, number | null][] }[], price: string) {
  const of = (o: string) => new Map(series.find((s) => s.id.endsWith(`-${o}-${price}`))!.data);
  const [calls, puts] = [of('CALL'), of('PUT')];
  let gap = 0;
  let compared = 0;
  for (const [k, c] of calls) {
    const p = puts.get(k);
    if (c == null || p == null) continue;
    gap = Math.max(gap, Math.abs(c - p));
    compared++;
  }
  return { gap, compared };
}

test.describe('smiles of each exchange', () => {
  test('calls and puts overlap: mid within 2 vol points, last within 3', async ({ page, request }) => {
    test.setTimeout(600_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    const exchanges = await rpcList(request, 'exchange_list', {});
    expect(exchanges.sort()).toEqual(['CFFEX', 'CZCE', 'DCE', 'GFEX', 'INE', 'SHFE']);
    for (const exchange of exchanges) {
      const products = (await rpcList(request, 'product_list', { exchange_id: exchange })).slice(0, 2);
      for (const product of products) {
        // The second listed month: its options are weeks from expiry.
        const future = (await rpcList(request, 'future_list', { exchange_id: exchange, product_id: product }))[1]!;
        await page.goto(`/volatility-surface?exchange=${exchange}&product=${product}&future=${future}`);
        // A new page each time: a loaded machine takes a while to load it.
        await expect.poll(async () => (await drawn(page))?.series.length, { timeout: 30_000 }).toBe(2);
        for (const label of ['看涨中间价', '看跌中间价']) {
          await page.getByTestId('curve-types').click();
          await page.getByRole('option', { name: label }).click();
          await page.keyboard.press('Escape');
        }
        await expect.poll(async () => (await drawn(page))?.series.length, { timeout: 30_000 }).toBe(4);
        const points = (s: { data: [number, number | null][] }) => s.data.filter(([, v]) => v !== null).length;
        await expect
          .poll(async () => Math.min(...(await drawn(page))!.series.map(points)), { message: future, timeout: 30_000 })
          .toBeGreaterThanOrEqual(3);
        const { series } = (await drawn(page))!;
        for (const [price, tol] of [
          ['mid', 0.02],
          ['last', 0.03],
        ] as const) {
          const { gap, compared } = parityGap(series, price);
          expect(compared, `${future} ${price}`).toBeGreaterThan(0);
          expect(gap, `${future} ${price}: largest call−put gap`).toBeLessThanOrEqual(tol);
        }
        for (const s of series) {
          for (const [, v] of s.data) if (v !== null) expect(v, s.id).toBeGreaterThanOrEqual(0.03);
          for (const [, v] of s.data) if (v !== null) expect(v, s.id).toBeLessThanOrEqual(1.5);
        }
        await page.screenshot({ path: path.join(shotDir, `smile-${exchange}-${product}.png`) });
      }
    }
  });
});
