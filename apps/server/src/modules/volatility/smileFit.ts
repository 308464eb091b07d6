/**
 * One product's smile fits as plain computation, no I/O (docs/smile.md): per chain its market points from the
 * options' quotes and, when they moved, an SVI fit. It runs in a curve worker (curveWorker.ts, the server's default)
 * or on the calling thread (curveEngine.ts `inlineEngine`, CURVE_WORKERS=0, and the API tests' harness); the smile
 * book (smileBook.ts) keeps the results and builds the surface.
 */
import { fitSvi, type SmilePoint, type SviFit } from '@pfp/quant';
import type { OptionSpec } from '../../market/types';
import { impliedPoint, type RuleOption, type RuleQuote } from './curveRules';

const YEAR_MS = 365 * 86_400_000;
/** The volatility curves' rate (curves.ts; pricing's LIVE_RATE). */
export const RATE = 0.015;

/** A chain's market point: strike, log-moneyness, mid implied vol (the out-of-the-money side's where both quote). */
export interface MarketPoint {
  strike: number;
  k: number;
  vol: number;
}

/** An option as the fit reads it, with its quote now (none: no point). */
export interface ChainOption {
  spec: RuleOption & Pick<OptionSpec, 'expiryMs'>;
  quote: RuleQuote | undefined;
}

/**
 * Per option of a packed chain, in this order: strike, 1 for a call (0 a put), 1 for American style (0 European),
 * tick, expiry (epoch ms), bid, ask, last (NaN: none). Numbers in one typed array: posting a product's chains to a
 * worker copies a few hundred kB instead of cloning thousands of objects on this thread.
 */
const FIELDS = 8;

/** The chain's options and their quotes as one array (FIELDS numbers per option). */
export function packChain(options: readonly ChainOption[]): Float64Array {
  const out = new Float64Array(options.length * FIELDS);
  const num = (v: number | null | undefined) => (v == null ? NaN : v);
  options.forEach(({ spec, quote }, i) => {
    out.set(
      [
        spec.strike,
        spec.optionType === 'CALL' ? 1 : 0,
        spec.style === 'A' ? 1 : 0,
        spec.tick,
        spec.expiryMs,
        num(quote?.bid_price1),
        num(quote?.ask_price1),
        num(quote?.last_price),
      ],
      i * FIELDS,
    );
  });
  return out;
}

/** The options back from packChain (a missing price is NaN, which the rules read as none, as they read null). */
export function unpackChain(chain: Float64Array): ChainOption[] {
  const options: ChainOption[] = [];
  for (let i = 0; i + FIELDS <= chain.length; i += FIELDS) {
    const f = (j: number) => chain[i + j]!;
    options.push({
      spec: {
        strike: f(0),
        optionType: f(1) === 1 ? 'CALL' : 'PUT',
        style: f(2) === 1 ? 'A' : 'E',
        tick: f(3),
        expiryMs: f(4),
      },
      quote: { bid_price1: f(5), ask_price1: f(6), last_price: f(7) },
    });
  }
  return options;
}

/** One chain to fit: its options (one expiry) with their quotes now, packed; the future's price; the time read. */
export interface SmileJob {
  future: string;
  chain: Float64Array;
  forward: number;
  at: number;
  /** The signature of the points the held fit was made from: the same points are not fitted again. */
  held?: string;
}

export interface SmileResult {
  future: string;
  points: MarketPoint[];
  /** The forward and the points' vols to 1e-5: a chain whose signature did not change keeps its fit. */
  signature: string;
  /** The new fit; `undefined` when the signature is the held one (keep that fit), `null` when too few points. */
  fitted?: { fit: SviFit; fitMs: number } | null;
}

/** Where a product's chains are fitted (the curve workers, or this thread). */
export interface SmileFitter {
  fitSmiles(jobs: SmileJob[]): Promise<SmileResult[]>;
}

/** The chain's points: per strike the out-of-the-money option's mid vol, else the other one's. */
export function chainPoints(options: readonly ChainOption[], F: number, at: number) {
  const byStrike = new Map<number, ChainOption[]>();
  for (const o of options) byStrike.set(o.spec.strike, [...(byStrike.get(o.spec.strike) ?? []), o]);
  const points: MarketPoint[] = [];
  for (const [strike, pair] of [...byStrike].sort((a, b) => a[0] - b[0])) {
    const otm = strike >= F ? 'CALL' : 'PUT';
    const ordered = [...pair].sort((a, b) => Number(b.spec.optionType === otm) - Number(a.spec.optionType === otm));
    for (const { spec: o, quote: q } of ordered) {
      const T = (o.expiryMs - at) / YEAR_MS;
      const vol = q && impliedPoint(o, q, 'mid', { F, T, rate: RATE }, undefined);
      if (vol !== undefined) {
        points.push({ strike, k: Math.log(strike / F), vol });
        break;
      }
    }
  }
  return points;
}

/** The points of each chain, and a fit of those whose points moved since the held fit. */
export function fitChains(jobs: readonly SmileJob[]): SmileResult[] {
  return jobs.map((job) => {
    const options = unpackChain(job.chain);
    const points = chainPoints(options, job.forward, job.at);
    // Vols to 1e-5 and the forward: a chain whose points did not move keeps its fit.
    const signature = `${job.forward}|${points.map((p) => `${p.strike}:${p.vol.toFixed(5)}`).join(',')}`;
    if (signature === job.held) return { future: job.future, points, signature };
    const T = (options[0]!.spec.expiryMs - job.at) / YEAR_MS;
    const t0 = performance.now();
    const fit = fitSvi(
      points.map((p): SmilePoint => ({ k: p.k, vol: p.vol })),
      T,
    );
    return { future: job.future, points, signature, fitted: fit ? { fit, fitMs: performance.now() - t0 } : null };
  });
}

/** Fits on the calling thread. */
export const inlineFitter: SmileFitter = {
  fitSmiles: (jobs) => Promise.resolve(fitChains(jobs)),
};
