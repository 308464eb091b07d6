import { describe, expect, it } from 'vitest';
import { CONDITIONAL_COLUMNS, conditionalStatusLabel, triggerText } from './conditionalColumns';

describe('conditional order columns', () => {
  it('word the trigger and the state in Chinese', () => {
    expect(triggerText({ trigger_op: '>=', trigger_price: 3150 })).toBe('最新价 ≥ ¥3,150.00');
    expect(triggerText({ trigger_op: '<=', trigger_price: 80_010 })).toBe('最新价 ≤ ¥80,010.00');
    expect(['WAITING', 'TRIGGERED', 'CANCELLED', 'EXPIRED'].map(conditionalStatusLabel)).toEqual([
      '等待触发',
      '已触发',
      '已撤销',
      '已过期',
    ]);
  });

  it('has one column per field, the state, trigger and created order among them', () => {
    const fields = CONDITIONAL_COLUMNS.map((c) => c.field);
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields).toEqual(expect.arrayContaining(['id', 'status', 'trigger_price', 'order_id', 'pricer_name']));
  });
});
