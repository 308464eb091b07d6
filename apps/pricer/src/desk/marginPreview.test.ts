import { describe, expect, it } from 'vitest';
import { marginPreview, marginPrice } from './marginPreview';

describe('marginPreview', () => {
  const contract = { basis: 150, multiplier: 5, margin_rate: 0.1 };
  it('computes the margin a fixing holds and the available after it (docs/margin.md)', () => {
    expect(marginPreview(contract, { available: 120_000 }, 2, 80_000)).toEqual({
      margin: 80_150,
      availableAfter: 39_850,
    });
    expect(marginPreview(contract, { available: 10_000 }, 1, 75_000)).toEqual({
      margin: 37_575,
      availableAfter: -27_575,
    });
  });
  it('never holds less than 0: a basis that takes the goods price below 0 holds nothing (issue 40)', () => {
    expect(marginPreview({ ...contract, basis: -1_000_000 }, { available: 1_000 }, 1, 3_000)).toEqual({
      margin: 0,
      availableAfter: 1_000,
    });
  });
  it('says nothing without a rate, a quantity, a price or an account', () => {
    expect(marginPreview({ ...contract, margin_rate: 0 }, { available: 1 }, 1, 80_000)).toBeNull();
    expect(marginPreview(contract, { available: 1 }, '', 80_000)).toBeNull();
    expect(marginPreview(contract, { available: 1 }, 1, null)).toBeNull();
    expect(marginPreview(contract, undefined, 1, 80_000)).toBeNull();
  });
});

describe('marginPrice', () => {
  it('is the price the server holds margin at: limit, 条件单 order price or the worse of trigger and last, else the last price', () => {
    expect(marginPrice({ kind: 'limit', quantity: 1, price: 3100 }, 3000)).toBe(3100);
    expect(marginPrice({ kind: 'market', quantity: 1 }, 3000)).toBe(3000);
    expect(marginPrice({ kind: 'market', quantity: 1 }, null)).toBeNull();
    const conditional = { kind: 'conditional', quantity: 1, triggerOp: '<=', triggerPrice: 2900 } as const;
    // A market 条件单: the worse of its trigger and the last price (a trigger of 10 holds 3,000, issue 40).
    expect(marginPrice({ ...conditional, orderPrice: 0 }, 3000)).toBe(3000);
    expect(marginPrice({ ...conditional, triggerPrice: 10, orderPrice: 0 }, 3000)).toBe(3000);
    expect(marginPrice({ ...conditional, triggerPrice: 3100, orderPrice: 0 }, 3000)).toBe(3100);
    expect(marginPrice({ ...conditional, orderPrice: 0 }, null)).toBe(2900);
    expect(marginPrice({ ...conditional, orderPrice: 2950 }, 3000)).toBe(2950);
  });
});
