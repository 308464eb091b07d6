import { describe, expect, it } from 'vitest';
import { limitPriceText, orderStatusLabel, tradePriceText } from './orderColumns';
import { computeOrderStats } from './orderStats';

describe('computeOrderStats', () => {
  it('follows the spec formulas', () => {
    const stats = computeOrderStats([
      { status: 'PENDING', count_id: 2, sum_turnover: 0 },
      { status: 'ALIVE', count_id: 3, sum_turnover: 1000 },
      { status: 'FINISHED', count_id: 4, sum_turnover: 123456.5 },
      { status: 'CANCELLED', count_id: 3, sum_turnover: null },
    ]);
    // The amount is the FINISHED orders' turnover (SPEC §9, with the multiplier: issue 29).
    expect(stats).toEqual({ total: 12, finished: 4, active: 5, successRate: 4 / 12, amount: 123456.5 });
  });

  it('is all zero without orders (no division by zero)', () => {
    expect(computeOrderStats([])).toEqual({ total: 0, finished: 0, active: 0, successRate: 0, amount: 0 });
  });

  it('reads numeric strings', () => {
    expect(computeOrderStats([{ status: 'FINISHED', count_id: '5', sum_turnover: '10.5' }]).amount).toBe(10.5);
  });
});

describe('order cells', () => {
  it('labels the statuses for the trader; anything else is cancelled', () => {
    expect(['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED', 'REJECTED'].map(orderStatusLabel)).toEqual([
      '待发送',
      '处理中',
      '已完成',
      '已撤销',
      '已撤销',
    ]);
  });

  it('shows a limit price of 0 as a market order', () => {
    expect(limitPriceText(0)).toBe('市价');
    expect(limitPriceText(71230)).toBe('¥71,230.00');
  });

  it('shows the average fill price only once something traded', () => {
    expect(tradePriceText({ trade_price: 3520.5, volume_traded: '3' })).toBe('¥3,520.50');
    expect(tradePriceText({ trade_price: 0, volume_traded: '0' })).toBe('-');
  });
});
