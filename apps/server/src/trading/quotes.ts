import type { Quote as LevelOneQuote } from '../platform/quote';

/**
 * The little the trading side needs of a market-data source. The simulated exchange (src/market)
 * and a DIFF feed satisfy it structurally; nothing here imports them.
 *
 * Prices follow TqSdk: a missing price or volume may be NaN, null or absent.
 */

/** What trading reads of a quote (the one Quote, platform/quote.ts): any field may be missing. */
export type Quote = Partial<LevelOneQuote>;

export interface QuoteSource {
  getQuote(symbol: string): Quote | undefined;
  /** Called with the quotes that changed; returns the unsubscribe function. */
  onTick(cb: (changed: Quote[]) => void): () => void;
  /** Minimum price increment of an instrument; undefined = unknown instrument. */
  priceTick(symbol: string): number | undefined;
}

/** A usable price: finite and positive. */
export function price(v: number | null | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** A usable volume: a finite positive integer (0 when absent). */
export function volume(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

export function quoteSymbol(q: Quote): string | undefined {
  return q.symbol;
}
