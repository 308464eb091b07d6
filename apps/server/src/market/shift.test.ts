import { describe, expect, it } from 'vitest';
import { shanghaiDate } from '../platform/time';
import { SimExchange, type Quote } from './simExchange';

describe('the simulated market shock (SIM_MARKET_HOOKS, docs/margin.md)', () => {
  it('moves a future at once by the factor, on its tick, inside its limits, and tells the listeners', () => {
    const at = shanghaiDate('2025-11-20 10:00');
    const sim = new SimExchange({ seed: 7, now: () => at });
    const symbol = sim.listFutures().find((f) => f.symbol.startsWith('SHFE.cu'))!.symbol;
    const before = sim.getQuote(symbol)!;
    const heard: Quote[] = [];
    sim.onTick((quotes) => heard.push(...quotes));
    const after = sim.shift(symbol, 0.95)!;
    expect(Math.abs(after.last_price / before.last_price - 0.95)).toBeLessThan(0.01);
    expect(after.last_price % 10).toBe(0); // copper's tick
    expect(sim.getQuote(symbol)!.last_price).toBe(after.last_price);
    expect(after.ask_price1! - after.bid_price1!).toBeLessThanOrEqual(20);
    expect(heard.map((q) => q.last_price)).toEqual([after.last_price]);
    // Far beyond the day's limit: held at it.
    expect(sim.shift(symbol, 0.5)!.last_price).toBeGreaterThanOrEqual(before.lower_limit);
    expect(sim.shift('SHFE.nope', 0.9)).toBeUndefined();
  });
});
