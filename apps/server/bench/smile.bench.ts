/**
 * The smile fit over the whole simulated market (docs/smile.md): per chain the time of one SVI fit (CPU time, best
 * of three) and the fit's error against the chain's mid vols; per product the served surface checked for static
 * arbitrage (call prices convex and decreasing in strike at 9 dates out to two years, total variance rising in time).
 *
 *   npx tsx bench/smile.bench.ts [--steps=20] [--seed=17]
 *
 * Every product with options, every chain expiring in a day or more, the seeded simulated exchange run for `steps`
 * ticks of 500 ms from a fixed date (as curves.bench.ts). Bounded, not part of CI.
 */
import { black76Price, fitSvi, SmileSurface, type SviFit } from '@pfp/quant';
import { shanghaiDate } from '../src/platform/time';
import { catalogue } from '../src/market/catalogue';
import { forwardPrice } from '../src/market/quote';
import { SimExchange } from '../src/market/simExchange';
import { chainPoints } from '../src/modules/volatility/smileFit';
import { fmt, footer, header, latencyLine, summarize } from './lib/stats';
import { numberArg } from './lib/args';

const STEPS = numberArg('steps', 20);
const SEED = numberArg('seed', 17);
const T0 = shanghaiDate('2026-11-23 10:00');
const YEAR_MS = 365 * 86_400_000;

header(`smile.bench: an SVI fit per chain of the simulated market, seed ${SEED}, after ${STEPS} ticks`);
let t = T0.getTime();
const sim = new SimExchange({ seed: SEED, now: () => new Date(t), rate: 0.015 });
const futures = catalogue
  .futuresWithOptions(undefined, undefined, T0)
  .filter((f) => sim.optionChain(f.symbol).some((o) => o.expiryMs - T0.getTime() >= 86_400_000));
sim.subscribeChains(futures.map((f) => f.symbol));
for (let i = 0; i < STEPS; i++) {
  t += 500;
  sim.step();
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Fitted {
  product: string;
  future: string;
  T: number;
  points: number;
  fit: SviFit;
}
const fitted: Fitted[] = [];
const times: number[] = [];
let tooFew = 0;
for (const f of futures) {
  const options = sim.optionChain(f.symbol);
  const F = forwardPrice(sim.getQuote(f.symbol));
  if (F === undefined || options.length === 0) continue;
  const T = (options[0]!.expiryMs - t) / YEAR_MS;
  const points = chainPoints(
    options.map((spec) => ({ spec, quote: sim.getQuote(spec.symbol) })),
    F,
    t,
  );
  let fit: SviFit | undefined;
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = cpu();
    fit = fitSvi(points, T);
    best = Math.min(best, cpu() - start);
  }
  if (!fit) {
    tooFew++;
    continue;
  }
  times.push(best);
  fitted.push({ product: `${f.exchange}.${f.productId}`, future: f.symbol, T, points: points.length, fit });
}

// The served surfaces: static arbitrage on a dense grid.
const byProduct = new Map<string, Fitted[]>();
for (const c of fitted) byProduct.set(c.product, [...(byProduct.get(c.product) ?? []), c]);
let worstRise = -Infinity;
let worstConvexity = Infinity;
let calendarBreaks = 0;
const ks = Array.from({ length: 1001 }, (_, i) => -2.5 + i * 0.005);
for (const chains of byProduct.values()) {
  const surface = new SmileSurface(chains.map((c) => ({ expiry: c.future, T: c.T, params: c.fit.params })));
  for (const T of [1 / 365, 7 / 365, 30 / 365, 60 / 365, 0.25, 0.5, 1, 1.5, 2]) {
    const calls = ks.map((k) =>
      black76Price(100, 100 * Math.exp(k), 1, 0, true, Math.sqrt(surface.at(k, T).totalVariance)),
    );
    for (let i = 1; i < ks.length; i++) worstRise = Math.max(worstRise, (calls[i]! - calls[i - 1]!) / 100);
    for (let i = 1; i < ks.length - 1; i++) {
      const [K0, K1, K2] = [ks[i - 1]!, ks[i]!, ks[i + 1]!].map((k) => 100 * Math.exp(k)) as [number, number, number];
      const d = (calls[i + 1]! - calls[i]!) / (K2 - K1) - (calls[i]! - calls[i - 1]!) / (K1 - K0);
      worstConvexity = Math.min(worstConvexity, d);
    }
  }
  for (const k of ks.filter((_, i) => i % 10 === 0)) {
    let prev = 0;
    for (let d = 1; d <= 730; d++) {
      const w = surface.at(k, d / 365).totalVariance;
      if (w < prev * (1 - 1e-14)) calendarBreaks++;
      prev = w;
    }
  }
}

const vp = (x: number) => fmt(x * 100, 2);
const rmse = summarize(fitted.map((c) => c.fit.rmse));
const maxErr = summarize(fitted.map((c) => c.fit.maxError));
const pts = summarize(fitted.map((c) => c.points));
console.log(
  `  ${fitted.length} chains fitted over ${byProduct.size} products (${tooFew} with fewer than 5 points left out), ` +
    `${fmt(pts.mean, 0)} points per chain (${pts.min}–${pts.max}), ${fitted.filter((c) => c.fit.flat).length} flat`,
);
const time = summarize(times);
console.log(`  fit time per chain (CPU, best of 3): ${latencyLine(time)}  (n=${time.n})`);
console.log(
  `  fit RMSE (vol points): mean ${vp(rmse.mean)}, p50 ${vp(rmse.p50)}, p90 ${vp(rmse.p90)}, max ${vp(rmse.max)}; ` +
    `max error: p50 ${vp(maxErr.p50)}, p90 ${vp(maxErr.p90)}, max ${vp(maxErr.max)}`,
);
const worst = [...fitted].sort((a, b) => b.fit.rmse - a.fit.rmse).slice(0, 3);
console.log(
  `  worst fits: ${worst.map((c) => `${c.future} (${fmt(c.T * 365, 0)} d, ${c.points} pts) ${vp(c.fit.rmse)}`).join('; ')}`,
);
console.log(
  `  served surfaces: largest call rise from one strike to the next ${worstRise.toExponential(1)}·F, most negative ` +
    `slope change ${worstConvexity.toExponential(1)} (rounding), total variance falling in time at ${calendarBreaks} of ` +
    `${byProduct.size * 101 * 730} (k, day) steps`,
);
footer();
