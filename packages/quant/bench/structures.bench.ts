// Speed and accuracy of the structure engines (src/structures) on the reference cases of structures.json: time per
// price on one core (CPU time, each case's best of three rounds, so a loaded machine's descheduling does not count), the
// Greeks' time as a multiple of the price's, QuantLib's time for the same case where it has an engine (measured by
// structures.py on this machine class), and the worst error against the reference.
import { loadavg } from 'node:os';
import {
  accumulatorRows,
  asianRows,
  barrierRows,
  structuresSource,
  times,
  vanillaRows,
} from '../reference/structures.js';
import {
  accumulator,
  accumulatorPrice,
  asianOption,
  asianPrice,
  barrierOption,
  barrierPrice,
  black76Price,
  vanilla,
  zeroCostStrike,
} from '../src/index.js';

let sink = 0;
/** CPU time of this process in ms: on a machine shared with other work, descheduled time does not count. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Microseconds per call of `fn` for each case: best of `rounds` timings, each of enough calls to take ≥ 2 ms. */
function perCase<T>(cases: readonly T[], fn: (c: T) => number, rounds: number): number[] {
  return cases.map((c) => {
    const t0 = performance.now();
    sink += fn(c); // warm-up, and a first estimate of the cost
    const reps = Math.max(1, Math.ceil(2 / Math.max(performance.now() - t0, 1e-4)));
    let best = Infinity;
    for (let k = 0; k < rounds; k++) {
      const start = cpu();
      for (let j = 0; j < reps; j++) sink += fn(c);
      best = Math.min(best, ((cpu() - start) * 1000) / reps);
    }
    return best;
  });
}

const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / a.length;
const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 0)} µs`);

interface Line {
  engine: string;
  cases: number;
  price: number[];
  greeks: number[];
  goal: string;
  quantlib: string;
  error: string;
}

function line(l: Line) {
  const ratio = mean(l.greeks.map((g, i) => g / l.price[i]!));
  console.log(
    `${l.engine.padEnd(12)} ${String(l.cases).padStart(3)} cases  price mean ${fmt(mean(l.price)).padStart(9)}, ` +
      `max ${fmt(Math.max(...l.price)).padStart(9)} (goal ${l.goal})  price+Greeks ${ratio.toFixed(2)}× price ` +
      `(max ${Math.max(...l.greeks.map((g, i) => g / l.price[i]!)).toFixed(2)}×)  QuantLib: ${l.quantlib}  ` +
      `worst error: ${l.error}`,
  );
}

console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (1/5/15 min)`,
);
console.log(`reference: ${structuresSource}`);

// Vanilla ------------------------------------------------------------------------------------------------------
{
  const cases = vanillaRows;
  const price = perCase(cases, (r) => black76Price(r.F, r.K, r.days / 365, r.r, r.call, r.sigma), 3);
  const greeks = perCase(cases, (r) => vanilla(r.F, r.K, r.days / 365, r.r, r.call, r.sigma).gamma, 3);
  const ql = cases.filter((r) => r.quantlibMicros !== undefined).map((r) => r.quantlibMicros!);
  let err = 0;
  for (const r of cases)
    err = Math.max(err, Math.abs(vanilla(r.F, r.K, r.days / 365, r.r, r.call, r.sigma).price - r.price) / r.F);
  line({
    engine: 'vanilla',
    cases: cases.length,
    price,
    greeks,
    goal: '≤ 5 µs',
    quantlib: `AnalyticEuropeanEngine ${fmt(mean(ql))} (NPV + Greeks, Python)`,
    error: `${err.toExponential(1)}·F vs AnalyticEuropeanEngine`,
  });
}

// Asian --------------------------------------------------------------------------------------------------------
{
  const terms = asianRows.map((r) => {
    const t = times(r.days);
    return {
      F: r.F,
      K: r.K,
      isCall: r.call,
      sigma: r.sigma,
      r: r.r,
      times: t,
      fixings: r.fixings,
      payTime: t[t.length - 1]!,
    };
  });
  const price = perCase(terms, asianPrice, 3);
  const greeks = perCase(terms, (t) => asianOption(t).delta, 3);
  let err = 0;
  let used = 0;
  let twErr = 0;
  asianRows.forEach((r, i) => {
    const e = Math.abs(asianPrice(terms[i]!) - r.price);
    err = Math.max(err, e / r.F);
    used = Math.max(used, e / (1e-4 * r.F + 3 * r.se));
    twErr = Math.max(twErr, Math.abs(r.turnbullWakeman - r.price) / r.F);
  });
  line({
    engine: 'asian',
    cases: terms.length,
    price,
    greeks,
    goal: '≤ 2 ms',
    quantlib: `TurnbullWakemanAsianEngine ${fmt(mean(asianRows.map((r) => r.quantlibMicros)))} (its worst error ${twErr.toExponential(1)}·F)`,
    error: `${err.toExponential(1)}·F vs 10⁶-path MC (${(100 * used).toFixed(0)}% of the allowance 1e-4·F + 3 s.e.)`,
  });
}

// Barrier ------------------------------------------------------------------------------------------------------
{
  const terms = barrierRows.map((r) => ({
    F: r.F,
    K: r.K,
    isCall: r.call,
    sigma: r.sigma,
    r: r.r,
    barrier: r.barrier,
    direction: r.direction,
    knock: r.knock,
    rebate: r.rebate,
    times: times(r.days),
  }));
  const price = perCase(terms, barrierPrice, 3);
  const greeks = perCase(terms, (t) => barrierOption(t).delta, 3);
  let err = 0;
  let used = 0;
  barrierRows.forEach((r, i) => {
    const e = Math.abs(barrierPrice(terms[i]!) - r.price);
    err = Math.max(err, e / r.F);
    used = Math.max(used, e / (1e-4 * r.F + 3 * r.se));
  });
  line({
    engine: 'barrier',
    cases: terms.length,
    price,
    greeks,
    goal: '≤ 2 ms',
    quantlib: 'no engine for a barrier observed on given dates',
    error: `${err.toExponential(1)}·F vs 10⁶-path MC (${(100 * used).toFixed(0)}% of the allowance 1e-4·F + 3 s.e.)`,
  });
}

// Accumulator --------------------------------------------------------------------------------------------------
{
  const terms = accumulatorRows.map((r) => ({
    F: r.F,
    K: r.K,
    sigma: r.sigma,
    r: r.r,
    side: r.side,
    barrier: r.barrier,
    leverage: r.leverage,
    quantityPerDay: r.quantityPerDay,
    times: times(r.days),
  }));
  const price = perCase(terms, accumulatorPrice, 3);
  const greeks = perCase(terms, (t) => accumulator(t).delta, 3);
  const solve = perCase(terms.slice(0, 6), (t) => zeroCostStrike(t), 3);
  let err = 0;
  let used = 0;
  accumulatorRows.forEach((r, i) => {
    const e = Math.abs(accumulatorPrice(terms[i]!) - r.price);
    const Q = r.quantityPerDay * r.days.length;
    err = Math.max(err, e / (r.F * Q));
    used = Math.max(used, e / (1e-4 * r.F * Q + 3 * r.se));
  });
  line({
    engine: 'accumulator',
    cases: terms.length,
    price,
    greeks,
    goal: '≤ 50 ms',
    quantlib: 'no engine',
    error: `${err.toExponential(1)}·F·Q vs 10⁶-path MC (${(100 * used).toFixed(0)}% of the allowance 1e-4·F·Q + 3 s.e.)`,
  });
  console.log(`zero-cost strike: mean ${fmt(mean(solve))}, max ${fmt(Math.max(...solve))} per solve`);
}
if (sink === 42) console.log('');
