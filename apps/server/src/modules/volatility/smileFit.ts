/**
 * One product's smile fits as plain computation, no I/O (docs/smile.md): per chain its market points from the
 * options' quotes and, when they moved, an SVI fit. It runs in a curve worker (curveWorker.ts, the server's default)
 * or on the calling thread (curveEngine.ts `inlineEngine`, CURVE_WORKERS=0, and the API tests' harness); the smile
 * book (smileBook.ts) keeps the results and builds the surface.
 */
import { fitSvi, type SmilePoint, type SviFit } from '@pfp/quant';
import type { OptionSpec } from '../../market/types';
import type { Quote } from '../../platform/quote';
import { impliedPoint } from './curveRules';

const YEAR_MS = 365 * 86_400_000;
/** The volatility curves' rate (curves.ts; pricing's LIVE_RATE). */
export const RATE = 0.015;

/** A chain's market point: strike, log-moneyness, mid implied vol (the out-of-the-money side's where both quote). */
export interface MarketPoint {
  strike: number;
  k: number;
  vol: number;
}

/** One chain to fit: its options (one expiry), their quotes now, the future's price and the time read. */
export interface SmileJob {
  future: string;
  options: OptionSpec[];
  quotes: Quote[];
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
export function chainPoints(
  options: readonly OptionSpec[],
  quote: (symbol: string) => Quote | undefined,
  F: number,
  at: number,
) {
  const byStrike = new Map<number, OptionSpec[]>();
  for (const o of options) byStrike.set(o.strike, [...(byStrike.get(o.strike) ?? []), o]);
  const points: MarketPoint[] = [];
  for (const [strike, pair] of [...byStrike].sort((a, b) => a[0] - b[0])) {
    const otm = strike >= F ? 'CALL' : 'PUT';
    const ordered = [...pair].sort((a, b) => Number(b.optionType === otm) - Number(a.optionType === otm));
    for (const o of ordered) {
      const q = quote(o.symbol);
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
    const quotes = new Map(job.quotes.map((q) => [q.symbol, q]));
    const points = chainPoints(job.options, (s) => quotes.get(s), job.forward, job.at);
    // Vols to 1e-5 and the forward: a chain whose points did not move keeps its fit.
    const signature = `${job.forward}|${points.map((p) => `${p.strike}:${p.vol.toFixed(5)}`).join(',')}`;
    if (signature === job.held) return { future: job.future, points, signature };
    const T = (job.options[0]!.expiryMs - job.at) / YEAR_MS;
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
