import { describe, expect, it } from 'vitest';
import { CURVE_TYPES, curveKey, curveTypeId, curveTypesOf, dashArray, DEFAULT_CURVE_TYPE_IDS } from './curveTypes';

describe('curve types', () => {
  it('has the 8 combinations with unique colours and Chinese labels, puts dashed', () => {
    expect(CURVE_TYPES).toHaveLength(8);
    expect(new Set(CURVE_TYPES.map(curveTypeId)).size).toBe(8);
    expect(new Set(CURVE_TYPES.map((c) => c.color)).size).toBe(8);
    expect(CURVE_TYPES.map((c) => c.label)).toEqual([
      '看涨卖价',
      '看涨买价',
      '看涨中间价',
      '看涨最新价',
      '看跌卖价',
      '看跌买价',
      '看跌中间价',
      '看跌最新价',
    ]);
    for (const c of CURVE_TYPES) expect(Boolean(c.strokeDasharray)).toBe(c.optionType === 'PUT');
  });

  it('defaults to call-last and put-last, in that order', () => {
    expect(curveTypesOf(DEFAULT_CURVE_TYPE_IDS).map((c) => c.label)).toEqual(['看涨最新价', '看跌最新价']);
  });

  it('keeps the order of the ids and skips unknown ones', () => {
    expect(curveTypesOf(['PUT-bid', 'nope', 'CALL-ask']).map(curveTypeId)).toEqual(['PUT-bid', 'CALL-ask']);
  });

  it('builds the server key', () => {
    expect(curveKey('SHFE.cu2601', { optionType: 'PUT', priceType: 'bid' })).toBe('SHFE.cu2601-PUT-bid');
  });

  it('turns a dash pattern into numbers', () => {
    expect(dashArray('5 5')).toEqual([5, 5]);
    expect(dashArray('3,2')).toEqual([3, 2]);
    expect(dashArray(undefined)).toBeUndefined();
    expect(dashArray('')).toBeUndefined();
  });
});
