/**
 * The built-in simulated exchange (MARKET_SOURCE=sim, the default; ARCHITECTURE §6): the clock, the
 * listings and the subscriptions. The futures' price process is futuresProcess.ts, the options' smile
 * smile.ts, their quotes and trades optionQuotes.ts.
 *
 * - Every listed future is simulated; option chains only while someone subscribed to them
 *   (`subscribe`, `subscribeChains`); `getQuote` on another chain's option computes that chain once,
 *   on demand.
 * - Deterministic for a seed and a clock: each future and each chain draws from its own mulberry32
 *   stream, so subscriptions never change the futures' paths.
 * - sessions 'always' (default) trades around the clock; 'real' moves quotes only inside the product's
 *   day and night sessions (Asia/Shanghai, holidays not modelled).
 * - A new trading day starts at 17:00 Shanghai (the night session belongs to the next day): the last
 *   price becomes the settlement, limits are recomputed, volumes reset, expired contracts leave and
 *   newly listed ones join.
 */
import { shanghaiInstant } from '../platform/time';
import { dateKey, formatQuoteTime, inSession, tradingDayOf } from './calendar';
import { catalogue as defaultCatalogue, type Catalogue } from './catalogue';
import { SimFuture } from './futuresProcess';
import { SimOptionChain } from './optionQuotes';
import type { Quote } from '../platform/quote';
import type { SettlementPrice } from './settlementPrices';
import type { FutureSpec, OptionSpec } from './types';
import { consoleLogger, type Logger } from '../platform/logger';

export type { Quote } from '../platform/quote';

/** The day session's close (Shanghai hour): the settlement price is taken then. */
const CLOSE_HOUR = 15;

export interface SimExchangeOptions {
  /** Seed of the market's random streams (default 1). */
  seed?: number;
  /** Milliseconds between ticks of `start()` (default 500: two ticks per second). */
  tickIntervalMs?: number;
  /** 'always' (default): trade around the clock. 'real': only inside the products' sessions. */
  sessions?: 'always' | 'real';
  /** Clock (default: the wall clock). Prices move by the time that passes on it. */
  now?: () => Date;
  catalogue?: Catalogue;
  /** Risk-free rate for option prices (default 1.5%). */
  rate?: number;
  /** Where a throwing onTick listener's error goes (default: the console). */
  logger?: Logger;
}

/** The quotes that changed in a tick, and the tick's time (epoch ms). */
export type TickListener = (quotes: readonly Quote[], at: number) => void;

export class SimExchange {
  readonly catalogue: Catalogue;
  readonly tickIntervalMs: number;
  readonly sessions: 'always' | 'real';
  private readonly seed: number;
  private readonly now: () => Date;
  private readonly rate: number;
  private readonly logger: Logger;
  private readonly futures = new Map<string, SimFuture>();
  private readonly chains = new Map<string, SimOptionChain>();
  /** Option symbol → chain, for chains built so far. */
  private readonly optionIndex = new Map<string, SimOptionChain>();
  private readonly listeners = new Set<TickListener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private tickCount = 0;
  private day = '';
  private dayAsOf = new Date(0);
  /** The settlement prices frozen at the day's close (15:00 Shanghai), and their day. */
  private closing = new Map<string, { price: number; volume: number }>();
  private closingDay = '';

  constructor(options: SimExchangeOptions = {}) {
    this.catalogue = options.catalogue ?? defaultCatalogue;
    this.seed = options.seed ?? 1;
    this.tickIntervalMs = options.tickIntervalMs ?? 500;
    this.sessions = options.sessions ?? 'always';
    this.now = options.now ?? (() => new Date());
    this.rate = options.rate ?? 0.015;
    this.logger = options.logger ?? consoleLogger;
    const now = this.now();
    this.setDay(now);
    this.listContracts(now);
  }

  // -------------------------------------------------------------------------------------------
  // Public API

  /** The trading day being simulated, 'YYYY-MM-DD'. */
  get tradingDay(): string {
    return this.day;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** The futures being simulated (listed on the current trading day). */
  listFutures(): FutureSpec[] {
    return [...this.futures.values()].map((f) => f.spec);
  }

  /** The option chain of a simulated future as quoted here (strikes centred on that day's settlement). */
  optionChain(futureSymbol: string): OptionSpec[] {
    return this.ensureChain(futureSymbol)?.specs ?? [];
  }

  getQuote(symbol: string): Quote | undefined {
    const future = this.futures.get(symbol);
    if (future) return future.quote;
    let chain = this.optionIndex.get(symbol);
    if (!chain) {
      const spec = this.catalogue.findInstrument(symbol, this.dayAsOf);
      if (spec?.kind !== 'option') return undefined;
      chain = this.ensureChain(spec.underlying);
      if (!chain) return undefined;
    }
    if (chain.refs === 0 && chain.isBehind(this.tickCount)) this.advanceChain(chain, this.now(), undefined);
    return chain.quoteOf(symbol);
  }

  /**
   * Keeps the chains of these option symbols live (futures are always live; other symbols are ignored).
   * Returns the function that undoes this subscription.
   */
  subscribe(symbols: readonly string[]): () => void {
    const underlyings = new Set<string>();
    for (const symbol of symbols) {
      const chain = this.optionIndex.get(symbol);
      if (chain) underlyings.add(chain.future.spec.symbol);
      else {
        const spec = this.catalogue.findInstrument(symbol, this.dayAsOf);
        if (spec?.kind === 'option') underlyings.add(spec.underlying);
      }
    }
    return this.subscribeChains([...underlyings]);
  }

  /** Keeps the option chains of these futures live. Returns the function that undoes this subscription. */
  subscribeChains(futureSymbols: readonly string[]): () => void {
    const held: string[] = [];
    for (const symbol of new Set(futureSymbols)) {
      const chain = this.ensureChain(symbol);
      if (!chain) continue;
      chain.refs++;
      held.push(symbol);
      if (chain.isBehind(this.tickCount)) this.advanceChain(chain, this.now(), undefined);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const symbol of held) {
        const chain = this.chains.get(symbol);
        if (chain && chain.refs > 0) chain.refs--;
      }
    };
  }

  /** Calls `listener` after each tick with the quotes that changed. Returns the unsubscribe function. */
  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The settlement price of every listed future for the trading day `day` (docs/fixing.md 均价依据): the
   * volume-weighted average of the day's simulated trades, frozen at the day's close (15:00 Shanghai) by
   * the first tick at or after it. Asked for a day whose close this process did not see (it started
   * after it, or `day` is not its trading day), it answers the average so far of its own trading day:
   * the simulation keeps no history, and the first published price is the one stored.
   */
  settlementPrices(day: string): SettlementPrice[] {
    const frozen = this.closingDay === day ? this.closing : undefined;
    return [...this.futures.values()].map((f) => ({
      instrument_id: f.spec.symbol,
      ...(frozen?.get(f.spec.symbol) ?? f.settlementPrice()),
      source: 'sim' as const,
    }));
  }

  /** Whether the instrument trades at `at` (always true with sessions 'always'); unknown symbols: false. */
  isTrading(symbol: string, at: Date = this.now()): boolean {
    const spec = this.catalogue.findInstrument(symbol, at);
    if (!spec) return false;
    return this.sessions === 'always' || inSession(this.catalogue.productOf(spec), at);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.step(), this.tickIntervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Moves one future's price at once by `factor` and tells the listeners (the end-to-end suites' market
   * shock, only with SIM_MARKET_HOOKS). Undefined for a symbol that is not a listed future.
   */
  shift(symbol: string, factor: number): Quote | undefined {
    const future = this.futures.get(symbol);
    if (!future) return undefined;
    const quote = future.shift(factor);
    for (const listener of this.listeners) {
      try {
        listener([quote], Date.now());
      } catch (error) {
        this.logger.error({ err: error }, 'sim exchange listener failed');
      }
    }
    return quote;
  }

  /** Advances the market one tick synchronously; returns (and emits) the quotes that changed. */
  step(): Quote[] {
    const now = this.now();
    const at = now.getTime();
    this.tickCount++;
    const changed: Quote[] = [];
    if (dateKey(tradingDayOf(now)) !== this.day) this.rollover(now, changed);
    this.freezeClose(now);
    const datetime = formatQuoteTime(now);
    const real = this.sessions === 'real';
    for (const future of this.futures.values()) {
      const quote = future.advance(at, datetime, !real || inSession(future.product, now));
      if (quote) changed.push(quote);
    }
    for (const chain of this.chains.values()) {
      if (chain.refs === 0) continue;
      if (real && !inSession(chain.future.product, now)) continue;
      this.advanceChain(chain, now, changed);
    }
    if (changed.length > 0) {
      for (const listener of this.listeners) {
        try {
          listener(changed, at);
        } catch (error) {
          this.logger.error({ err: error }, 'sim exchange listener failed');
        }
      }
    }
    return changed;
  }

  // -------------------------------------------------------------------------------------------
  // Trading days and listings

  private setDay(now: Date): void {
    const day = tradingDayOf(now);
    this.day = dateKey(day);
    this.dayAsOf = new Date(shanghaiInstant(day.y, day.m, day.d, 9, 0, 0));
  }

  /** Adds the futures listed on the current trading day that are not simulated yet. */
  private listContracts(now: Date): void {
    const datetime = formatQuoteTime(now);
    for (const product of this.catalogue.allProducts()) {
      const listed = this.catalogue.listFutures(product.exchange, product.id, this.dayAsOf);
      listed.forEach((spec, index) => {
        if (this.futures.has(spec.symbol)) return;
        this.futures.set(spec.symbol, new SimFuture(spec, product, index, this.seed, now.getTime(), datetime));
      });
    }
  }

  /** At the first tick at or after 15:00 of the trading day (its close), its settlement prices are frozen. */
  private freezeClose(now: Date): void {
    if (this.closingDay === this.day) return;
    const [y, m, d] = this.day.split('-').map(Number) as [number, number, number];
    if (now.getTime() < shanghaiInstant(y, m, d, CLOSE_HOUR)) return;
    this.closing = new Map([...this.futures.values()].map((f) => [f.spec.symbol, f.settlementPrice()]));
    this.closingDay = this.day;
  }

  /** New trading day: settle, reset limits and volumes, drop expired contracts, list new ones. */
  private rollover(now: Date, changed: Quote[]): void {
    this.setDay(now);
    const datetime = formatQuoteTime(now);
    for (const [symbol, future] of this.futures) {
      if (future.spec.expiry < this.day) this.futures.delete(symbol);
      else changed.push(future.settle(datetime));
    }
    for (const [symbol, chain] of this.chains) {
      const expired = chain.specs[0] !== undefined && chain.specs[0].expiry < this.day;
      if (expired || !this.futures.has(symbol)) {
        this.chains.delete(symbol);
        for (const o of chain.specs) this.optionIndex.delete(o.symbol);
        continue;
      }
      chain.settle(datetime, this.dayAsOf.getTime());
      if (chain.refs > 0) changed.push(...chain.quotes);
    }
    this.listContracts(now);
  }

  // -------------------------------------------------------------------------------------------
  // Options

  private ensureChain(futureSymbol: string): SimOptionChain | undefined {
    const existing = this.chains.get(futureSymbol);
    if (existing) return existing;
    const future = this.futures.get(futureSymbol);
    if (!future?.product.option) return undefined;
    const specs = this.catalogue.optionChain(futureSymbol, this.dayAsOf, future.quote.pre_settlement);
    if (specs.length === 0) return undefined;
    const chain = new SimOptionChain(future, specs, this.seed, this.rate, this.dayAsOf.getTime());
    this.chains.set(futureSymbol, chain);
    for (const o of specs) this.optionIndex.set(o.symbol, chain);
    return chain;
  }

  private advanceChain(chain: SimOptionChain, now: Date, out: Quote[] | undefined): void {
    chain.advance(this.tickCount, now.getTime(), formatQuoteTime(now), out);
  }
}

/**
 * Throughput of the simulation: runs `step()` for about `ms` milliseconds with `chains` option chains
 * subscribed (≈50 is the design load) on a simulated clock advancing one tick interval per step, and
 * returns changed quotes per second of wall time.
 */
export function measureQuoteThroughput(ms = 1000, chains = 50): number {
  const start = shanghaiInstant(2025, 11, 20, 10, 0, 0);
  let steps = 0;
  const sim = new SimExchange({ seed: 42, now: () => new Date(start + steps * 500) });
  const bySymbol = new Map<string, FutureSpec[]>();
  for (const f of sim.catalogue.futuresWithOptions(undefined, undefined, new Date(start))) {
    const key = `${f.exchange}.${f.productId}`;
    bySymbol.set(key, [...(bySymbol.get(key) ?? []), f]);
  }
  // The two nearest chains of each product, then further ones, until `chains` are subscribed.
  const picked: string[] = [];
  for (let depth = 0; picked.length < chains && depth < 12; depth++) {
    for (const list of bySymbol.values()) {
      const f = list[depth];
      if (f && picked.length < chains) picked.push(f.symbol);
    }
  }
  sim.subscribeChains(picked);
  let quotes = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    steps++;
    quotes += sim.step().length;
    elapsed = performance.now() - t0;
  }
  return (quotes / elapsed) * 1000;
}
