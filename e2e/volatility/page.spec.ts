import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shotDir = path.join(root, 'e2e/artifacts/screenshots');

const EMPTY_TEXT = '请先选择期货合约和曲线类型以显示图表.';

interface SeriesInfo {
  id: string;
  name: string;
  color: string;
  dash: unknown;
  /** [strike, σ|null] as drawn. */
  data: [number, number | null][];
}

/** The drawn series, read from the live echarts instance the app exposes to tests. */
async function chartSeries(page: Page): Promise<SeriesInfo[] | null> {
  return page.evaluate(() => {
    type Chart = {
      isDisposed(): boolean;
      getOption(): {
        series: {
          id: string;
          name: string;
          lineStyle: { color: string; type: unknown };
          data: [number, number | null][];
        }[];
      };
    };
    const hooks = (window as unknown as { __PFP_TEST_HOOKS__?: { volatility?: { chart?: Chart } } }).__PFP_TEST_HOOKS__;
    const chart = hooks?.volatility?.chart;
    if (!chart || chart.isDisposed()) return null;
    return chart.getOption().series.map((s) => ({
      id: s.id,
      name: s.name,
      color: s.lineStyle.color,
      dash: s.lineStyle.type,
      data: s.data,
    }));
  });
}

const pointsOf = (s: SeriesInfo) => s.data.filter((d) => d[1] !== null).length;

/** The sent and received view-protocol messages of the page's WebSockets. */
function recordFrames(page: Page) {
  const sent: Record<string, unknown>[] = [];
  const received: Record<string, unknown>[] = [];
  const closed: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => sent.push({ ...JSON.parse(String(f.payload)), at: Date.now() }));
    ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload))));
    ws.on('close', () => closed.push(ws.url()));
  });
  return { sent, received, closed };
}

async function futuresWithOptions(request: APIRequestContext, base = '') {
  const url = `${base}/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1`;
  let resp = await request.get(url);
  // A server just started on a loaded machine may shed a call (503 服务器繁忙 with Retry-After: its overload guard)
  // while it warms up: called again after that wait, as a client does. Any other answer fails here.
  for (let i = 0; resp.status() === 503 && i < 6; i++) {
    await new Promise((r) => setTimeout(r, 1000 * Number(resp.headers()['retry-after'] ?? 1)));
    resp = await request.get(url);
  }
  expect(resp.status(), await resp.text()).toBe(200);
  const body = (await resp.json()) as { result: string; data: string[] };
  expect(body.result).toBe('ok');
  expect(body.data.length).toBeGreaterThan(3);
  return body.data;
}

const short = (id: string) => id.slice(id.indexOf('.') + 1);

async function pickCurveType(page: Page, label: string) {
  await page.getByTestId('curve-types').click();
  await page.getByRole('option', { name: label }).click();
  await page.keyboard.press('Escape');
}

async function pickFuture(page: Page, future: string) {
  await page.getByRole('combobox', { name: '期货合约' }).click();
  await page.getByRole('option', { name: short(future), exact: true }).click();
}

test.beforeEach(async ({ page }) => {
  // Opt in to the app's test hooks (the live chart instance, a push entry point), and note when
  // the page sends each peek, by its own clock.
  await page.addInitScript(() => {
    (window as unknown as { __PFP_TEST_HOOKS__: object }).__PFP_TEST_HOOKS__ = {};
    const peeks: number[] = [];
    (window as unknown as { __PFP_PEEKS__: number[] }).__PFP_PEEKS__ = peeks;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (typeof data === 'string' && data.includes('"peek_message"')) peeks.push(performance.now());
      return send.call(this, data);
    };
  });
});

/** When the page sent its peeks (ms of its own clock). */
const pagePeeks = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __PFP_PEEKS__: number[] }).__PFP_PEEKS__]);

test.describe('volatility page', () => {
  test('curve types wait for a future; call-last and put-last are preselected', async ({ page }) => {
    await page.goto('/volatility-surface');
    await expect(page.getByRole('combobox', { name: '曲线类型' })).toBeDisabled();
    await expect(page.locator('.mantine-Pill-label')).toHaveText(['看涨最新价', '看跌最新价']);
    await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
    await expect(page).toHaveTitle('期权波动率曲线');
  });

  test('cascading filters list what has options and keep the choice in the URL', async ({ page }) => {
    await page.goto('/volatility-surface?theme=dark');
    await page.getByRole('combobox', { name: '交易所' }).click();
    await page.getByRole('option', { name: '上海期货交易所' }).click();
    await expect(page).toHaveURL(/exchange=SHFE/);
    await page.getByRole('combobox', { name: '品种' }).click();
    await page.getByRole('option', { name: '铜', exact: true }).click();
    await expect(page).toHaveURL(/product=cu/);
    await expect(page.getByRole('combobox', { name: '曲线类型' })).toBeDisabled();
    await page.getByRole('combobox', { name: '期货合约' }).click();
    const options = page.getByRole('listbox', { name: '期货合约' }).getByRole('option');
    await expect(options.first()).toHaveText(/^cu\d{4}$/);
    await options.nth(1).click();
    await expect(page).toHaveURL(/theme=dark&exchange=SHFE&product=cu&future=SHFE\.cu\d{4}$/);
    await expect(page.getByRole('combobox', { name: '曲线类型' })).toBeEnabled();
    await expect(page.getByTestId('volatility-chart')).toBeVisible();

    // A new exchange clears the product and the future, and with them the chart.
    await page.getByRole('combobox', { name: '交易所' }).click();
    await page.getByRole('option', { name: '大连商品交易所' }).click();
    await expect(page).toHaveURL(/theme=dark&exchange=DCE$/);
    await expect(page.getByRole('combobox', { name: '品种' })).toHaveValue('');
    await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
  });

  test('a preselected future shows the default curves live, with a tooltip', async ({ page, request }, testInfo) => {
    const future = (await futuresWithOptions(request))[2]!;
    const frames = recordFrames(page);
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);

    await expect(page.getByRole('combobox', { name: '交易所' })).toHaveValue('上海期货交易所');
    await expect(page.getByRole('combobox', { name: '品种' })).toHaveValue('铜');
    await expect(page.getByRole('combobox', { name: '期货合约' })).toHaveValue(short(future));

    await expect
      .poll(async () => (await chartSeries(page))?.map((s) => [s.id, s.name, s.color, s.dash]))
      .toEqual([
        [`${future}-CALL-last`, '看涨最新价', '#f08c00', 'solid'],
        [`${future}-PUT-last`, '看跌最新价', '#5c940d', [5, 5]],
      ]);
    const first = (await chartSeries(page))!;
    for (const s of first) expect(pointsOf(s)).toBeGreaterThan(5);
    // Strikes ascending; σ a plausible fraction.
    const strikes = first[0]!.data.map((d) => d[0]);
    expect([...strikes].sort((a, b) => a - b)).toEqual(strikes);
    for (const s of first) for (const [, v] of s.data) if (v !== null) expect(v).toBeGreaterThan(0.01);

    // The subscription as sent.
    const subscribe = frames.sent.find((f) => f.aid === 'subscribe_view');
    expect(subscribe).toMatchObject({
      view_id: 'volatility-curves-view',
      view_name: 'volatility-curves-view',
      data_source: 'volatility_curves',
      params: {
        items: [
          { symbol: future, option_type: 'CALL', price_type: 'last' },
          { symbol: future, option_type: 'PUT', price_type: 'last' },
        ],
      },
    });

    // Updates arrive: the drawn data changes within a few peeks.
    const before = JSON.stringify(first.map((s) => s.data));
    await expect
      .poll(async () => JSON.stringify((await chartSeries(page))?.map((s) => s.data)), { timeout: 20_000 })
      .not.toBe(before);
    // …polled every 2 s (not the general loop, which peeks again as soon as the server answers,
    // i.e. every tick of 500 ms). Timed by the page's own clock when it sends (the test's frame
    // events arrive with jitter), and by the average: a busy machine may run one timer late, so
    // that the next gap is short, but it cannot make the page peek more often on the whole.
    await expect.poll(() => pagePeeks(page).then((p) => p.length), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
    const peeks = await pagePeeks(page);
    expect((peeks.at(-1)! - peeks[0]!) / (peeks.length - 1)).toBeGreaterThanOrEqual(1500);

    // Tooltip: the strike, then the curves in the selected order with σ in 2 decimals.
    const chart = page.getByTestId('volatility-chart');
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tooltip = page.getByTestId('volatility-tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveText(/^行权价: [\d,]+看涨最新价: \d+\.\d{2}%看跌最新价: \d+\.\d{2}%$/);

    mkdirSync(shotDir, { recursive: true });
    await chart.screenshot({ path: path.join(shotDir, 'volatility-chart.png') });
    await chart.screenshot({ path: testInfo.outputPath('volatility-chart.png') });
  });

  test('adding put-bid adds a dashed curve; another future replaces the curves', async ({ page, request }) => {
    const futures = await futuresWithOptions(request);
    const [future, next] = [futures[2]!, futures[3]!];
    const frames = recordFrames(page);
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    await expect.poll(async () => (await chartSeries(page))?.length).toBe(2);

    await pickCurveType(page, '看跌买价');
    await expect(page.locator('.mantine-Pill-label')).toHaveText(['看涨最新价', '看跌最新价', '看跌买价']);
    await expect
      .poll(async () => (await chartSeries(page))?.map((s) => [s.name, s.dash]))
      .toEqual([
        ['看涨最新价', 'solid'],
        ['看跌最新价', [5, 5]],
        ['看跌买价', [5, 5]],
      ]);
    await expect.poll(async () => pointsOf((await chartSeries(page))![2]!)).toBeGreaterThan(5);
    expect((await chartSeries(page))![2]!.color).toBe('#0c8599');

    // Switching the future: the old view is unsubscribed, then the new future subscribed.
    const mark = frames.sent.length;
    await pickFuture(page, next);
    await expect(page).toHaveURL(new RegExp(`future=${next.replace('.', '\\.')}`));
    await expect
      .poll(async () => (await chartSeries(page))?.map((s) => s.id))
      .toEqual([`${next}-CALL-last`, `${next}-PUT-last`, `${next}-PUT-bid`]);
    const after = frames.sent.slice(mark).filter((f) => f.aid !== 'peek_message');
    expect(after.map((f) => f.aid)).toEqual(['unsubscribe_view', 'subscribe_view']);
    expect(after[0]).toMatchObject({ view_id: 'volatility-curves-view' });
    const items = (after[1]!.params as { items: { symbol: string }[] }).items;
    expect(items.map((i) => i.symbol)).toEqual([next, next, next]);
    // The server answered both: the unsubscribe, and the new future's curves.
    const replies = (aid: string) => frames.received.filter((r) => r.aid === aid && r.result === 'ok');
    expect(replies('unsubscribe_view').length).toBeGreaterThan(0);
    const patchKeys = replies('subscribe_view').map((r) => Object.keys((r.data as { patch: object }).patch).sort());
    expect(patchKeys.at(-1)).toEqual([`${next}-CALL-last`, `${next}-PUT-bid`, `${next}-PUT-last`]);
    // No curve of the old future is left.
    for (const s of (await chartSeries(page))!) expect(s.id.startsWith(future)).toBe(false);
  });

  test('clearing the curve types cancels the subscription and shows the empty state', async ({ page, request }) => {
    const future = (await futuresWithOptions(request))[2]!;
    const frames = recordFrames(page);
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    // The first curves need the chain's first computation: give a busy machine time.
    await expect.poll(async () => (await chartSeries(page))?.length, { timeout: 20_000 }).toBe(2);

    await page.getByTestId('curve-types').click();
    await page.getByRole('option', { name: '看涨最新价' }).click();
    await page.getByRole('option', { name: '看跌最新价' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
    await expect(page.getByTestId('volatility-chart')).toHaveCount(0);
    await expect.poll(() => frames.sent.filter((f) => f.aid === 'unsubscribe_view').length).toBeGreaterThan(0);
    // Polling stops: the connection is closed.
    await expect.poll(() => frames.closed.length).toBe(1);
  });

  test('unknown routes of the app show the 404 page', async ({ page }) => {
    await page.goto('/volatility-surface/other');
    await expect(page.getByRole('heading', { name: '页面未找到' })).toBeVisible();
    await expect(page).toHaveTitle('期权波动率曲线');
  });
});

test.describe('volatility page across a server restart', () => {
  let base = '';
  let server: ChildProcess | undefined;
  // Made by the first start, in the worker: the runner also reads this block (to list the tests) and would
  // leave a directory of its own behind.
  let dataDir = '';

  /** A port nobody listens on now (a fixed one would collide with another checkout's run). */
  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });

  /**
   * Our own server, so that killing it leaves the suites' shared server alone. The restart reuses
   * the port: the page reconnects to the address it knows.
   */
  async function startServer() {
    base ||= `http://127.0.0.1:${await freePort()}`;
    server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
      env: {
        ...process.env,
        PORT: new URL(base).port,
        HOST: '127.0.0.1',
        DATA_DIR: (dataDir ||= mkdtempSync(path.join(tmpdir(), 'pfp-e2e-vol-'))),
        PUBLIC_URL: base,
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
        MARKET_SEED: '7',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<never>((_, reject) =>
      server!.once('exit', (code) => reject(new Error(`the restart-test server exited (${code})`))),
    );
    exited.catch(() => undefined);
    // An upper bound like playwright.config.ts's webServer one: a loaded machine starts it slowly.
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 200))]);
    }
    throw new Error('the restart-test server did not start');
  }

  function killServer() {
    const gone = server && server.exitCode === null ? new Promise((r) => server!.once('exit', r)) : undefined;
    server?.kill('SIGKILL');
    server = undefined;
    return gone;
  }

  // Nothing left in /tmp: the server gone first, then its data.
  test.afterAll(async () => {
    await killServer();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  test('shows the reconnect as an error and recovers by itself', async ({ page, request }) => {
    test.setTimeout(480_000);
    await startServer();
    const future = (await futuresWithOptions(request, base))[2]!;
    await page.goto(`${base}/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    await expect.poll(async () => (await chartSeries(page))?.length, { timeout: 20_000 }).toBe(2);

    await killServer();
    const error = page.getByRole('alert');
    await expect(error).toHaveText('加载数据时出错: 与服务器的连接已断开，正在重新连接...');
    await expect(page.getByTestId('volatility-chart')).toHaveCount(0);

    await startServer();
    // ws-core retries after 1, 2, 4 … s, at most 30 s apart: back at the first attempt after the
    // server is up, however long the restart took.
    await expect.poll(async () => (await chartSeries(page))?.length, { timeout: 100_000 }).toBe(2);
    await expect(error).toHaveCount(0);
    for (const s of (await chartSeries(page))!) expect(pointsOf(s)).toBeGreaterThan(5);
  });
});
