import { expect, test, type Page } from '@playwright/test';
import { typeDay } from '../common/dates';
import {
  apiSession,
  cancelOrder,
  restingOrder,
  myOrders,
  openSignedIn,
  pickContract,
  screenshot,
  snapshot,
  submitOrder,
  TENANT,
  waitForOrder,
  type Order,
} from './support';

const HISTORY = `/pricer/${TENANT}/history`;

function lots(n: number) {
  return `${n.toLocaleString('en-US')} 手`;
}

function summaryOf(items: Order[]) {
  const ordered = items.reduce((s, o) => s + o.volume_orign, 0);
  const traded = items.reduce((s, o) => s + Number(o.volume_traded), 0);
  return `共 ${items.length.toLocaleString('en-US')} 笔订单，委托 ${lots(ordered)}，成交 ${lots(traded)}`;
}

async function expectRowsAll(page: Page, testId: string, text: string) {
  const table = page.getByRole('table', { name: '历史订单' });
  const cells = table.getByTestId(testId);
  await expect(cells.first()).toBeVisible();
  for (const cell of await cells.all()) await expect(cell).toHaveText(text);
}

test.describe('order history', () => {
  // Orders go through the simulated broker; the shared e2e machine can be slow.
  test.describe.configure({ timeout: 120_000 });

  test('filters narrow the list; the summary and the fill rate follow', async ({ page, request }) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    // A filled market order on one contract, a cancelled resting order on another.
    const filledOn = pickContract(snap, 1);
    const cancelledOn = snap.contracts.find((c) => c.id !== filledOn.id && c.remaining_quantity >= 1)!;
    expect(cancelledOn).toBeDefined();
    const market = await submitOrder(request, session.token, { contract_id: filledOn.id, quantity: 1, price: 0 });
    await waitForOrder(request, session.token, market.id, ['FINISHED']);
    const resting = await restingOrder(request, session, snap, cancelledOn);
    await cancelOrder(request, session, resting.id);

    const all = (await myOrders(request, session.token, {})).items;
    const cancelled = (await myOrders(request, session.token, { status: 'CANCELLED' })).items;
    const cancelledOnContract = cancelled.filter((o) => o.contract_id === cancelledOn.id);
    expect(cancelled.length).toBeLessThan(all.length);

    await openSignedIn(page, session, HISTORY);
    const summary = page.getByTestId('history-summary');
    const badge = page.getByTestId('active-filter-count');
    const description = page.getByTestId('filter-description');
    await expect(summary).toHaveText(summaryOf(all));
    await expect(badge).toHaveText('0');
    await expect(description).toHaveText('当前筛选：无');
    await expect(page.getByText(`显示第 1 - ${Math.min(50, all.length)} 条，共 ${all.length} 条记录`)).toBeVisible();
    await expect(page.getByLabel('每页条数').locator('option')).toHaveText(['20', '50', '100']);
    await expect(page.getByLabel('每页条数')).toHaveValue('50');

    // The filled order: 100.0% in green; the cancelled one 0.0%.
    const complete = page.getByTestId('fill-rate').and(page.locator('[data-complete="true"]')).first();
    await expect(complete).toHaveText('100.0%');
    await expect(complete).toHaveCSS('color', 'rgb(35, 122, 54)');
    await expect(page.getByTestId('fill-rate').and(page.locator('[data-complete="false"]')).first()).toHaveText(
      /^\d+\.\d%$/,
    );

    // Status 已撤销.
    await page.getByLabel('状态', { exact: true }).selectOption({ label: '已撤销' });
    await expect(badge).toHaveText('1');
    await expect(description).toHaveText('当前筛选：状态：已撤销');
    await expect(summary).toHaveText(summaryOf(cancelled));
    await expectRowsAll(page, 'order-status', '已撤销');
    await expectRowsAll(page, 'fill-rate', '0.0%');

    // And the contract.
    await page.getByLabel('合同', { exact: true }).selectOption(String(cancelledOn.id));
    await expect(badge).toHaveText('2');
    await expect(description).toHaveText(`当前筛选：合同：${cancelledOn.name}，状态：已撤销`);
    await expect(summary).toHaveText(summaryOf(cancelledOnContract));
    await expect(
      page.getByRole('table', { name: '历史订单' }).getByRole('cell', { name: cancelledOn.name }),
    ).toHaveCount(cancelledOnContract.length);

    // A start date in the future leaves nothing.
    await typeDay(page.getByLabel('开始日期'), '2099-01-01');
    await expect(badge).toHaveText('3');
    await expect(summary).toHaveText('共 0 笔订单，委托 0 手，成交 0 手');
    await expect(page.getByText('暂无数据')).toBeVisible();

    // 清除 brings everything back; 收起 folds the panel.
    await page.getByRole('button', { name: '清除' }).click();
    await expect(badge).toHaveText('0');
    await expect(description).toHaveText('当前筛选：无');
    await expect(summary).toHaveText(summaryOf(all));
    await page.getByRole('button', { name: '收起' }).click();
    await expect(page.getByLabel('开始日期')).toBeHidden();
    await page.getByRole('button', { name: '筛选' }).click();
    await expect(page.getByLabel('开始日期')).toBeVisible();
  });

  test('on a phone the panel starts folded; compact cells show contract, direction and prices', async ({
    page,
    request,
  }, testInfo) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    const resting = await restingOrder(request, session, snap, contract);
    await cancelOrder(request, session, resting.id);

    await page.setViewportSize({ width: 375, height: 800 });
    await openSignedIn(page, session, HISTORY);
    await expect(page.getByRole('button', { name: '筛选' })).toHaveAttribute('aria-expanded', 'false');
    const table = page.getByRole('table', { name: '历史订单' });
    await expect(table.locator('thead tr').first().locator('th')).toHaveText([/时间/, /合同/, /价格/, /状态/]);
    // The newest order first: this one, told apart by contract, direction and prices.
    const first = table.locator('tbody tr').first();
    const direction = contract.direction === 'BUY' ? '买入' : '卖出';
    await expect(first.getByTestId('order-contract')).toContainText(contract.name.slice(0, 4));
    await expect(first.getByTestId('order-contract')).toContainText(
      `${direction} · ${contract.instrument_id.split('.')[1]}`,
    );
    await expect(first).toContainText(`¥${resting.limit_price.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    await expect(first.getByTestId('order-status')).toHaveText('已撤销');
    // Everything in view: no sideways scrolling of the page or of the table.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const overflow = await table.evaluate((el) => {
      const box = el.closest('.mantine-ScrollArea-viewport, .mantine-Table-scrollContainer') ?? el.parentElement!;
      return box.scrollWidth - box.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, 'history-compact-375');
  });
  test('on a tablet (820 px) 状态 and the whole 点价价格 of a filled order are in view, nothing covering them', async ({
    page,
    request,
  }, testInfo) => {
    const session = await apiSession(request);
    const snap = await snapshot(request, session.token);
    const contract = pickContract(snap, 1);
    const fill = await submitOrder(request, session.token, { contract_id: contract.id, quantity: 1, price: 0 });
    const filled = await waitForOrder(request, session.token, fill.id, ['FINISHED']);

    await page.setViewportSize({ width: 820, height: 1180 });
    await openSignedIn(page, session, HISTORY);
    const table = page.getByRole('table', { name: '历史订单' });
    const row = table.locator('tbody tr').first();
    const fixed = `¥${filled.fixed_price!.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    await expect(row).toContainText(fixed);
    // Seen by a person: inside the window, and the topmost thing at both ends of it (a sticky column
    // laid over a cell, or a table scrolled sideways, fails this although the cell "is visible").
    const seen = async (el: ReturnType<Page['locator']>) => {
      await expect(el).toBeVisible();
      const ends = await el.evaluate((e) => {
        const r = e.getBoundingClientRect();
        const y = r.top + r.height / 2;
        return [r.left + 1, r.right - 1].map((x) => {
          const hit = document.elementFromPoint(x, y);
          return x >= 0 && x <= window.innerWidth && hit !== null && (e === hit || e.contains(hit));
        });
      });
      expect(ends).toEqual([true, true]);
    };
    await seen(table.getByRole('columnheader', { name: /状态/ }));
    await seen(row.getByTestId('order-status'));
    const price = row.getByText(fixed, { exact: true });
    await seen(price);
    // Its text whole: nothing cut or behind an ellipsis.
    expect(await price.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, 'history-tablet-820');
  });
});
