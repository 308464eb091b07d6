import { describe, expect, it } from 'vitest';
import { shanghaiDate } from '../../platform/time';
import type { Quote } from '../../platform/quote';
import { SimExchange } from '../../market/simExchange';
import { ChainCurves, curveKey } from './chainCurves';

const T0 = shanghaiDate('2026-11-23 10:00');
const FUTURE = 'SHFE.cu2703';

function market() {
  let t = T0.getTime();
  const sim = new SimExchange({ seed: 3, now: () => new Date(t) });
  sim.subscribeChains([FUTURE]);
  const chain = sim.optionChain(FUTURE);
  const quotes = () => [FUTURE, ...chain.map((o) => o.symbol)].map((s) => sim.getQuote(s)!);
  const step = (n = 1) => {
    for (let i = 0; i < n; i++) {
      t += 500;
      sim.step();
    }
  };
  return { sim, chain, quotes, step, now: () => t };
}

describe('ChainCurves', () => {
  it('sends a strike that lost its point as [strike, 0], in every later version of the curve', () => {
    const m = market();
    const curves = new ChainCurves(FUTURE, m.chain, 0.015);
    curves.apply(m.quotes(), m.now());
    curves.update(m.now());
    const key = curveKey(FUTURE, 'CALL', 'mid');
    const [[strike, iv], [otherStrike]] = new Map(curves.all()).get(key)!.filter(([, v]) => v > 0) as [
      [number, number],
      [number, number],
    ];
    expect(iv).toBeGreaterThan(0);
    // That call loses its bid: no mid, no point.
    const symbol = m.chain.find((o) => o.optionType === 'CALL' && o.strike === strike)!.symbol;
    const q = m.sim.getQuote(symbol)!;
    curves.apply([{ ...q, bid_price1: null }], m.now());
    const changed = new Map(curves.update(m.now()));
    expect(changed.get(key)!.find(([k]) => k === strike)).toEqual([strike, 0]);
    // Another change to the curve later: the mark is still there.
    const other = m.chain.find((o) => o.optionType === 'CALL' && o.strike === otherStrike)!;
    const oq = m.sim.getQuote(other.symbol)!;
    curves.apply([{ ...oq, bid_price1: null }], m.now());
    expect(new Map(curves.update(m.now())).get(key)!.find(([k]) => k === strike)).toEqual([strike, 0]);
    // Nothing changed: nothing to send.
    expect(curves.update(m.now())).toEqual([]);
  });

  it('observes the trades of a feed that does not stamp them', () => {
    const m = market();
    m.step(20);
    const unstamped = (q: Quote): Quote => {
      const { last_trade_ms: _t, last_trade_underlying: _u, ...rest } = q;
      return rest;
    };
    const curves = new ChainCurves(FUTURE, m.chain, 0.015);
    curves.apply(m.quotes().map(unstamped), m.now());
    curves.update(m.now());
    const lastPoints = () =>
      ['CALL', 'PUT'].flatMap((o) =>
        new Map(curves.all()).get(curveKey(FUTURE, o as 'CALL', 'last'))!.filter(([, v]) => v > 0),
      ).length;
    // Trades before the first quotes: when, and where the future was, is unknown.
    expect(lastPoints()).toBe(0);
    // Trades seen since: a volume rise is a trade at that tick.
    for (let i = 0; i < 60; i++) {
      const before = new Map(m.quotes().map((q) => [q.symbol, q]));
      m.step();
      curves.apply(
        m
          .quotes()
          .filter((q) => q !== before.get(q.symbol))
          .map(unstamped),
        m.now(),
      );
    }
    curves.update(m.now());
    expect(lastPoints()).toBeGreaterThan(5);
  });
});
