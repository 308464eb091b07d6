// @vitest-environment jsdom
import { MantineProvider } from '@pfp/mantine';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { installDomPolyfills } from '@pfp/ui/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfirmFixSheet } from './ConfirmFixSheet';
import { fixPreview, type FixRequest } from './fixPreview';

beforeAll(installDomPolyfills);
afterEach(() => cleanup());

const contract = { name: '铜2701-饲料厂', instrument_id: 'SHFE.cu2701', instrument_name: '铜2701' };
const terms = { direction: 'BUY' as 'BUY' | 'SELL', basis: 150, multiplier: 5, unit: '吨' };
const market = { last_price: 80_000, bid_price: 79_990, ask_price: 80_010, price_tick: 10 };

function show(
  request: FixRequest,
  over: Partial<typeof terms> & { unit?: string | undefined } = {},
  margin: { margin: number; availableAfter: number } | null = null,
) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <MantineProvider>
      <ConfirmFixSheet
        request={request}
        preview={fixPreview({ ...terms, ...over }, market, request)}
        margin={margin}
        contract={contract}
        compact={false}
        busy={false}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </MantineProvider>,
  );
  const text = (id: string) => screen.getByTestId(id).textContent;
  return { onConfirm, onCancel, text };
}

describe('ConfirmFixSheet', () => {
  it('shows the side in plain words, lots and tons, the quote, basis, goods price per ton, amount and the market risk', () => {
    const { text } = show({ kind: 'market', quantity: 2 });
    expect(screen.getByRole('dialog').textContent).toContain('确认点价');
    expect(text('confirm-contract')).toBe('铜2701-饲料厂');
    expect(text('confirm-side')).toBe('我方买入');
    expect(text('confirm-lots')).toBe('2 手（10 吨）');
    expect(text('confirm-quote')).toBe('最新 ¥80,000.00 · 买一 ¥79,990.00 · 卖一 ¥80,010.00');
    expect(text('confirm-reference')).toBe('¥80,010.00（卖一价）');
    expect(text('confirm-basis')).toBe('+150.00');
    expect(text('confirm-goods-price')).toBe('80,160.00 元/吨');
    expect(text('confirm-amount')).toBe('801,600.00 元');
    expect(text('confirm-market-risk')).toBe('市价单按对手价成交，成交价可能偏离参考价');
    expect(screen.getByRole('button', { name: '确认点价' }).tagName).toBe('BUTTON');
    expect(screen.getByRole('button', { name: '取消' }).tagName).toBe('BUTTON');
  });

  it('without a unit shows 手 and the multiplier; a limit order has no risk line; a seller reads 我方卖出', () => {
    const { text } = show({ kind: 'limit', quantity: 3, price: 79_500 }, { unit: undefined, direction: 'SELL' });
    expect(text('confirm-side')).toBe('我方卖出');
    expect(text('confirm-lots')).toBe('3 手（合约乘数 5）');
    expect(text('confirm-order-kind')).toBe('限价单，委托价 ¥79,500.00');
    expect(text('confirm-goods-price')).toBe('¥79,650.00');
    expect(screen.queryByTestId('confirm-market-risk')).toBeNull();
  });

  it('shows the margin the fix will hold and the available after it, and nothing of margin without one', () => {
    const { text } = show({ kind: 'market', quantity: 2 }, {}, { margin: 80_160, availableAfter: -160 });
    expect(text('confirm-margin')).toBe('80,160.00 元');
    expect(text('confirm-available-after')).toBe('-160.00 元');
    cleanup();
    show({ kind: 'market', quantity: 2 });
    expect(screen.queryByTestId('confirm-margin')).toBeNull();
  });

  it('Enter confirms, Escape cancels, the buttons do what they say', () => {
    const a = show({ kind: 'market', quantity: 1 });
    fireEvent.keyDown(screen.getByRole('button', { name: '确认点价' }), { key: 'Enter' });
    expect(a.onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(a.onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(a.onCancel).toHaveBeenCalledTimes(2);
    // Enter on 取消 or the close button is theirs, never a confirmation.
    fireEvent.keyDown(screen.getByRole('button', { name: '取消' }), { key: 'Enter' });
    fireEvent.keyDown(screen.getByRole('button', { name: '关闭' }), { key: 'Enter' });
    expect(a.onConfirm).toHaveBeenCalledTimes(1);
    // Enter elsewhere in the sheet (its text) confirms.
    fireEvent.keyDown(screen.getByTestId('confirm-amount'), { key: 'Enter' });
    expect(a.onConfirm).toHaveBeenCalledTimes(2);
  });

  it('a condition already met says it fires at once', () => {
    const { text } = show({ kind: 'conditional', quantity: 1, triggerOp: '<=', triggerPrice: 80_500, orderPrice: 0 });
    expect(screen.getByRole('button', { name: '确认提交条件单' }).tagName).toBe('BUTTON');
    expect(text('confirm-trigger')).toBe('最新价 ≤ ¥80,500.00');
    expect(text('confirm-fires-at-once')).toBe(
      '当前最新价 ¥80,000.00 已满足触发条件，提交后将在下一笔行情时立即触发点价。',
    );
  });
});
