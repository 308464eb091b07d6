import { expect, test } from '@playwright/test';
import { expectNoEnglish } from '../common/english';

test.describe('volatility page language', () => {
  test('empty, with curves and with the curve-type list open: Chinese only', async ({ page, request }) => {
    await page.goto('/volatility-surface');
    await expect(page.getByText('请先选择期货合约和曲线类型以显示图表.')).toBeVisible();
    await expectNoEnglish(page, 'volatility empty');

    const futures = (await (
      await request.get('/api/rpc/future_list?exchange_id=SHFE&product_id=cu&options=1')
    ).json()) as { data: string[] };
    const future = futures.data[0]!;
    await page.goto(`/volatility-surface?exchange=SHFE&product=cu&future=${future}`);
    await expect(page.getByRole('combobox', { name: '期货合约' })).toHaveValue(future.slice(future.indexOf('.') + 1));
    await page.getByTestId('curve-types').click();
    await expect(page.getByRole('option', { name: '看涨买价' })).toBeVisible();
    await expectNoEnglish(page, 'volatility with curves');
  });
});
