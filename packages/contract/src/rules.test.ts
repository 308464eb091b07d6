import { zh } from '@pfp/i18n';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_STATUSES,
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
