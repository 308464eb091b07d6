import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';

/** The end-to-end suites' market shock exists only when the server is given one (SIM_MARKET_HOOKS=1). */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('POST /api/test/market-shift', () => {
  it('does not exist by default', async () => {
    h = await startHarness();
    const res = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: -5 });
    expect(res.status).toBe(404);
  });

  it('with the hook: moves the market by the percentage; bad input is a Chinese 400, an unknown symbol 404', async () => {
    const moves: [string, number][] = [];
    h = await startHarness({
      shiftMarket: (symbol, factor) => {
        if (symbol !== 'SHFE.cu2601') return undefined;
        moves.push([symbol, factor]);
        return { last_price: 80_000 * factor };
      },
    });
    const ok = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: -5 });
    expect(ok.status).toBe(200);
    expect(moves).toEqual([['SHFE.cu2601', 0.95]]);
    const bad = await h.call('/api/test/market-shift', { symbol: 'SHFE.cu2601', percent: 50 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/需要合约代码和 −20 至 20 之间的涨跌百分比/);
    expect((await h.call('/api/test/market-shift', { symbol: 'SHFE.xx', percent: 1 })).status).toBe(404);
    expect(moves).toHaveLength(1);
  });
});
