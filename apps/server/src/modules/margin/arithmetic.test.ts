import { describe, expect, it } from 'vitest';
import { accountFigures, floatingPnl, marginFor, type MarginRow } from './arithmetic';

const row = (r: Partial<MarginRow>): MarginRow => ({
  kind: 'F',
  pricer_id: 1,
  instrument_id: 'SHFE.cu2701',
  direction: 'BUY',
  rate: 0.1,
  multiplier: 5,
  lots: 1,
  price: 80_000,
  basis: 0,
  ...r,
});

describe('the margin arithmetic (docs/margin.md)', () => {
  it('prices a fixing at (price + basis) × lots × multiplier × rate, to the fen', () => {
    expect(marginFor(0.1, 80_000, 150, 2, 5)).toBe(80_150);
    expect(marginFor(0.07, 3_333.33, -20, 3, 10)).toBe(6_957.99);
  });

  it('marks a buyer and a seller against the market, nothing without a price', () => {
    expect(floatingPnl('BUY', 3_100, 2_800, 10, 10)).toBe(-30_000);
    expect(floatingPnl('SELL', 3_100, 2_800, 10, 10)).toBe(30_000);
    expect(floatingPnl('BUY', 3_100, undefined, 10, 10)).toBe(0);
  });

  it('counts a loss at once and a gain not at all; values an open market order at the live price', () => {
    const market = () => 70_000;
    const rows = [
      row({ kind: 'F', direction: 'SELL' }), // (80,000 − 70,000) × 5 = +50,000 gain; margin 40,000
      row({ kind: 'O', price: 0, lots: 2 }), // market order: 70,000 × 2 × 5 × 0.1 = 70,000
      row({ kind: 'W', price: 60_000, rate: 0 }), // no rate: holds nothing
    ];
    expect(accountFigures({ balance: 150_000, credit_line: 30_000 }, rows, market)).toEqual({
      balance: 150_000,
      credit_line: 30_000,
      margin_required: 110_000,
      floating_pnl: 50_000,
      available: 70_000,
      margin_call: false,
      call_amount: 0,
    });
    // Lots fixed on a contract without a margin rate are outside the margin terms: no loss counted, no call.
    const unmargined = accountFigures({ balance: 0, credit_line: 0 }, [row({ kind: 'F', rate: 0 })], market);
    expect(unmargined).toMatchObject({ margin_required: 0, floating_pnl: 0, available: 0, margin_call: false });
  });

  it('never holds less than 0 per holding: a basis below −(futures price) frees no other margin (issue 40)', () => {
    expect(marginFor(0.1, 3_000, -1_000_000, 1, 5)).toBe(0);
    const market = () => 3_000;
    const rows = [
      row({ kind: 'F', price: 3_000, basis: -1_000_000 }), // holds 0, not −498,500
      row({ kind: 'O', price: 0, basis: -1_000_000 }), // a market order at that basis: 0
      row({ kind: 'O', price: 0, basis: 100 }), // another contract's market order: (3,000 + 100) × 5 × 0.1 = 1,550
      row({ kind: 'W', price: 3_000, basis: 0 }), // 1,500
    ];
    expect(accountFigures({ balance: 1_000, credit_line: 0 }, rows, market)).toMatchObject({
      margin_required: 3_050,
      available: -2_050,
    });
  });
});
