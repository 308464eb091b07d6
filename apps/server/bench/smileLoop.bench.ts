/**
 * What the smile refits cost the main thread (docs/smile.md "Off the main thread"): the smile book refreshing N
 * products, once fitting on this thread (CURVE_WORKERS=0, the code before the fits moved: the same fit, called in
 * line) and once on the curve workers, in the same run on the same quotes. Per refresh: the event loop's delay
 * (perf_hooks monitorEventLoopDelay, 1 ms resolution: how long a customer's fix could wait behind it), the main
 * thread's busy time (eventLoopUtilization's active time) and the part of it spent posting the chains, and the
 * wall time until the new smiles are in. Both modes must keep the same fitted parameters, to the bit.
 *
 *   npx tsx bench/smileLoop.bench.ts [--products=8] [--rounds=10] [--seed=17]
 *
 * The seeded simulated exchange from a fixed date (as smile.bench.ts); before each round the market moves 10 ticks
 * of 500 ms, so nearly every chain's points move and are refitted. Bounded, not part of CI.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { shanghaiDate } from '../src/platform/time';
import { catalogue } from '../src/market/catalogue';
import { SimExchange } from '../src/market/simExchange';
import { CurveWorkers, defaultWorkerCount } from '../src/modules/volatility/curveWorkers';
import { SmileBook, type ProductSmile } from '../src/modules/volatility/smileBook';
import { inlineFitter } from '../src/modules/volatility/smileFit';
import { numberArg } from './lib/args';
import { fmt, footer, header, summarize, type Summary } from './lib/stats';

const PRODUCTS = numberArg('products', 8);
const ROUNDS = numberArg('rounds', 10);
const SEED = numberArg('seed', 17);
const T0 = shanghaiDate('2026-11-23 10:00');

const workers = defaultWorkerCount();
header(
  `smileLoop.bench: the smile book refreshing ${PRODUCTS} products, ${ROUNDS} rounds, seed ${SEED}: ` +
    `fits on the main thread against fits on ${workers} curve worker(s)`,
);
let t = T0.getTime();
const sim = new SimExchange({ seed: SEED, now: () => new Date(t), rate: 0.015 });
// The first N products with options, by their third listed future (a full chain, weeks from expiry).
const byProduct = new Map<string, string[]>();
for (const f of catalogue.futuresWithOptions(undefined, undefined, T0)) {
  const key = `${f.exchange}.${f.productId}`;
  byProduct.set(key, [...(byProduct.get(key) ?? []), f.symbol]);
}
const products = [...byProduct.values()].filter((fs) => fs.length >= 3).slice(0, PRODUCTS);
sim.subscribeChains(products.flat());
const step = (n: number) => {
  for (let i = 0; i < n; i++) {
    t += 500;
    sim.step();
  }
};
step(20);

const pool = new CurveWorkers(workers);
const modes = [
  { name: 'main thread (before)', fitter: inlineFitter },
  { name: `curve workers (after)`, fitter: pool },
].map((m) => {
  const book = new SmileBook(sim, { now: () => t });
  book.fitter = m.fitter;
  book.timed = true;
  return { ...m, book };
});

/** Every chain's fit, for the comparison (the wall time of the fit aside). */
const fits = (s: (ProductSmile | undefined)[]) =>
  JSON.stringify(s.map((p) => p?.chains.map((c) => [c.future, c.points, c.fit.params, c.fit.T, c.rmse, c.maxError])));

// First reads (and the workers' start): not measured.
for (const m of modes) await Promise.all(products.map((fs) => m.book.product(fs[2]!)));

interface Measured {
  delayMax: number;
  delayP99: number;
  busy: number;
  call: number;
  cpu: number;
  callCpu: number;
  wall: number;
}
/** This thread's CPU time (ms): on a loaded machine a busy loop's wall time also counts the time it waited for a core. */
const threadCpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const delay = monitorEventLoopDelay({ resolution: 1 });
/** The main thread while `work` runs: the loop's delay, its busy time, the synchronous call, the wall time. */
async function measure(work: () => Promise<void>): Promise<Measured> {
  // The histogram running (its first interval is not counted) before the work starts.
  delay.reset();
  delay.enable();
  await new Promise((r) => setTimeout(r, 20));
  const elu = performance.eventLoopUtilization();
  const c0 = threadCpu();
  const t0 = performance.now();
  const running = work();
  const call = performance.now() - t0;
  const callCpu = threadCpu() - c0;
  await running;
  const wall = performance.now() - t0;
  const cpu = threadCpu() - c0;
  const busy = performance.eventLoopUtilization(elu).active;
  // Let the last block register in the histogram.
  await new Promise((r) => setTimeout(r, 20));
  delay.disable();
  return { delayMax: delay.max / 1e6, delayP99: delay.percentile(99) / 1e6, busy, call, cpu, callCpu, wall };
}

const results = new Map<string, Measured[]>();
const keep = (name: string, m: Measured) => results.set(name, [...(results.get(name) ?? []), m]);
const IDLE = "idle: no refresh, as long as the workers' refresh (the machine's own noise)";
let chains = 0;
let identical = 0;
for (let round = 0; round < ROUNDS; round++) {
  step(10);
  const answers: string[] = [];
  for (const m of modes) {
    const measured = await measure(() => m.book.refresh());
    keep(m.name, measured);
    const smiles = await Promise.all(products.map((fs) => m.book.product(fs[2]!)));
    if (m === modes[0]) chains = smiles.reduce((n, s) => n + (s?.chains.length ?? 0), 0);
    answers.push(fits(smiles));
    if (m.fitter === pool) {
      const wait = measured.wall;
      keep(IDLE, await measure(() => new Promise((r) => setTimeout(r, wait))));
    }
  }
  if (answers.every((a) => a === answers[0])) identical++;
}
await pool.close();

const line = (label: string, s: Summary, unit = 'ms') =>
  `    ${label.padEnd(58)} p50 ${fmt(s.p50).padStart(7)} ${unit}  max ${fmt(s.max).padStart(7)} ${unit}`;
console.log(`  ${products.length} products, ${chains} chains; ${pool.smileFits} fits answered by the workers`);
for (const [name, runs] of results) {
  console.log(`  ${name}, per refresh of the ${products.length} products (${runs.length} refreshes):`);
  const of = (f: keyof Measured) => summarize(runs.map((r) => r[f]));
  console.log(line('event-loop delay, max', of('delayMax')));
  console.log(line('event-loop delay, p99', of('delayP99')));
  console.log(line('main thread busy (ELU active, wall)', of('busy')));
  console.log(line('  of which in the call (before: the fits; after: posting)', of('call')));
  console.log(line('main thread CPU (threadCpuUsage)', of('cpu')));
  console.log(line('  of which in the call', of('callCpu')));
  console.log(line('wall time until the new smiles are in', of('wall')));
}
console.log(`  the same fitted parameters, points and errors in both: ${identical} of ${ROUNDS} rounds`);
footer();
