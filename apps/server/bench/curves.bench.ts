/**
 * The volatility curves over the whole simulated market: how well they agree with put–call parity, how
 * smooth they are, how much of each chain they cover, and what one chain's computation costs (the work a
 * curve worker does per chain per tick).
 *
 *   npx tsx bench/curves.bench.ts [--steps=120] [--seed=17]
 *
 * Every product with options, every chain expiring in 7 days or more, the seeded simulated exchange run
 * for `steps` ticks of 500 ms from a fixed date (the same setting as src/volatility/curveQuality.test.ts,
 * which holds the curves to 2 / 3 vol points of parity on mids / last prices). Bounded, not part of CI.
 */
import { shanghaiDate } from '../src/platform/time';
import { catalogue } from '../src/market/catalogue';
import { SimExchange } from '../src/market/simExchange';
import { ChainCurves, curveKey, type CurvePoint } from '../src/modules/volatility/chainCurves';
import { fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const STEPS = numberArg('steps', 120);
const SEED = numberArg('seed', 17);
const T0 = shanghaiDate('2026-11-23 10:00');
const RATE = 0.015;
const DAY_MS = 86_400_000;

header(`curves.bench: every chain ≥ 7 days of the simulated market, seed ${SEED}, ${STEPS} ticks`);
let t = T0.getTime();
const sim = new SimExchange({ seed: SEED, now: () => new Date(t), rate: RATE });
const chains = catalogue
  .futuresWithOptions(undefined, undefined, T0)
  .filter((f) => sim.optionChain(f.symbol).some((o) => o.expiryMs - T0.getTime() >= 7 * DAY_MS));
sim.subscribeChains(chains.map((f) => f.symbol));
const curves = new Map(chains.map((f) => [f.symbol, new ChainCurves(f.symbol, sim.optionChain(f.symbol), RATE)]));
const symbolsOf = (future: string) => [future, ...sim.optionChain(future).map((o) => o.symbol)];
for (const [future, c] of curves)
  c.apply(
    symbolsOf(future).map((s) => sim.getQuote(s)!),
    t,
  );

// The cost of one chain's update, as a worker computes it: the tick's quotes in, the changed curves out.
const costs: number[] = [];
const byChain = new Map<string, string>();
for (const f of chains) for (const s of symbolsOf(f.symbol)) byChain.set(s, f.symbol);
sim.onTick((quotes, at) => {
  const touched = new Map<string, typeof quotes>();
  for (const q of quotes) {
    const f = byChain.get(q.symbol);
    if (f) touched.set(f, [...(touched.get(f) ?? []), q]);
  }
  for (const [f, qs] of touched) {
    const c = curves.get(f)!;
    const t0 = performance.now();
    c.apply(qs, at);
    c.update(at);
    costs.push(performance.now() - t0);
  }
});
const started = performance.now();
for (let i = 0; i < STEPS; i++) {
  t += 500;
  sim.step();
}
const elapsed = (performance.now() - started) / 1000;

interface Row {
  chains: number;
  strikes: number;
  covered: number;
  parity: { mid: number; last: number };
  pairs: { mid: number; last: number };
  bend: { mid: number; last: number };
  points: number;
  outside: number;
}
const rows = new Map<string, Row>();
for (const f of chains) {
  const all = new Map(curves.get(f.symbol)!.all());
  const style = sim.optionChain(f.symbol)[0]!.style;
  const cls = `${f.exchange} ${style === 'E' ? 'European' : 'American'}`;
  const row = rows.get(cls) ?? {
    chains: 0,
    strikes: 0,
    covered: 0,
    parity: { mid: 0, last: 0 },
    pairs: { mid: 0, last: 0 },
    bend: { mid: 0, last: 0 },
    points: 0,
    outside: 0,
  };
  rows.set(cls, row);
  const grid = [...new Set(sim.optionChain(f.symbol).map((o) => o.strike))].sort((a, b) => a - b);
  const index = new Map(grid.map((k, i) => [k, i]));
  row.chains++;
  row.strikes += grid.length;
  const live = (o: 'CALL' | 'PUT', p: 'mid' | 'last'): CurvePoint[] =>
    all.get(curveKey(f.symbol, o, p))!.filter(([, v]) => v > 0);
  const midStrikes = new Set([...live('CALL', 'mid'), ...live('PUT', 'mid')].map(([k]) => k));
  row.covered += midStrikes.size;
  for (const p of ['mid', 'last'] as const) {
    const calls = new Map(live('CALL', p));
    for (const [k, put] of live('PUT', p)) {
      const call = calls.get(k);
      if (call === undefined) continue;
      row.pairs[p]++;
      row.parity[p] = Math.max(row.parity[p], Math.abs(call - put));
    }
    for (const o of ['CALL', 'PUT'] as const) {
      const pts = live(o, p);
      for (let i = 2; i < pts.length; i++) {
        if (index.get(pts[i]![0])! - index.get(pts[i - 2]![0])! !== 2) continue;
        row.bend[p] = Math.max(row.bend[p], Math.abs(pts[i - 2]![1] - 2 * pts[i - 1]![1] + pts[i]![1]));
      }
    }
  }
  for (const [, pts] of all)
    for (const [, v] of pts) {
      if (v <= 0) continue;
      row.points++;
      if (v < 0.03 || v > 1.5) row.outside++;
    }
}

const vp = (x: number) => fmt(x * 100, 2).padStart(5);
console.log(
  `  ${chains.length} chains, ${STEPS} ticks simulated in ${fmt(elapsed)} s (the exchange and every chain's curves on this thread)`,
);
console.log(
  '\n  class            chains strikes  with a mid | max |call−put| mid  last | max |Δ²σ| mid  last | points (outside 3–150 %)',
);
for (const [cls, r] of [...rows].sort()) {
  console.log(
    `  ${cls.padEnd(16)} ${String(r.chains).padStart(6)} ${String(r.strikes).padStart(7)}  ${fmt((100 * r.covered) / r.strikes, 0).padStart(8)} % |` +
      `            ${vp(r.parity.mid)} ${vp(r.parity.last)} |      ${vp(r.bend.mid)} ${vp(r.bend.last)} | ${r.points} (${r.outside})`,
  );
}
console.log('  (vol points; parity goal: mid ≤ 2, last ≤ 3)');
const cost = summarize(costs);
console.log(
  `\n  one chain's curves per tick (apply the tick's quotes, recompute 8 curves): ${latencyLine(cost)}  (n=${cost.n})`,
);
footer();
