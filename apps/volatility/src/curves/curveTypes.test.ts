import { describe, expect, it } from 'vitest';
import { CURVE_TYPES, curveKey, curveTypeId, DEFAULT_CURVE_TYPE_IDS } from './curveTypes';

describe('curve types', () => {
  it('has the 8 combinations with unique colours, puts dashed', () => {
    expect(CURVE_TYPES).toHaveLength(8);
    expect(new Set(CURVE_TYPES.map(curveTypeId)).size).toBe(8);
    expect(new Set(CURVE_TYPES.map((c) => c.color)).size).toBe(8);
    for (const c of CURVE_TYPES) expect(Boolean(c.strokeDasharray)).toBe(c.optionType === 'PUT');
  });
  it('defaults to call-last and put-last, which exist', () => {
    const ids = CURVE_TYPES.map(curveTypeId);
    for (const id of DEFAULT_CURVE_TYPE_IDS) expect(ids).toContain(id);
  });
  it('builds the server key', () => {
    expect(curveKey('SHFE.cu2601', { optionType: 'PUT', priceType: 'bid' })).toBe('SHFE.cu2601-PUT-bid');
  });
});
