// Throughput of the Black-76 and American (BAW) pricers and implied-volatility solvers, single thread.
// Run with `pnpm bench` after `pnpm build`; imports the built bundle.
import { americanImpliedVol, americanPrice, black76ImpliedVol, black76Price } from '../dist/index.js';

const EUROPEAN_POINTS = 200_000;
const AMERICAN_POINTS = 20_000;
const MIN_SECONDS = 0.12; // per timed measurement; many short interleaved rounds, best kept, resist machine noise

// Seeded PRNG (mulberry32) so every run prices the same grid.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Mixed grid over the test ranges, uniform in each: ln(K/F) in ±1.5, σ in [1%, 300%], T in [1 day, 3 years], r in
 * [0, 10%], calls and puts; F log-uniform in [100, 10000]. Draws whose out-of-the-money value underflows (< 1e-300)
 * are redrawn: their price carries no volatility, the solver returns at once and would flatter the figures.
 */
function makeGrid(n, seed, pricer) {
  const rnd = mulberry32(seed);
  const g = {
    n,
    redrawn: 0,
    F: new Float64Array(n),
    K: new Float64Array(n),
    T: new Float64Array(n),
    r: new Float64Array(n),
    sigma: new Float64Array(n),
    call: new Uint8Array(n),
    price: new Float64Array(n),
  };
  for (let i = 0; i < n;) {
    const F = 100 * Math.exp(rnd() * Math.log(100));
    const K = F * Math.exp(3 * rnd() - 1.5);
    const sigma = 0.01 + 2.99 * rnd();
    const T = 1 / 365 + rnd() * (3 - 1 / 365);
    const r = 0.1 * rnd();
    const call = rnd() < 0.5;
    if (!(black76Price(F, K, T, r, K > F, sigma) >= 1e-300)) {
      g.redrawn++;
      continue;
    }
    g.F[i] = F;
    g.K[i] = K;
    g.sigma[i] = sigma;
    g.T[i] = T;
    g.r[i] = r;
    g.call[i] = call ? 1 : 0;
    g.price[i] = pricer(F, K, T, r, call, sigma);
    i++;
  }
  return g;
}

let sink = 0;

function pricePass(g, pricer) {
  let acc = 0;
  for (let i = 0; i < g.n; i++) acc += pricer(g.F[i], g.K[i], g.T[i], g.r[i], g.call[i] === 1, g.sigma[i]);
  return acc;
}

function ivPass(g, solver) {
  let acc = 0;
  for (let i = 0; i < g.n; i++) {
    const v = solver(g.price[i], g.F[i], g.K[i], g.T[i], g.r[i], g.call[i] === 1);
    if (v === v) acc += v;
  }
  return acc;
}

/** Calls per second: whole passes over the grid until MIN_SECONDS elapsed. */
function rate(g, pass, fn) {
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    sink += pass(g, fn);
    calls += g.n;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < MIN_SECONDS);
  return calls / elapsed;
}

/** Best of a few interleaved rounds, so both functions see the same machine state. */
function measure(g, pricer, solver, rounds) {
  sink += pricePass(g, pricer) + ivPass(g, solver); // warm-up: let the JIT optimise both paths
  sink += pricePass(g, pricer) + ivPass(g, solver);
  let bestPrice = 0;
  let bestIv = 0;
  for (let k = 0; k < rounds; k++) {
    bestPrice = Math.max(bestPrice, rate(g, pricePass, pricer));
    bestIv = Math.max(bestIv, rate(g, ivPass, solver));
  }
  return { price: bestPrice, iv: bestIv };
}

/** Max relative σ error where the price carries σ information: relative σ-sensitivity of the price ≥ 1e-2. */
function accuracy(g, pricer, solver) {
  let maxErr = 0;
  let counted = 0;
  let nan = 0;
  for (let i = 0; i < g.n; i++) {
    const F = g.F[i];
    const K = g.K[i];
    const T = g.T[i];
    const r = g.r[i];
    const sigma = g.sigma[i];
    const call = g.call[i] === 1;
    const p = g.price[i];
    const bump = pricer(F, K, T, r, call, sigma * (1 + 1e-6));
    const sensitivity = (bump - p) / (1e-6 * p); // d ln(price) / d ln(σ)
    if (!(p > 1e-300) || !(sensitivity > 1e-2)) continue;
    const iv = solver(p, F, K, T, r, call);
    if (iv !== iv) {
      nan++;
      continue;
    }
    counted++;
    maxErr = Math.max(maxErr, Math.abs(iv - sigma) / sigma);
  }
  return { maxErr, counted, nan };
}

const fmt = (perSecond) => `${(perSecond / 1e6).toFixed(2)} M/s`;

const t0 = performance.now();
const euro = makeGrid(EUROPEAN_POINTS, 20240601, black76Price);
const e = measure(euro, black76Price, black76ImpliedVol, 8);
const eAcc = accuracy(euro, black76Price, black76ImpliedVol);

const amer = makeGrid(AMERICAN_POINTS, 20240602, americanPrice);
const a = measure(amer, americanPrice, americanImpliedVol, 6);
const aAcc = accuracy(amer, americanPrice, americanImpliedVol);

console.log(
  `grid: ${EUROPEAN_POINTS} European / ${AMERICAN_POINTS} American points, uniform ln(K/F) in ±1.5, σ 1%..300%, ` +
    `T 1d..3y, r 0..10% (${euro.redrawn + amer.redrawn} draws with underflowed prices redrawn)`,
);
console.log(`black76Price:        ${fmt(e.price)}`);
console.log(`european IV:         ${fmt(e.iv)}, ${(e.price / e.iv).toFixed(2)}× black76Price`);
console.log(
  `european max rel σ error: ${eAcc.maxErr.toExponential(2)} over ${eAcc.counted} points with d ln(price)/d ln(σ) ≥ 1e-2 (NaN: ${eAcc.nan})`,
);
console.log(`americanPrice:       ${fmt(a.price)}, ${(e.price / a.price).toFixed(1)}× black76Price`);
console.log(
  `american IV:         ${fmt(a.iv)}, ${(a.price / a.iv).toFixed(1)}× americanPrice, ${(e.price / a.iv).toFixed(1)}× black76Price`,
);
console.log(
  `american max rel σ error: ${aAcc.maxErr.toExponential(2)} over ${aAcc.counted} points with d ln(price)/d ln(σ) ≥ 1e-2 (NaN: ${aAcc.nan})`,
);
console.log(
  `goals: european IV ≤ 3.5× black76Price: ${e.price / e.iv <= 3.5 ? 'met' : 'NOT met'}; american IV ≤ 150× black76Price: ${e.price / a.iv <= 150 ? 'met' : 'NOT met'}`,
);
console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s, sink ${sink.toPrecision(3)})`);
