import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitPriceProblem, PRICE_MESSAGES } from './priceRules';

/** The grid check against integer arithmetic on ten-thousandths (prices have at most 4 decimals). */
const onGridReference = (price: number, tick: number) => {
  const p = Math.round(price * 1e4);
  const t = Math.round(tick * 1e4);
  return p > 0 && p % t === 0;
};

describe('limit prices the exchange would refuse', () => {
  it('agrees with integer arithmetic on every tick of the catalogue', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50),
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: -3, max: 3 }),
        (tick, steps, offset) => {
          const price = Number(((steps * Math.round(tick * 1e4) + offset) / 1e4).toFixed(4));
          const refused = limitPriceProblem(price, tick, undefined) === PRICE_MESSAGES.offTick;
          expect(refused).toBe(!onGridReference(price, tick));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses what would be stored as 0, and prices outside the band', () => {
    expect(limitPriceProblem(0.00004, 10, undefined)).toBe(PRICE_MESSAGES.offTick);
    expect(limitPriceProblem(0.00004, undefined, undefined)).toBe(PRICE_MESSAGES.offTick);
    expect(limitPriceProblem(0, 10, { lower: 1, upper: 2 })).toBeNull(); // market order
    expect(limitPriceProblem(3010, 10, { lower: 3000, upper: 3010 })).toBeNull();
    expect(limitPriceProblem(3020, 10, { lower: 3000, upper: 3010 })).toBe(PRICE_MESSAGES.outsideBand);
    expect(limitPriceProblem(2990, 10, { lower: 3000, upper: 3010 })).toBe(PRICE_MESSAGES.outsideBand);
  });
});
