import { schemaResolver } from '@mantine/form';
import { describe, expect, it } from 'vitest';
import {
  beijingInstant,
  conditionalSchema,
  EMPTY_CONDITIONAL_FORM,
  toConditionalRequest,
  type ConditionalFormValues,
} from './conditionalForm';

// Rebar: tick 1; deadline 2026-03-06 (its close: 07:00Z); "now" 2026-03-02 10:00 Beijing.
const contract = { id: 3, remaining_quantity: 10, price_tick: 1, fixing_deadline: '2026-03-06' };
const now = () => new Date('2026-03-02T02:00:00Z');
const form = (over: Partial<ConditionalFormValues>): ConditionalFormValues => ({
  ...EMPTY_CONDITIONAL_FORM,
  quantity: 2,
  triggerPrice: 3150,
  ...over,
});
const errorsOf = (v: ConditionalFormValues, c: typeof contract | null = contract) =>
  schemaResolver(conditionalSchema(c ?? undefined, now), { sync: true })(v);

describe('conditional order form', () => {
  it('applies the order rules and the tick grid, each message on its field', () => {
    expect(errorsOf(form({}), null)).toEqual({ contract: '请选择合同' });
    expect(errorsOf(form({}))).toEqual({});
    expect(errorsOf(form({ quantity: '' }))).toEqual({ quantity: '请输入有效的手数' });
    expect(errorsOf(form({ quantity: 11 }))).toEqual({ quantity: '成交数量不能超过剩余数量（剩余 10 手）' });
    expect(errorsOf(form({ triggerPrice: '' }))).toEqual({ triggerPrice: '请输入有效的触发价' });
    expect(errorsOf(form({ triggerPrice: 3150.5 }))).toEqual({ triggerPrice: '触发价必须是最小变动价位 1 的整数倍' });
    expect(errorsOf(form({ orderKind: 'limit', orderPrice: '' }))).toEqual({ orderPrice: '限价单必须有有效价格' });
    expect(errorsOf(form({ orderKind: 'limit', orderPrice: 3151.5 }))).toEqual({
      orderPrice: '委托价必须是最小变动价位 1 的整数倍',
    });
    expect(errorsOf(form({ orderKind: 'limit', orderPrice: 3152 }))).toEqual({});
    // A market order has no price to check.
    expect(errorsOf(form({ orderKind: 'market', orderPrice: 3151.5 }))).toEqual({});
  });

  it('reads the validity as Beijing time: in the future, not after the deadline close', () => {
    expect(beijingInstant('2026-03-06T15:00')?.toISOString()).toBe('2026-03-06T07:00:00.000Z');
    expect(beijingInstant('tomorrow')).toBeNull();
    expect(errorsOf(form({ expiresAt: '2026-03-06T15:00' }))).toEqual({});
    expect(errorsOf(form({ expiresAt: '2026-03-06T15:01' }))).toEqual({
      expiresAt: '有效期不能晚于点价截止日（2026-03-06 15:00）',
    });
    expect(errorsOf(form({ expiresAt: '2026-03-02T10:00' }))).toEqual({ expiresAt: '有效期必须晚于当前时间' });
  });

  it('sends a market order with order_price 0, and no expires_at when left empty', () => {
    expect(toConditionalRequest(form({ triggerOp: '<=', orderPrice: 3000 }), 3)).toEqual({
      contract_id: 3,
      quantity: 2,
      trigger_op: '<=',
      trigger_price: 3150,
      order_price: 0,
    });
    expect(
      toConditionalRequest(form({ orderKind: 'limit', orderPrice: 3152, expiresAt: '2026-03-05T14:30' }), 3),
    ).toEqual({
      contract_id: 3,
      quantity: 2,
      trigger_op: '>=',
      trigger_price: 3150,
      order_price: 3152,
      expires_at: '2026-03-05T06:30:00.000Z',
    });
  });
});
