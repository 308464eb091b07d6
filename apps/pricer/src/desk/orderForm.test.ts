import { describe, expect, it } from 'vitest';
import { roundToTick, toOrderRequest, validateOrder, withOrderType, type OrderFormValues } from './orderForm';

const contract = { id: 3, remaining_quantity: 10 };
const limit = (quantity: number | '', price: number | ''): OrderFormValues => ({ quantity, price, orderType: 'limit' });

describe('validateOrder', () => {
  it('applies the rules in order with the spec messages', () => {
    expect(validateOrder(limit(1, 100), undefined)).toEqual({ field: 'contract', message: '请选择合同' });
    expect(validateOrder(limit('', 100), contract)?.message).toBe('请输入有效的成交数量');
    expect(validateOrder(limit(0, 100), contract)?.message).toBe('请输入有效的成交数量');
    expect(validateOrder(limit(1.5, 100), contract)?.message).toBe('请输入有效的成交数量');
    expect(validateOrder(limit(11, 100), contract)).toEqual({ field: 'quantity', message: '成交数量不能超过剩余数量' });
    expect(validateOrder(limit(10, ''), contract)).toEqual({ field: 'price', message: '限价单必须有有效价格' });
    expect(validateOrder(limit(10, 0), contract)?.message).toBe('限价单必须有有效价格');
    expect(validateOrder(limit(10, 3095), contract)).toBeNull();
    expect(validateOrder({ quantity: 10, price: '', orderType: 'market' }, contract)).toBeNull();
  });
});

describe('order form values', () => {
  it('clears the price when market is chosen and sends market orders at price 0', () => {
    const market = withOrderType(limit(2, 3100), 'market');
    expect(market).toEqual({ quantity: 2, price: '', orderType: 'market' });
    expect(toOrderRequest(market, 3)).toEqual({ contract_id: 3, quantity: 2, price: 0 });
    expect(toOrderRequest(limit(2, 3100.5), 3)).toEqual({ contract_id: 3, quantity: 2, price: 3100.5 });
    expect(withOrderType(market, 'limit')).toEqual({ quantity: 2, price: '', orderType: 'limit' });
  });

  it('rounds to the price tick without float noise', () => {
    expect(roundToTick(86180 * 1.02, 10)).toBe(87900);
    expect(roundToTick(3095 * 0.96, 1)).toBe(2971);
    expect(roundToTick(4000.13, 0.2)).toBe(4000.2);
    expect(roundToTick(5.555, 0.01)).toBe(5.56);
    expect(roundToTick(12.3, 0.5)).toBe(12.5);
  });
});
