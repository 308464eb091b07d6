// Accuracy against QuantLib and cost, in Black-76 price evaluations, of the Black-76 and American (ALO) pricers and
// implied-volatility solvers; the former Barone-Adesi–Whaley engine (bench/baw.ts) alongside for comparison. Costs
// are ratios of times measured in this process, interleaved, best of several rounds, so that a loaded machine slows
// both sides alike; the load average is printed with them. `pnpm --filter @pfp/quant bench`.
import { loadavg } from 'node:os';
import { americanRows, europeanRows, quotable, source, type AmericanRow } from '../reference/table.js';
import { americanImpliedVol, americanPrice, black76ImpliedVol, black76Price } from '../src/index.js';
import { bawImpliedVol, bawPrice } from './baw.js';

type Pricer = (F: number, K: number, T: number, r: number, isCall: boolean, sigma: number) => number;
type Solver = (price: number, F: number, K: number, T: number, r: number, isCall: boolean) => number;

let sink = 0;
const now = () => performance.now();

// ---------------------------------------------------------------------------------------------------------------
// European: a broad grid (the solver's own test ranges) for cost, QuantLib's blackFormula for accuracy.

/** Seeded PRNG (mulberry32) so every run prices the same grid. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Grid {
  n: number;
  F: Float64Array;
  K: Float64Array;
  T: Float64Array;
  r: Float64Array;
  sigma: Float64Array;
  call: Uint8Array;
  price: Float64Array;
}

function makeGrid(rows: readonly { F: number; K: number; T: number; r: number; sigma: number; call: boolean }[]): Grid {
  const n = rows.length;
  const g: Grid = {
    n,
    F: new Float64Array(n),
    K: new Float64Array(n),
    T: new Float64Array(n),
    r: new Float64Array(n),
    sigma: new Float64Array(n),
    call: new Uint8Array(n),
    price: new Float64Array(n),
  };
  rows.forEach((row, i) => {
    g.F[i] = row.F;
    g.K[i] = row.K;
    g.T[i] = row.T;
    g.r[i] = row.r;
    g.sigma[i] = row.sigma;
    g.call[i] = row.call ? 1 : 0;
  });
  return g;
}

/** ln(K/F) in ±1.5, σ 1%–300%, T 1 day–3 years, r 0–10%, F 100–10,000; out-of-the-money value ≥ 1e-300. */
function europeanGrid(n: number, seed: number): Grid {
  const rnd = mulberry32(seed);
  const rows = [];
  while (rows.length < n) {
    const F = 100 * Math.exp(rnd() * Math.log(100));
    const K = F * Math.exp(3 * rnd() - 1.5);
    const sigma = 0.01 + 2.99 * rnd();
    const T = 1 / 365 + rnd() * (3 - 1 / 365);
    const r = 0.1 * rnd();
    const call = rnd() < 0.5;
    if (black76Price(F, K, T, r, K > F, sigma) >= 1e-300) rows.push({ F, K, T, r, sigma, call });
  }
  const g = makeGrid(rows);
  for (let i = 0; i < n; i++)
    g.price[i] = black76Price(g.F[i]!, g.K[i]!, g.T[i]!, g.r[i]!, g.call[i] === 1, g.sigma[i]!);
  return g;
}

function pricePass(g: Grid, pricer: Pricer, from = 0, to = g.n): number {
  let acc = 0;
  for (let i = from; i < to; i++) acc += pricer(g.F[i]!, g.K[i]!, g.T[i]!, g.r[i]!, g.call[i] === 1, g.sigma[i]!);
  return acc;
}

function ivPass(g: Grid, solver: Solver, from = 0, to = g.n): number {
  let acc = 0;
  for (let i = from; i < to; i++) {
    const v = solver(g.price[i]!, g.F[i]!, g.K[i]!, g.T[i]!, g.r[i]!, g.call[i] === 1);
    if (v === v) acc += v;
  }
  return acc;
}

/**
 * Seconds per call of `pass` over the grid, robust to a loaded machine: the grid is timed in chunks of CHUNK calls
 * (some microseconds, far shorter than a scheduler slice, long enough to dwarf the timer itself), each chunk's lowest time over the rounds is kept, and the
 * lowest times are added up. A long timed pass would include the periods the process spent descheduled.
 */
const CHUNK = 64;

function chunkTimes(g: Grid, pass: (g: Grid, from: number, to: number) => number, best: Float64Array) {
  for (let c = 0; c * CHUNK < g.n; c++) {
    const from = c * CHUNK;
    const to = Math.min(g.n, from + CHUNK);
    const start = now();
    sink += pass(g, from, to);
    best[c] = Math.min(best[c]!, now() - start);
  }
}

/** Time per call of `pricer` and of `solver` over the grid (interleaved rounds), and their ratio. */
function ratio(g: Grid, pricer: Pricer, solver: Solver, rounds: number) {
  const chunks = Math.ceil(g.n / CHUNK);
  const bestPrice = new Float64Array(chunks).fill(Infinity);
  const bestIv = new Float64Array(chunks).fill(Infinity);
  const pricePart = (x: Grid, from: number, to: number) => pricePass(x, pricer, from, to);
  const ivPart = (x: Grid, from: number, to: number) => ivPass(x, solver, from, to);
  sink += pricePass(g, pricer) + ivPass(g, solver); // warm-up: let the JIT optimise both paths
  for (let k = 0; k < rounds; k++) {
    chunkTimes(g, pricePart, bestPrice);
    chunkTimes(g, ivPart, bestIv);
  }
  const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
  const price = sum(bestPrice) / 1000 / g.n;
  const iv = sum(bestIv) / 1000 / g.n;
  return { price, iv, cost: iv / price, perChunkPrice: bestPrice, perChunkIv: bestIv };
}

const t0 = now();
const load = loadavg();
console.log(`load average: ${load.map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)`);
console.log(`reference: ${source}`);

const euro = europeanGrid(200_000, 20240601);
const e = ratio(euro, black76Price, black76ImpliedVol, 6);
let eMaxPrice = 0;
let eMaxIv = 0;
for (const row of europeanRows) {
  const p = black76Price(row.F, row.K, row.T, row.r, row.call, row.sigma);
  const df = Math.exp(-row.r * row.T);
  eMaxPrice = Math.max(eMaxPrice, Math.abs(p - row.price) / (df * Math.max(row.F, row.K)));
  // QuantLib's price resolves the time value only where it is well above its rounding (~1e-16 of F or K).
  if (row.price - Math.max(df * (row.call ? row.F - row.K : row.K - row.F), 0) < 1e-6 * row.K) continue;
  eMaxIv = Math.max(eMaxIv, Math.abs(black76ImpliedVol(row.price, row.F, row.K, row.T, row.r, row.call) - row.sigma));
}
console.log(
  `european: black76Price ${(1e-6 / e.price).toFixed(2)} M/s; implied vol ${(1e-6 / e.iv).toFixed(2)} M/s = ` +
    `${e.cost.toFixed(2)} price evaluations (200,000 points: ln(K/F) ±1.5, σ 1–300%, T 1 d–3 y, r 0–10%)`,
);
console.log(
  `european vs QuantLib blackFormula (${europeanRows.length} rows): max price error ` +
    `${eMaxPrice.toExponential(2)}·max(F, K); max abs implied-vol error ${eMaxIv.toExponential(2)} (time value ≥ 1e-6·K)`,
);

// ---------------------------------------------------------------------------------------------------------------
// American: QuantLib's table, quotable rows (time value ≥ 1e-4·K).

const rows: AmericanRow[] = americanRows.filter(quotable);
const amer = makeGrid(rows);
rows.forEach((row, i) => (amer.price[i] = row.price));

function ivErrors(solver: Solver) {
  let max = 0;
  let sum = 0;
  let nan = 0;
  for (const row of rows) {
    const err = Math.abs(solver(row.price, row.F, row.K, row.T, row.r, row.call) - row.sigma);
    if (!(err === err)) nan++;
    else {
      max = Math.max(max, err);
      sum += err;
    }
  }
  return { max, mean: sum / (rows.length - nan), nan };
}

function priceErrors(pricer: Pricer) {
  let max = 0;
  for (const row of rows) {
    const p = pricer(row.F, row.K, row.T, row.r, row.call, row.sigma);
    max = Math.max(max, Math.abs(p - row.price) / row.K);
  }
  return max;
}

/** Per-row cost of `solver` in Black-76 evaluations: each row's lowest time over the rounds, against Black-76's. */
function perRowCost(solver: Solver, rounds: number): Float64Array {
  const reps = 4;
  const black = new Float64Array(rows.length).fill(Infinity);
  const iv = new Float64Array(rows.length).fill(Infinity);
  for (let k = 0; k < rounds; k++) {
    for (let i = 0; i < rows.length; i++) {
      let start = now();
      for (let j = 0; j < reps; j++) sink += pricePass(amer, black76Price, i, i + 1);
      black[i] = Math.min(black[i]!, now() - start);
      start = now();
      for (let j = 0; j < reps; j++) sink += ivPass(amer, solver, i, i + 1);
      iv[i] = Math.min(iv[i]!, now() - start);
    }
  }
  return iv.map((t, i) => t / black[i]!).sort();
}

const pct = (a: Float64Array, q: number) => a[Math.min(a.length - 1, Math.floor(q * a.length))]!;

const aloIv = ivErrors(americanImpliedVol);
const bawIv = ivErrors(bawImpliedVol);
const aloWhole = ratio(amer, black76Price, americanImpliedVol, 8);
const aloPrice = ratio(amer, americanPrice, americanImpliedVol, 4);
const bawWhole = ratio(amer, black76Price, bawImpliedVol, 8);
const bawPriceCost = ratio(amer, bawPrice, bawImpliedVol, 4);
const aloRows = perRowCost(americanImpliedVol, 8);
const bawRows = perRowCost(bawImpliedVol, 8);

console.log(
  `american vs QuantLib QdFpAmericanEngine (${rows.length} quotable rows of ${americanRows.length}: time value ≥ 1e-4·K, ` +
    `F/K 0.6–1.6, 3 d–2 y, σ 5–120%, r 0–5%):`,
);
for (const [name, iv, price, whole, priceCost, per] of [
  ['ALO', aloIv, priceErrors(americanPrice), aloWhole, aloPrice, aloRows],
  ['BAW (former)', bawIv, priceErrors(bawPrice), bawWhole, bawPriceCost, bawRows],
] as const) {
  console.log(
    `  ${name}: implied vol error max ${iv.max.toExponential(2)}, mean ${iv.mean.toExponential(2)} (NaN: ${iv.nan}); ` +
      `max price error ${price.toExponential(2)}·K`,
  );
  console.log(
    `  ${name}: implied vol costs ${whole.cost.toFixed(1)} Black-76 price evaluations on average ` +
      `(per row p50 ${pct(per, 0.5).toFixed(1)}, p90 ${pct(per, 0.9).toFixed(1)}, max ${pct(per, 1).toFixed(1)}); ` +
      `price ${(whole.cost / priceCost.cost).toFixed(1)}`,
  );
}
const aloMax = pct(aloRows, 1);
console.log(
  `goals: american implied vol within 1e-5: ${aloIv.max <= 1e-5 && aloIv.nan === 0 ? 'met' : 'NOT met'} ` +
    `(max ${aloIv.max.toExponential(2)}); ≤ 100 price evaluations: ${aloWhole.cost <= 100 && aloMax <= 100 ? 'met' : 'NOT met'} ` +
    `(average ${aloWhole.cost.toFixed(1)}, slowest row ${aloMax.toFixed(1)}); ` +
    `european implied vol ≤ 3.0: ${e.cost <= 3 ? 'met' : 'NOT met'} (${e.cost.toFixed(2)})`,
);
console.log(`load average at the end: ${loadavg()[0]!.toFixed(2)}`);
console.log(`(${((now() - t0) / 1000).toFixed(1)} s, sink ${sink.toPrecision(3)})`);
