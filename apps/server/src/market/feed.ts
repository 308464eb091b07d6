import type { DiffMarketData } from '../diff/marketData';
import { optionChain } from './catalogue';
import type { Quote } from '../platform/quote';
import type { OptionSpec } from './types';
import { diffSettlement, type SettlementPrice } from './settlementPrices';

/**
 * What option-chain readers (the volatility curves) need of a market: quotes, ticks with their time
 * (epoch ms), and the chains it quotes.
 */
export interface OptionMarket {
  getQuote(symbol: string): Quote | undefined;
  onTick(listener: (quotes: readonly Quote[], at: number) => void): () => void;
  subscribeChains(futureSymbols: readonly string[]): () => void;
  optionChain(futureSymbol: string): OptionSpec[];
}

/** What the server reads market data through: the simulated exchange, or a DIFF feed. */
export interface MarketFeed extends OptionMarket {
  /**
   * The settlement prices of trading day `day` this market knows now (结算价 average contracts,
   * docs/fixing.md), at least of `symbols` when it knows them: none before the day's close.
   */
  settlementPrices(day: string, symbols: readonly string[]): SettlementPrice[];
  start(): void;
  stop(): void;
}

/**
 * A DIFF market-data feed (MARKET_SOURCE=diff) as a MarketFeed: an instrument is subscribed the
 * first time anyone asks for its quote, option chains while a volatility view watches them. A
 * missing price is NaN in DIFF, which every reader treats like an absent one. A tick's time is when
 * it arrived. A day's settlement prices are read off the quotes of the symbols asked for
 * (`diffSettlement`: only a quote whose time names that day); a symbol asked for the first time is
 * subscribed, and answers at a later call.
 */
export function diffFeed(md: DiffMarketData): MarketFeed {
  const wanted = new Set<string>();
  const chainRefs = new Map<string, number>();
  const want = (symbols: string[]) => {
    const fresh = symbols.filter((s) => !wanted.has(s));
    if (fresh.length === 0) return;
    fresh.forEach((s) => wanted.add(s));
    md.subscribe(fresh);
  };
  return {
    getQuote(symbol) {
      want([symbol]);
      return md.getQuote(symbol);
    },
    onTick: (listener) => md.onTick((quotes) => listener(quotes, Date.now())),
    optionChain: (future) => optionChain(future),
    settlementPrices(day, symbols) {
      want([...symbols]);
      return symbols.flatMap((s) => {
        const quote = md.getQuote(s);
        const price = quote && diffSettlement(quote, day);
        return price ? [price] : [];
      });
    },
    subscribeChains(futures) {
      for (const f of futures) {
        chainRefs.set(f, (chainRefs.get(f) ?? 0) + 1);
        want([f, ...optionChain(f).map((o) => o.symbol)]);
      }
      return () => {
        for (const f of futures) {
          const n = (chainRefs.get(f) ?? 1) - 1;
          if (n > 0) chainRefs.set(f, n);
          else {
            chainRefs.delete(f);
            const options = optionChain(f).map((o) => o.symbol);
            options.forEach((s) => wanted.delete(s));
            md.unsubscribe(options);
          }
        }
      };
    },
    start: () => md.start(),
    stop: () => md.close(),
  };
}
