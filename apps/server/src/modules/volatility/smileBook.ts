/**
 * The smiles of the products someone asked about (docs/smile.md): per option chain (a future's options, one
 * expiry) a raw SVI slice fitted to the chain's mid implied vols, and per product the surface joining its chains
 * in total variance (@pfp/quant). Fitted off the request path: `refresh()` (the volatility capability's timer)
 * refits the chains whose points moved; a reader takes the cache, and only a product's first read fits in line.
 */
import { fitSvi, SmileSurface, type SmilePoint, type SviFit, type SurfacePoint } from '@pfp/quant';
import { findInstrument, futuresWithOptions } from '../../market/catalogue';
import { forwardPrice } from '../../market/quote';
import type { OptionSpec } from '../../market/types';
import type { Quote, QuoteOf } from '../../platform/quote';
import { shanghaiDate } from '../../platform/time';
import { impliedPoint } from './curveRules';

const YEAR_MS = 365 * 86_400_000;
/** A chain this close to expiry is left out: a day's vol from a few strikes is noise. */
const MIN_CHAIN_MS = 86_400_000;
/** A product nobody asked about for this long is no longer refitted (the page asks every 5 s while it shows one). */
const IDLE_MS = 60_000;
/** A read finding a fit older than this asks for a refit in the background (when no timer runs the book). */
const STALE_MS = 5_000;
/** The volatility curves' rate (curves.ts; pricing's LIVE_RATE). */
export const RATE = 0.015;

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
  points: { strike: number; k: number; vol: number }[];
  fit: SviFit;
  /** The served slice's error against the points (vol as a fraction): what pricing sees, envelope included. */
  rmse: number;
  maxError: number;
  /** Wall time of the fit. */
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
}

/** The chain's points: per strike the out-of-the-money option's mid vol, else the other one's. */
export function chainPoints(options: readonly OptionSpec[], quote: SmileMarket['getQuote'], F: number, at: number) {
  const byStrike = new Map<number, OptionSpec[]>();
  for (const o of options) byStrike.set(o.strike, [...(byStrike.get(o.strike) ?? []), o]);
  const points: ChainFit['points'] = [];
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

export class SmileBook {
  private readonly entries = new Map<string, Entry>();
  private refreshing = false;
  /** Whether a timer calls refresh() (else a stale read schedules one). */
  timed = false;

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

  /** The product's smile (fitted now if this is its first read), or undefined when no chain has enough points. */
  product(future: string): ProductSmile | undefined {
    const spec = findInstrument(future);
    if (spec?.kind !== 'future') return undefined;
    const key = `${spec.exchange}.${spec.productId}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const listed = futuresWithOptions(spec.exchange, spec.productId).map((f) => f.symbol);
      entry = { futures: listed.includes(future) ? listed : [...listed, future], fits: new Map(), askedAt: 0 };
      this.entries.set(key, entry);
      this.fit(key, entry);
    } else if (!this.timed && this.now() - (entry.smile?.at ?? 0) > STALE_MS) {
      setTimeout(() => this.refresh(), 0).unref();
    }
    entry.askedAt = this.now();
    return entry.smile;
  }

  /** Refits the chains of the products asked about lately whose points moved; forgets idle products. */
  refresh(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const now = this.now();
      for (const [key, entry] of this.entries) {
        if (now - entry.askedAt > IDLE_MS && entry.askedAt > 0) this.entries.delete(key);
        else this.fit(key, entry);
      }
    } finally {
      this.refreshing = false;
    }
  }

  private fit(key: string, entry: Entry) {
    const at = this.now();
    const chains: Omit<ChainFit, 'rmse' | 'maxError'>[] = [];
    for (const future of entry.futures) {
      const options = this.market.optionChain(future).filter((o) => o.expiryMs - at >= MIN_CHAIN_MS);
      const F = this.forward(future);
      if (options.length === 0 || F === undefined) continue;
      const expiryMs = options[0]!.expiryMs;
      const points = chainPoints(options, (sym) => this.market.getQuote(sym), F, at);
      // Vols to 1e-5 and the forward: a chain whose points did not move keeps its fit.
      const signature = `${F}|${points.map((p) => `${p.strike}:${p.vol.toFixed(5)}`).join(',')}`;
      const T = (expiryMs - at) / YEAR_MS;
      let held = entry.fits.get(future);
      if (!held || held.signature !== signature) {
        const t0 = performance.now();
        const fit = fitSvi(
          points.map((p): SmilePoint => ({ k: p.k, vol: p.vol })),
          T,
        );
        if (!fit) {
          entry.fits.delete(future);
          continue;
        }
        held = { signature, fit, fitMs: performance.now() - t0 };
        entry.fits.set(future, held);
      }
      // The slice keeps its total variance; its years count from now.
      const fit = { ...held.fit, T };
      chains.push({ future, expiry: options[0]!.expiry, expiryMs, forward: F, points, fit, fitMs: held.fitMs });
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
