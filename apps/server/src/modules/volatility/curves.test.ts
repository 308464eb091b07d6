import { afterEach, describe, expect, it } from 'vitest';
import { shanghaiDate } from '../../platform/time';
import { findInstrument, futuresWithOptions } from '../../market/catalogue';
import { SimExchange } from '../../market/simExchange';
import { inlineEngine, type CurveEngine } from './curveEngine';
import { curveKey, VolatilityCurves, type CurvePoint } from './curves';
import { CurveWorkers } from './curveWorkers';

const T0 = shanghaiDate('2026-11-23 10:00');
const isFuture = (s: string) => findInstrument(s, T0)?.kind === 'future';
type Entry = { _key: string; curve_data: CurvePoint[]; tick_time: number };
type Patch = { patch: Record<string, Entry> };

const open: VolatilityCurves[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function setup(seed = 7, engine: CurveEngine = new CurveWorkers(1)) {
  let t = T0.getTime();
  const sim = new SimExchange({ seed, now: () => new Date(t) });
  const curves = new VolatilityCurves(sim, engine, { isFuture, public: true, now: () => t });
  open.push(curves);
  // The third listed month: a full chain, weeks from expiry.
  const future = futuresWithOptions('SHFE', 'cu', T0)[2]!.symbol;
  const step = () => {
    t += 500;
    sim.step();
    return t;
  };
  return { sim, curves, future, step, now: () => t };
}

/** Resolves once `cond` holds (the worker answers asynchronously). */
async function until(cond: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('volatility_curves', () => {
  it('answers the requested curves, strikes ascending, then only changed curves, each stamped with its tick', async () => {
    const { curves, future, step, now } = setup();
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
      expect(entry.tick_time).toBe(now());
      const strikes = entry.curve_data.map(([k]) => k);
      expect(strikes).toEqual([...strikes].sort((a, b) => a - b));
      // Mids near and away from the money; last prices only where the spread is narrow in vol.
      expect(entry.curve_data.length).toBeGreaterThanOrEqual(entry._key === putKey ? 6 : 3);
      for (const [, iv] of entry.curve_data) {
        expect(iv).toBeGreaterThan(0.05);
        expect(iv).toBeLessThan(0.5);
      }
    }
    const ticks = new Set<number>();
    for (let i = 0; i < 5; i++) ticks.add(step());
    await until(() => pushed.some((p) => Object.values(p.patch).some((e) => e.tick_time === now())));
    for (const p of pushed) {
      for (const [key, entry] of Object.entries(p.patch)) {
        expect([callKey, putKey]).toContain(key);
        expect(ticks).toContain(entry.tick_time);
      }
    }
    sub.close();
    expect(curves.activeFutures()).toEqual([]);
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
  });

  it('computes each chain once per tick, however many subscribers share it', async () => {
    const { sim, curves, future, step } = setup();
    const subs = await Promise.all(
      Array.from({ length: 10 }, () =>
        curves.source.subscribe({ items: [{ symbol: future, option_type: 'CALL', price_type: 'mid' }] }, () => {}),
      ),
    );
    // Ticks that moved the chain (its future or any of its options).
    let moved = 0;
    sim.onTick((quotes) => (moved += quotes.some((q) => q.symbol.startsWith(future)) ? 1 : 0));
    const before = curves.computations;
    for (let i = 0; i < 4; i++) {
      step();
      // Each tick's computation is in before the next tick.
      await until(() => curves.computations - before === moved);
    }
    // One computation per tick for the chain, not one per subscriber (that would be 40).
    expect(moved).toBeGreaterThan(0);
    expect(curves.computations - before).toBe(moved);
    // Ticks faster than the worker are merged: never more than one computation per tick.
    for (let i = 0; i < 20; i++) step();
    await new Promise((r) => setTimeout(r, 300));
    expect(curves.computations - before).toBeLessThanOrEqual(moved);
    subs.forEach((s) => s.close());
  });

  it('computes on the worker what it would compute on the main thread', async () => {
    let t = T0.getTime();
    const sim = new SimExchange({ seed: 11, now: () => new Date(t) });
    const opts = { isFuture, public: true, now: () => t };
    const onWorker = new VolatilityCurves(sim, new CurveWorkers(1), opts);
    const inline = new VolatilityCurves(sim, inlineEngine(), opts);
    open.push(onWorker, inline);
    const future = futuresWithOptions('DCE', 'm', T0)[1]!.symbol;
    const items = ['CALL', 'PUT'].flatMap((option_type) =>
      ['ask', 'bid', 'mid', 'last'].map((price_type) => ({ symbol: future, option_type, price_type })),
    );
    const held = [new Map<string, Entry>(), new Map<string, Entry>()];
    const subs = await Promise.all(
      [onWorker, inline].map((c, i) =>
        c.source.subscribe({ items }, (p) => {
          for (const [k, e] of Object.entries((p as Patch).patch)) held[i]!.set(k, e);
        }),
      ),
    );
    subs.forEach((s, i) => {
      for (const [k, e] of Object.entries((s.initial as Patch).patch)) held[i]!.set(k, e);
    });
    expect(held[0]).toEqual(held[1]);
    for (let i = 0; i < 10; i++) {
      t += 500;
      sim.step();
      await until(() => onWorker.computations === inline.computations);
    }
    // The same curves, stamped with the same tick.
    expect([...held[0]!.values()].some((e) => e.tick_time === t)).toBe(true);
    expect(held[0]).toEqual(held[1]);
    subs.forEach((s) => s.close());
  });

  it('carries on when a curve worker dies: its chains start over on a new one', async () => {
    const engine = new CurveWorkers(1);
    const { curves, future, step, now } = setup(5, engine);
    const pushed: Patch[] = [];
    const items = [{ symbol: future, option_type: 'PUT', price_type: 'mid' }];
    const sub = await curves.source.subscribe({ items }, (p) => pushed.push(p as Patch));
    // The worker thread goes away as a crash would take it.
    const { slots } = engine as unknown as { slots: { worker: { terminate(): Promise<number> } }[] };
    await slots[0]!.worker.terminate();
    await until(() => slots.length === 1 && curves.computations >= 2);
    pushed.length = 0;
    for (let i = 0; i < 20; i++) step();
    await until(() => pushed.some((p) => Object.values(p.patch).some((e) => e.tick_time === now())));
    sub.close();
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
  });
});
