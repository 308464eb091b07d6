import { zh } from '@pfp/i18n';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_STATUSES,
  limitPriceProblem,
  onTickGrid,
  ORDER_MESSAGES,
  ORDER_STATUSES,
  orderProblem,
  PHONE_PATTERN,
  PRICER_STATUSES,
  STATUS_LABEL_KEYS,
} from './rules';

const at = (path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], zh);

describe('status labels', () => {
  const cases: [string, readonly string[]][] = [
    [STATUS_LABEL_KEYS.order.trader, ORDER_STATUSES],
    [STATUS_LABEL_KEYS.order.pricer, ORDER_STATUSES],
    [STATUS_LABEL_KEYS.contract.trader, CONTRACT_STATUSES],
    [STATUS_LABEL_KEYS.pricerUser.trader, PRICER_STATUSES],
  ];
  it.each(cases)('%s has a Chinese label for every status and no other', (path, statuses) => {
    const labels = at(path) as Record<string, string>;
    expect(Object.keys(labels).sort()).toEqual([...statuses].sort());
    for (const s of statuses) expect(labels[s]).toMatch(/^[\u4e00-\u9fff]+$/);
  });
});

describe('phone', () => {
  it.each(['13800138000', '19912345678'])('accepts %s', (p) => expect(PHONE_PATTERN.test(p)).toBe(true));
  it.each(['12800138000', '1380013800', '138001380001', '+8613800138000', '1380013800a', ''])('refuses %j', (p) =>
    expect(PHONE_PATTERN.test(p)).toBe(false),
  );
});

describe('orderProblem (SPEC §5 submit order)', () => {
  it.each([
    [{ quantity: 0, price: 0, orderType: 'market' as const }, 10, 'quantity', ORDER_MESSAGES.quantity],
    [{ quantity: NaN, price: 0, orderType: 'market' as const }, 10, 'quantity', ORDER_MESSAGES.quantity],
    [{ quantity: 1.5, price: 0, orderType: 'market' as const }, 10, 'quantity', ORDER_MESSAGES.quantityInteger],
    [
      { quantity: 11, price: 0, orderType: 'market' as const },
      10,
      'quantity',
      '成交数量不能超过剩余数量（剩余 10 手）',
    ],
    [{ quantity: 1, price: 0, orderType: 'limit' as const }, 10, 'price', ORDER_MESSAGES.limitNeedsPrice],
    [{ quantity: 1, price: -1, orderType: 'limit' as const }, 10, 'price', ORDER_MESSAGES.limitNeedsPrice],
  ])('%j with %i remaining → %s', (input, remaining, field, message) => {
    expect(orderProblem(input, remaining)).toEqual({ field, message });
  });
  it('passes a valid market and limit order', () => {
    expect(orderProblem({ quantity: 10, price: 0, orderType: 'market' }, 10)).toBeNull();
    expect(orderProblem({ quantity: 1, price: 71230.5, orderType: 'limit' }, 10)).toBeNull();
  });
});

describe('limitPriceProblem (what the exchange refuses)', () => {
  // Copper: tick 10, a day's band of ±7% around a settlement of 80,000 (74,400 … 85,600).
  const copper = { price_tick: 10, upper_limit: 85_600, lower_limit: 74_400 };

  it('takes a price on the grid inside the band, the limits included', () => {
    for (const p of [74_400, 80_000, 80_010, 85_600]) expect(limitPriceProblem(p, copper), String(p)).toBeNull();
  });

  it('refuses a price off the grid', () => {
    for (const p of [80_005, 80_001, 80_000.5])
      expect(limitPriceProblem(p, copper), String(p)).toBe('价格不是最小变动价位的整数倍');
  });

  it('refuses a price outside the band', () => {
    for (const p of [74_390, 85_610, 1_000_000])
      expect(limitPriceProblem(p, copper), String(p)).toBe('价格超出涨跌停板');
  });

  it('checks only the grid while the band is not known', () => {
    expect(limitPriceProblem(1_000_000, { price_tick: 10, upper_limit: null, lower_limit: null })).toBeNull();
  });

  it('decimal ticks: whole numbers of ticks despite floating-point noise', () => {
    // 0.2 × 7 = 1.4000000000000001 in binary floating point; 0.1 + 0.2 ≠ 0.3.
    expect(onTickGrid(1.4, 0.2)).toBe(true);
    expect(onTickGrid(0.1 + 0.2, 0.1)).toBe(true);
    expect(onTickGrid(3007.5, 0.5)).toBe(true);
    expect(onTickGrid(3007.25, 0.5)).toBe(false);
    expect(onTickGrid(0.3, 0.2)).toBe(false);
  });
});
