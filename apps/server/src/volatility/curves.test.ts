import { describe, expect, it } from 'vitest';
import { findInstrument, futuresWithOptions } from '../market/catalogue';
import { SimExchange } from '../market/simExchange';
import { curveKey, VolatilityCurves, type CurvePoint } from './curves';

const isFuture = (s: string) => findInstrument(s)?.kind === 'future';
type Patch = { patch: Record<string, { _key: string; curve_data: CurvePoint[] }> };

function setup(seed = 7) {
  const sim = new SimExchange({ seed });
  const curves = new VolatilityCurves(sim, { isFuture, public: true, now: () => Date.now() });
  // The third listed month: a full chain, weeks from expiry.
  const future = futuresWithOptions('SHFE', 'cu')[2]!.symbol;
  return { sim, curves, future };
}

describe('volatility_curves', () => {
  it('answers the requested curves with strikes ascending and plausible vols, then only changed curves', async () => {
    const { sim, curves, future } = setup();
    const pushed: Patch[] = [];
    const items = [
      { symbol: future, option_type: 'CALL', price_type: 'last' },
      { symbol: future, option_type: 'PUT', price_type: 'mid' },
    ];
    const sub = await curves.source.subscribe({ items }, (p) => pushed.push(p as Patch));
    const initial = sub.initial as Patch;
    const callKey = curveKey(future, 'CALL', 'last');
    const putKey = curveKey(future, 'PUT', 'mid');
    expect(Object.keys(initial.patch).sort()).toEqual([callKey, putKey].sort());
    for (const entry of Object.values(initial.patch)) {
      const strikes = entry.curve_data.map(([k]) => k);
      expect(strikes).toEqual([...strikes].sort((a, b) => a - b));
      expect(entry.curve_data.length).toBeGreaterThan(5);
      for (const [, iv] of entry.curve_data) {
        expect(Number.isFinite(iv)).toBe(true);
        expect(iv).toBeGreaterThan(0.02);
        // Last prices can be stale far from the money; mids stay near the simulated smile.
        expect(iv).toBeLessThan(entry._key.endsWith('mid') ? 1 : 5);
      }
    }
    for (let i = 0; i < 5; i++) sim.step();
    expect(pushed.length).toBeGreaterThan(0);
    for (const p of pushed) {
      for (const key of Object.keys(p.patch)) expect([callKey, putKey]).toContain(key);
    }
    sub.close();
    expect(curves.activeFutures()).toEqual([]);
    curves.close();
  });

  it('the mid curve lies between the bid and ask curves', async () => {
    const { curves, future } = setup(3);
    const items = ['bid', 'mid', 'ask'].map((price_type) => ({ symbol: future, option_type: 'PUT', price_type }));
    const sub = await curves.source.subscribe({ items }, () => {});
    const p = (sub.initial as Patch).patch;
    const at = (t: string) => new Map(p[curveKey(future, 'PUT', t as 'bid')]!.curve_data);
    const [bid, mid, ask] = [at('bid'), at('mid'), at('ask')];
    let compared = 0;
    for (const [k, m] of mid) {
      const b = bid.get(k);
      const a = ask.get(k);
      if (b === undefined || a === undefined) continue;
      expect(m).toBeGreaterThanOrEqual(b - 1e-9);
      expect(m).toBeLessThanOrEqual(a + 1e-9);
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
    sub.close();
    curves.close();
  });

  it('computes each chain once per tick, however many subscribers share it', async () => {
    const { sim, curves, future } = setup();
    const subs = await Promise.all(
      Array.from({ length: 10 }, () =>
        curves.source.subscribe({ items: [{ symbol: future, option_type: 'CALL', price_type: 'mid' }] }, () => {}),
      ),
    );
    const before = curves.computations;
    for (let i = 0; i < 4; i++) sim.step();
    // At most one computation per tick for the chain, not one per subscriber (that would be 40).
    expect(curves.computations - before).toBeGreaterThanOrEqual(1);
    expect(curves.computations - before).toBeLessThanOrEqual(4);
    subs.forEach((s) => s.close());
    curves.close();
  });

  it('rejects bad items with a clear message', async () => {
    const { curves, future } = setup();
    const bad = [
      [undefined, '参数 items 必须是非空数组'],
      [[{ symbol: 'SHFE.xx0000', option_type: 'CALL', price_type: 'mid' }], '不是有效的期货合约'],
      [[{ symbol: future, option_type: 'BOTH', price_type: 'mid' }], 'option_type 必须是 CALL 或 PUT'],
      [[{ symbol: future, option_type: 'CALL', price_type: 'close' }], 'price_type'],
    ] as const;
    for (const [items, msg] of bad) {
      await expect(curves.source.subscribe({ items }, () => {})).rejects.toThrow(msg);
    }
    curves.close();
  });
});
