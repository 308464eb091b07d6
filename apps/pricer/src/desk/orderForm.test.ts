import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import {
  orderSchema,
  priceRulesOf,
  roundToTick,
  toOrderRequest,
  withOrderType,
  type OrderFormValues,
} from './orderForm';

const contract = { id: 3, remaining_quantity: 10 };
const limit = (quantity: number | '', price: number | ''): OrderFormValues => ({ quantity, price, orderType: 'limit' });
// Rebar: tick 1, today's band 2,880 … 3,310.
const rules = { price_tick: 1, upper_limit: 3310, lower_limit: 2880 };
const errorsOf = (values: OrderFormValues, c: typeof contract | null = contract, r = rules) =>
  schemaResolver(orderSchema(c ?? undefined, r), { sync: true })(values);

describe('order form schema', () => {
  it('applies the SPEC §5 rules with their messages, each on its field', () => {
    expect(errorsOf(limit(1, 3000), null)).toEqual({ contract: '请选择合同' });
    expect(errorsOf(limit('', 3000))).toEqual({ quantity: '请输入有效的成交数量' });
    expect(errorsOf(limit(0, 3000))).toEqual({ quantity: '请输入有效的成交数量' });
    expect(errorsOf(limit(1.5, 3000))).toEqual({ quantity: '成交数量必须是整数' });
    expect(errorsOf(limit(11, 3000))).toEqual({ quantity: '成交数量不能超过剩余数量（剩余 10 手）' });
    expect(errorsOf(limit(10, ''))).toEqual({ price: '限价单必须有有效价格' });
    expect(errorsOf(limit(0, 0))).toEqual({ quantity: '请输入有效的成交数量', price: '限价单必须有有效价格' });
    expect(errorsOf(limit(10, 3095))).toEqual({});
    expect(errorsOf({ quantity: 10, price: '', orderType: 'market' })).toEqual({});
  });

  it('refuses what the exchange would: off the tick grid, outside the limit band', () => {
    expect(errorsOf(limit(1, 3095.5))).toEqual({ price: '价格不是最小变动价位的整数倍' });
    expect(errorsOf(limit(1, 3311))).toEqual({ price: '价格超出涨跌停板' });
    expect(errorsOf(limit(1, 2879))).toEqual({ price: '价格超出涨跌停板' });
    expect(errorsOf(limit(1, 3310))).toEqual({});
    expect(errorsOf(limit(1, 2880))).toEqual({});
    // A market order has no price to check.
    expect(errorsOf({ quantity: 1, price: '', orderType: 'market' }, contract, { ...rules, upper_limit: 1 })).toEqual(
      {},
    );
  });

  it("takes the snapshot's rules, else the contract's tick alone", () => {
    expect(priceRulesOf({ price_tick: 5 }, { price_tick: 10, upper_limit: 90, lower_limit: 80 })).toEqual({
      price_tick: 10,
      upper_limit: 90,
      lower_limit: 80,
    });
    expect(priceRulesOf({ price_tick: 5 }, undefined)).toEqual({ price_tick: 5, upper_limit: null, lower_limit: null });
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
