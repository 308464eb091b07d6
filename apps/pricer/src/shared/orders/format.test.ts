import { describe, expect, it } from 'vitest';
import {
  canCancel,
  directionLabel,
  fillRate,
  limitPriceText,
  lotsText,
  statusLabel,
  tradePriceText,
  tradedLots,
} from './format';

describe('order display', () => {
  it('labels statuses, preferring the server text', () => {
    expect(statusLabel({ status: 'PENDING' })).toBe('待发送');
    expect(statusLabel({ status: 'ALIVE' })).toBe('执行中');
    expect(statusLabel({ status: 'FINISHED' })).toBe('已完成');
    expect(statusLabel({ status: 'CANCELLED' })).toBe('已撤销');
    expect(statusLabel({ status: 'REJECTED' })).toBe('已撤销');
    expect(statusLabel({ status: 'ALIVE', status_str: '执行中(服务端)' })).toBe('执行中(服务端)');
  });

  it('formats prices with ¥ and two decimals, market orders as 市价, lots with 手', () => {
    expect(limitPriceText(3095)).toBe('¥3,095.00');
    expect(limitPriceText(0)).toBe('市价');
    expect(tradePriceText({ trade_price: 86180, volume_traded: '2' })).toBe('¥86,180.00');
    expect(tradePriceText({ trade_price: 0, volume_traded: '0' })).toBe('-');
    expect(lotsText('1200')).toBe('1,200 手');
    expect(lotsText(3)).toBe('3 手');
    expect(tradedLots({ volume_traded: '7' })).toBe(7);
    expect(tradedLots({ volume_traded: 'x' })).toBe(0);
    expect(directionLabel('BUY')).toBe('买入');
    expect(directionLabel('SELL')).toBe('卖出');
  });

  it('computes the fill rate with one decimal, complete at 100%', () => {
    expect(fillRate({ volume_orign: 3, volume_traded: '1' })).toEqual({ ratio: 1 / 3, text: '33.3%', complete: false });
    expect(fillRate({ volume_orign: 5, volume_traded: '5' })).toEqual({ ratio: 1, text: '100.0%', complete: true });
    expect(fillRate({ volume_orign: 4, volume_traded: '0' }).text).toBe('0.0%');
    expect(fillRate({ volume_orign: 0, volume_traded: '0' }).text).toBe('-');
  });

  it('lets the customer cancel only ALIVE orders', () => {
    expect(canCancel({ status: 'ALIVE' })).toBe(true);
    expect(canCancel({ status: 'PENDING' })).toBe(false);
    expect(canCancel({ status: 'FINISHED' })).toBe(false);
  });
});
