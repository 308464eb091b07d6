import { describe, expect, it } from 'vitest';
import { payoffLines, type PayoffTerms } from './payoff';

const at = (t: PayoffTerms, x: number) => {
  const lines = payoffLines(t);
  const i = lines.x.findIndex((v) => Math.abs(v - x) < 1e-6);
  if (i < 0) throw new Error(`no point at ${x}`);
  return { plain: lines.plain[i]!, embedded: lines.embedded[i]! };
};

const base = { forward: 5000, basis: 50, premium: 100, strike: 5000 } as const;

describe('payoffLines', () => {
  it('a call caps the buyer’s price at strike + basis + premium; below the strike it costs the premium', () => {
    const t: PayoffTerms = { ...base, kind: 'vanilla', optionType: 'call' };
    expect(at(t, 5000)).toEqual({ plain: 5050, embedded: 5150 });
    const lines = payoffLines(t);
    const top = lines.embedded[lines.embedded.length - 1]!;
    expect(top).toBeCloseTo(5150, 9);
    expect(lines.plain[lines.plain.length - 1]!).toBeGreaterThan(5150);
  });

  it('a put floors the seller’s price at strike + basis − premium', () => {
    const t: PayoffTerms = { ...base, kind: 'asian', optionType: 'put' };
    const lines = payoffLines(t);
    expect(lines.embedded[0]).toBeCloseTo(4950, 9);
    expect(lines.x[0]).toBeCloseTo(4000, 9);
  });

  it('an up-and-out call stops paying at the barrier and pays the rebate beyond', () => {
    const t: PayoffTerms = {
      ...base,
      premium: 0,
      kind: 'barrier',
      optionType: 'call',
      barrier: 5500,
      barrierType: 'up_out',
      rebate: 10,
    };
    expect(at(t, 5500).embedded).toBeCloseTo(5500 + 50 - 10, 9);
    const below = payoffLines(t);
    const i = below.x.findIndex((v) => v >= 5499 && v < 5500);
    expect(below.embedded[i]).toBeCloseTo(5000 + 50, 1);
  });

  it('a 累购 buys at the strike between strike and knock-out, leveraged below, at market with H − K above', () => {
    const t: PayoffTerms = {
      ...base,
      premium: 0,
      kind: 'accumulator',
      optionType: 'call',
      strike: 4800,
      barrier: 5300,
      side: 'buy',
      leverage: 2,
    };
    expect(at(t, 4800).embedded).toBeCloseTo(4850, 9);
    expect(at(t, 5300).embedded).toBeCloseTo(5300 + 50 - 500, 9);
    const lines = payoffLines(t);
    // Below the strike the loss runs at twice the speed: at 3840 (0.8 × the strike), 3840 + 50 − 2·(3840 − 4800).
    expect(lines.x[0]).toBeCloseTo(3840, 9);
    expect(lines.embedded[0]).toBeCloseTo(3840 + 50 + 1920, 9);
  });
});
