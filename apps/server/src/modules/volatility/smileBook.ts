/**
 * The smiles of the products someone asked about (docs/smile.md): per option chain (a future's options, one
 * expiry) a raw SVI slice fitted to the chain's mid implied vols, and per product the surface joining its chains
 * in total variance (@pfp/quant). Fitted off the request path and off this thread: `refresh()` (the volatility
 * capability's timer) posts each product's chains to the fitter (the curve workers, smileFit.ts) and keeps what
 * comes back; a reader takes the cache, and only a product's first read waits for a fit.
 */
import { SmileSurface, type SviFit, type SurfacePoint } from '@pfp/quant';
import { findInstrument, futuresWithOptions } from '../../market/catalogue';
import { forwardPrice } from '../../market/quote';
import type { OptionSpec } from '../../market/types';
import { unavailable } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { Quote, QuoteOf } from '../../platform/quote';
import { shanghaiDate } from '../../platform/time';
import {
  inlineFitter,
  packChain,
  type MarketPoint,
  type SmileFitter,
  type SmileJob,
  type SmileResult,
} from './smileFit';

const YEAR_MS = 365 * 86_400_000;
/** A chain this close to expiry is left out: a day's vol from a few strikes is noise. */
const MIN_CHAIN_MS = 86_400_000;
/** A product nobody asked about for this long is no longer refitted (the page asks every 5 s while it shows one). */
const IDLE_MS = 60_000;
/** A read finding a fit older than this asks for a refit in the background (when no timer runs the book). */
const STALE_MS = 5_000;
/** A product's first read when its fit failed (the worker died twice on it, or hung): a 503 in Chinese. */
const FIT_FAILED = '波动率微笑曲面暂时无法拟合，请稍后重试';

export interface SmileMarket {
  optionChain(future: string): OptionSpec[];
  getQuote(symbol: string): Quote | undefined;
}

export interface ChainFit {
  future: string;
  /** The options' expiry date and instant. */
  expiry: string;
  expiryMs: number;
  forward: number;
  /** The market points: strike, log-moneyness, mid implied vol (the out-of-the-money side's where both quote). */
  points: MarketPoint[];
  fit: SviFit;
  /** The served slice's error against the points (vol as a fraction): what pricing sees, envelope included. */
  rmse: number;
  maxError: number;
  /** Wall time of the fit (on the thread that ran it). */
  fitMs: number;
}

export interface ProductSmile {
  product: string;
  /** The chains fitted, by expiry; the surface's slices in the same order. */
  chains: ChainFit[];
  surface: SmileSurface;
  /** When the points were read (epoch ms): the surface's years count from here. */
  at: number;
}

interface Entry {
  futures: string[];
  smile?: ProductSmile;
  fits: Map<string, { signature: string; fit: SviFit; fitMs: number }>;
  askedAt: number;
  /** The fit in flight (one per product at a time), true once kept; the first read waits for it. */
  fitting?: Promise<boolean>;
}

export class SmileBook {
  private readonly entries = new Map<string, Entry>();
  private refreshing: Promise<void> | undefined;
  /** Whether a timer calls refresh() (else a stale read schedules one). */
  timed = false;
  /** Where the chains are fitted: this thread until the volatility capability hands in its curve workers. */
  fitter: SmileFitter = inlineFitter;
  /** Where a failed fit is logged (the volatility capability's logger once it runs). */
  logger: Logger | undefined;

  constructor(
    private readonly market: SmileMarket,
    /** `quote`: the futures' prices where the market's own quotes have none (the customer snapshot's source). */
    private readonly opts: { now?: () => number; quote?: QuoteOf } = {},
  ) {}

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  private forward(future: string): number | undefined {
    const last = this.opts.quote?.(future)?.last_price;
    return forwardPrice(this.market.getQuote(future)) ?? (typeof last === 'number' && last > 0 ? last : undefined);
  }

  /**
   * The product's smile (its first read waits for the fit), or undefined when no chain has enough points. A first
   * fit that failed is a 503 in Chinese; a later one leaves the last good smile in place.
   */
  async product(future: string): Promise<ProductSmile | undefined> {
    const spec = findInstrument(future);
    if (spec?.kind !== 'future') return undefined;
    const key = `${spec.exchange}.${spec.productId}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const listed = futuresWithOptions(spec.exchange, spec.productId).map((f) => f.symbol);
      entry = { futures: listed.includes(future) ? listed : [...listed, future], fits: new Map(), askedAt: 0 };
      this.entries.set(key, entry);
      this.fit(key, entry);
    } else if (!this.timed && !entry.fitting && this.now() - (entry.smile?.at ?? 0) > STALE_MS) {
      setTimeout(() => void this.refresh(), 0).unref();
    }
    entry.askedAt = this.now();
    if (entry.smile === undefined && entry.fitting && !(await entry.fitting) && entry.smile === undefined)
      throw unavailable(FIT_FAILED);
    return entry.smile;
  }

  /** Refits the chains of the products asked about lately whose points moved; forgets idle products. Never throws. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const now = this.now();
      const runs: Promise<boolean>[] = [];
      for (const [key, entry] of this.entries) {
        if (now - entry.askedAt > IDLE_MS && entry.askedAt > 0) this.entries.delete(key);
        else runs.push(entry.fitting ?? this.fit(key, entry));
      }
      await Promise.all(runs);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Posts the product's chains to the fitter and keeps what comes back: true once kept, false if it failed. */
  private fit(key: string, entry: Entry): Promise<boolean> {
    const at = this.now();
    const jobs: SmileJob[] = [];
    const expiries: { expiry: string; expiryMs: number }[] = [];
    for (const future of entry.futures) {
      const options = this.market.optionChain(future).filter((o) => o.expiryMs - at >= MIN_CHAIN_MS);
      const forward = this.forward(future);
      if (options.length === 0 || forward === undefined) continue;
      const chain = packChain(options.map((spec) => ({ spec, quote: this.market.getQuote(spec.symbol) })));
      const held = entry.fits.get(future)?.signature;
      jobs.push({ future, chain, forward, at, ...(held === undefined ? {} : { held }) });
      expiries.push({ expiry: options[0]!.expiry, expiryMs: options[0]!.expiryMs });
    }
    const run: Promise<boolean> = (jobs.length === 0 ? Promise.resolve([]) : this.fitter.fitSmiles(jobs))
      .then((results) => {
        this.keep(
          key,
          entry,
          at,
          results.map((r, i) => ({ ...r, forward: jobs[i]!.forward, ...expiries[i]! })),
        );
        return true;
      })
      .catch((err: unknown) => {
        // The last good smile stays and the next refresh tries again; a product never fitted is forgotten.
        this.logger?.warn({ err, product: key }, 'smile fit failed: the last good smile is kept');
        if (!entry.smile && this.entries.get(key) === entry) this.entries.delete(key);
        return false;
      })
      .finally(() => {
        if (entry.fitting === run) entry.fitting = undefined;
      });
    entry.fitting = run;
    return run;
  }

  /** The fitter's results in, the product's surface and each chain's served error out (cheap: no fit here). */
  private keep(
    key: string,
    entry: Entry,
    at: number,
    results: (SmileResult & { forward: number; expiry: string; expiryMs: number })[],
  ) {
    const chains: Omit<ChainFit, 'rmse' | 'maxError'>[] = [];
    for (const { future, forward, expiry, expiryMs, points, signature, fitted } of results) {
      if (fitted === null) entry.fits.delete(future);
      else if (fitted) entry.fits.set(future, { signature, ...fitted });
      const held = entry.fits.get(future);
      if (!held) continue;
      // The slice keeps its total variance; its years count from now.
      const fit = { ...held.fit, T: (expiryMs - at) / YEAR_MS };
      chains.push({ future, expiry, expiryMs, forward, points, fit, fitMs: held.fitMs });
    }
    if (chains.length === 0) {
      delete entry.smile;
      return;
    }
    chains.sort((a, b) => a.expiryMs - b.expiryMs);
    const surface = new SmileSurface(chains.map((c) => ({ expiry: c.expiry, T: c.fit.T, params: c.fit.params })));
    entry.smile = {
      product: key,
      at,
      surface,
      chains: chains.map((c, i) => {
        const errors = c.points.map((p) => Math.sqrt(surface.sliceVariance(i, p.k) / c.fit.T) - p.vol);
        return {
          ...c,
          rmse: Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length),
          maxError: Math.max(...errors.map(Math.abs)),
        };
      }),
    };
  }
}

/** Where on the surface a structure's vol was read. */
export interface SurfaceVol extends SurfacePoint {
  strike: number;
  date: string;
  k: number;
  years: number;
  /** The chains (futures) of the expiries used. */
  futures: string[];
}

/** The surface's vol at a strike and a date (its close, 15:00 Beijing), for a future now at `forward`. */
export function surfaceVol(smile: ProductSmile, forward: number, strike: number, date: string): SurfaceVol {
  const T = Math.max((shanghaiDate(`${date} 15:00`).getTime() - smile.at) / YEAR_MS, 1 / (365 * 24));
  const k = Math.log(strike / forward);
  const point = smile.surface.at(k, T);
  const futures = point.expiries.map((e) => smile.chains.find((c) => c.expiry === e)?.future ?? e);
  return { ...point, strike, date, k, years: T, futures };
}

/** The served slice of chain i on `n` strikes across its quoted range ([strike, vol]). */
export function fittedLine(smile: ProductSmile, i: number, n = 61): [number, number][] {
  const c = smile.chains[i]!;
  const lo = c.points[0]!.strike;
  const hi = c.points[c.points.length - 1]!.strike;
  return Array.from({ length: n }, (_, j) => {
    const K = lo + ((hi - lo) * j) / (n - 1);
    return [K, Math.sqrt(smile.surface.sliceVariance(i, Math.log(K / c.forward)) / c.fit.T)];
  });
}

const books = new WeakMap<object, SmileBook>();

/** The one book of a market (shared by the volatility page's call, its timer and 含权报价). */
export function smileBookOf(market: SmileMarket, quote?: QuoteOf, now?: () => number): SmileBook {
  let book = books.get(market);
  if (!book)
    books.set(market, (book = new SmileBook(market, { ...(quote ? { quote } : {}), ...(now ? { now } : {}) })));
  return book;
}
