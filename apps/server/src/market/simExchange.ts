/**
 * The built-in simulated exchange (MARKET_SOURCE=sim, the default; ARCHITECTURE §6).
 *
 * - Every listed future of the catalogue moves as a geometric random walk at its product's annualised
 *   volatility, the time step being the tick interval as a fraction of a trading year (252 days of the
 *   product's session hours). Quotes sit on the tick grid inside the day's price limits, with a spread of
 *   one or two ticks; at limit-up only bids remain, at limit-down only offers.
 * - Option quotes come from a smile, iv = atm·(1 + skew·x + curvature·x²) with x = ln(K/F)/(atm·√T) and
 *   the ATM vol 8% above the future's, plus small noise in level, slope and per strike (shared by call and put);
 *   priced with Black-76 ('E') or the American model ('A') on the future's mid. Spreads are ~0.15 vol
 *   points of vega each side, wider away from the money, never under one tick. An option worth less than
 *   one tick has no bid; one worth less than half a tick has no quote at all. Trades are occasional (more
 *   often near the money) and move last_price.
 * - Option chains are computed only for chains someone subscribed to (`subscribe`, `subscribeChains`);
 *   `getQuote` on another chain's option computes that chain once, on demand.
 * - Deterministic for a seed: each future and each chain draws from its own mulberry32 stream, so
 *   subscriptions never change the futures' paths.
 * - sessions 'always' (default) trades around the clock; 'real' moves quotes only inside the product's
 *   day and night sessions (Asia/Shanghai, holidays not modelled).
 * - A new trading day starts at 17:00 Shanghai (the night session belongs to the next day): the last
 *   price becomes the settlement, limits are recomputed, volumes reset, expired contracts leave and
 *   newly listed ones join.
 */
import { formatQuoteTime, inSession, shanghaiInstant, tradingDayOf, tradingMinutesPerDay, dateKey } from './calendar';
import {
  catalogue as defaultCatalogue,
  ceilToTick,
  floorToTick,
  priceLimits,
  roundToTick,
  type Catalogue,
} from './catalogue';
import { americanPrice, black76Price } from './pricing';
import { hashSeed, Rng } from './rng';
import type { FutureSpec, OptionProductSpec, OptionSpec, ProductSpec } from './types';

/** A level-1 quote, with TqSdk's field names. An absent bid or ask is null. */
export interface Quote {
  symbol: string;
  last_price: number;
  bid_price1: number | null;
  ask_price1: number | null;
  bid_volume1: number;
  ask_volume1: number;
  volume: number;
  open_interest: number;
  upper_limit: number;
  lower_limit: number;
  pre_settlement: number;
  /** Exchange time of the last change, Shanghai: 'YYYY-MM-DD HH:MM:SS.ffffff'. */
  datetime: string;
}

export interface SimExchangeOptions {
  /** Seed of the market's random streams (default 1). */
  seed?: number;
  /** Milliseconds between ticks of `start()` (default 500: two ticks per second). */
  tickIntervalMs?: number;
  /** 'always' (default): trade around the clock. 'real': only inside the products' sessions. */
  sessions?: 'always' | 'real';
  /** Clock (default: the wall clock). */
  now?: () => Date;
  catalogue?: Catalogue;
  /** Risk-free rate for option prices (default 1.5%). */
  rate?: number;
  /** Where a throwing onTick listener's error goes (default console.error). */
  onError?: (error: unknown) => void;
}

export type TickListener = (quotes: readonly Quote[]) => void;

const YEAR_MS = 365 * 86_400_000;
/** ATM implied vol relative to the future's realised vol. */
const ATM_PREMIUM = 1.08;
/** Half-spread of option quotes in vol points (× vega), at the money. */
const HALF_SPREAD_VOL = 0.0015;
/**
 * Implied-vol noise, each an AR(1) with persistence NOISE_KEEP: a level and a slope (in x) shared by the
 * whole chain, stationary sd ≈ 0.4 and 0.15 vol points, plus a small per-strike part (≈ 0.08 vol points),
 * shared by the call and the put so that put–call parity holds on the model values.
 */
const NOISE_KEEP = 0.8;
const LEVEL_STEP = 0.0024;
const SLOPE_STEP = 0.0009;
const STRIKE_STEP = 0.0005;
/**
 * A chain is repriced when its future's mid moves, and at least every REPRICE_EVERY ticks (time decay);
 * the vol noise and the spread jitter evolve on that slower clock, so a one-tick move of the future only
 * changes the quotes it really moves.
 */
const REPRICE_EVERY = 10;
/** Liquidity by position in the listing: the second contract is usually the dominant one. */
const LIQUIDITY = [0.6, 1, 0.8, 0.55, 0.4, 0.3, 0.25, 0.2];

interface FutureState {
  spec: FutureSpec;
  product: ProductSpec;
  rng: Rng;
  /** The true (continuous) price the quotes follow. */
  mid: number;
  liquidity: number;
  /** Random-walk step: sigma·√dt and the drift correction −sigma²·dt/2. */
  sigmaStep: number;
  drift: number;
  quote: Quote;
  /** Bumped whenever the quote's bid/ask changes (chains reprice on it). */
  version: number;
}

interface OptionState {
  spec: OptionSpec;
  isCall: boolean;
  strikeIndex: number;
  quote: Quote;
}

interface ChainState {
  future: FutureState;
  opt: OptionProductSpec;
  specs: OptionSpec[];
  options: OptionState[];
  strikes: number[];
  /** Per-strike vol noise, and the chain's level and slope noise. */
  noise: number[];
  level: number;
  slope: number;
  rng: Rng;
  expiryMs: number;
  refs: number;
  /** Future version and tick of the last full reprice; tick of the last noise update. */
  pricedVersion: number;
  pricedTick: number;
  noiseTick: number;
  /** Extra half-spread per option, in ticks (0 or 1). */
  jitter: Uint8Array;
  /** Last tick this chain was advanced. */
  tick: number;
  /** Theoretical value per option at the last reprice. */
  theo: Float64Array;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

function sameQuote(a: Quote, b: Quote): boolean {
  return (
    a.last_price === b.last_price &&
    a.bid_price1 === b.bid_price1 &&
    a.ask_price1 === b.ask_price1 &&
    a.bid_volume1 === b.bid_volume1 &&
    a.ask_volume1 === b.ask_volume1 &&
    a.volume === b.volume &&
    a.open_interest === b.open_interest &&
    a.upper_limit === b.upper_limit &&
    a.lower_limit === b.lower_limit &&
    a.pre_settlement === b.pre_settlement
  );
}

function normPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / 2.506628274631;
}

export class SimExchange {
  readonly catalogue: Catalogue;
  readonly tickIntervalMs: number;
  readonly sessions: 'always' | 'real';
  private readonly seed: number;
  private readonly now: () => Date;
  private readonly rate: number;
  private readonly onError: (error: unknown) => void;
  private readonly futures = new Map<string, FutureState>();
  private readonly chains = new Map<string, ChainState>();
  /** Option symbol → chain, for chains built so far. */
  private readonly optionIndex = new Map<string, ChainState>();
  private readonly listeners = new Set<TickListener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private tickCount = 0;
  private day = '';
  private dayAsOf = new Date(0);

  constructor(options: SimExchangeOptions = {}) {
    this.catalogue = options.catalogue ?? defaultCatalogue;
    this.seed = options.seed ?? 1;
    this.tickIntervalMs = options.tickIntervalMs ?? 500;
    this.sessions = options.sessions ?? 'always';
    this.now = options.now ?? (() => new Date());
    this.rate = options.rate ?? 0.015;
    this.onError = options.onError ?? ((error) => console.error('sim exchange listener failed', error));
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
    if (chain.refs === 0 && chain.tick < this.tickCount) this.advanceChain(chain, this.now(), undefined);
    return chain.options.find((o) => o.spec.symbol === symbol)?.quote;
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
      if (chain.tick < this.tickCount || chain.pricedTick < 0) this.advanceChain(chain, this.now(), undefined);
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

  /** Advances the market one tick synchronously; returns (and emits) the quotes that changed. */
  step(): Quote[] {
    const now = this.now();
    this.tickCount++;
    const changed: Quote[] = [];
    if (dateKey(tradingDayOf(now)) !== this.day) this.rollover(now, changed);
    const datetime = formatQuoteTime(now);
    const real = this.sessions === 'real';
    for (const future of this.futures.values()) {
      if (real && !inSession(future.product, now)) continue;
      const quote = this.advanceFuture(future, datetime);
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
          listener(changed);
        } catch (error) {
          this.onError(error);
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
        this.futures.set(spec.symbol, this.newFuture(spec, product, index, datetime));
      });
    }
  }

  private newFuture(spec: FutureSpec, product: ProductSpec, index: number, datetime: string): FutureState {
    const rng = new Rng(hashSeed(this.seed, spec.symbol));
    const liquidity = LIQUIDITY[index] ?? 0.15;
    const dt = this.tickIntervalMs / (252 * tradingMinutesPerDay(product) * 60_000);
    const pre = spec.refPrice;
    const limits = priceLimits(pre, product);
    // Start a little away from the previous settlement, as after an overnight move.
    const mid = clamp(
      pre * Math.exp(0.3 * product.vol * Math.sqrt(1 / 252) * rng.normal()),
      limits.lower,
      limits.upper,
    );
    const last = roundToTick(mid, product.tick);
    const state: FutureState = {
      spec,
      product,
      rng,
      mid,
      liquidity,
      sigmaStep: product.vol * Math.sqrt(dt),
      drift: -0.5 * product.vol * product.vol * dt,
      version: 0,
      quote: {
        symbol: spec.symbol,
        last_price: last,
        bid_price1: null,
        ask_price1: null,
        bid_volume1: 0,
        ask_volume1: 0,
        volume: 0,
        open_interest: rng.int(500, 500 + Math.round(liquidity * 300_000)),
        upper_limit: limits.upper,
        lower_limit: limits.lower,
        pre_settlement: pre,
        datetime,
      },
    };
    state.quote = { ...state.quote, ...this.futureBook(state) };
    return state;
  }

  /** New trading day: settle, reset limits and volumes, drop expired contracts, list new ones. */
  private rollover(now: Date, changed: Quote[]): void {
    this.setDay(now);
    const datetime = formatQuoteTime(now);
    for (const [symbol, future] of this.futures) {
      if (future.spec.expiry < this.day) {
        this.futures.delete(symbol);
        continue;
      }
      const settlement = future.quote.last_price;
      const limits = priceLimits(settlement, future.product);
      future.mid = clamp(future.mid, limits.lower, limits.upper);
      future.quote = {
        ...future.quote,
        pre_settlement: settlement,
        upper_limit: limits.upper,
        lower_limit: limits.lower,
        volume: 0,
        datetime,
      };
      future.quote = { ...future.quote, ...this.futureBook(future) };
      future.version++;
      changed.push(future.quote);
    }
    for (const [symbol, chain] of this.chains) {
      const expired = chain.specs[0] !== undefined && chain.specs[0].expiry < this.day;
      if (expired || !this.futures.has(symbol)) {
        this.chains.delete(symbol);
        for (const o of chain.options) this.optionIndex.delete(o.spec.symbol);
        continue;
      }
      this.settleChain(chain, datetime);
      chain.pricedTick = -1;
      if (chain.refs > 0) for (const o of chain.options) changed.push(o.quote);
    }
    this.listContracts(now);
  }

  // -------------------------------------------------------------------------------------------
  // Futures

  /** Bid/ask around the true price: 1–2 ticks wide, inside the limits. */
  private futureBook(f: FutureState): Pick<Quote, 'bid_price1' | 'ask_price1' | 'bid_volume1' | 'ask_volume1'> {
    const { tick } = f.product;
    const { rng } = f;
    const c = f.mid / tick;
    const wide = rng.chance(0.25);
    let bidT = wide ? Math.round(c) - 1 : Math.floor(c + 1e-9);
    let askT = wide ? Math.round(c) + 1 : bidT + 1;
    const upperT = Math.round(f.quote.upper_limit / tick);
    const lowerT = Math.round(f.quote.lower_limit / tick);
    const depth = () => rng.int(1, 10 + Math.round(f.liquidity * 300));
    if (askT > upperT) {
      // Limit-up: buyers queue at the limit, nobody sells.
      bidT = Math.min(bidT, upperT);
      return { bid_price1: roundToTick(bidT * tick, tick), ask_price1: null, bid_volume1: depth() * 5, ask_volume1: 0 };
    }
    if (bidT < lowerT) {
      askT = Math.max(askT, lowerT);
      return { bid_price1: null, ask_price1: roundToTick(askT * tick, tick), bid_volume1: 0, ask_volume1: depth() * 5 };
    }
    return {
      bid_price1: roundToTick(bidT * tick, tick),
      ask_price1: roundToTick(askT * tick, tick),
      bid_volume1: depth(),
      ask_volume1: depth(),
    };
  }

  private advanceFuture(f: FutureState, datetime: string): Quote | undefined {
    const { rng } = f;
    const q = f.quote;
    f.mid = clamp(f.mid * Math.exp(f.drift + f.sigmaStep * rng.normal()), q.lower_limit, q.upper_limit);
    // Far contracts update less often than the dominant one.
    if (!rng.chance(0.15 + 0.85 * f.liquidity)) return undefined;
    const book = this.futureBook(f);
    let { last_price, volume, open_interest } = q;
    if (rng.chance(0.25 + 0.6 * f.liquidity)) {
      const atAsk = book.ask_price1 !== null && (book.bid_price1 === null || rng.chance(0.5));
      const price = atAsk ? book.ask_price1 : book.bid_price1;
      if (price !== null) {
        const lots = rng.int(1, 5 + Math.round(f.liquidity * 120));
        last_price = price;
        volume += lots;
        open_interest = Math.max(0, open_interest + rng.int(-lots, lots));
      }
    }
    const next: Quote = { ...q, ...book, last_price, volume, open_interest, datetime };
    if (sameQuote(next, q)) return undefined;
    if (next.bid_price1 !== q.bid_price1 || next.ask_price1 !== q.ask_price1) f.version++;
    f.quote = next;
    return next;
  }

  /** The price options are valued on: the future's mid (or the one side at a limit). */
  private forward(f: FutureState): number {
    const { bid_price1: bid, ask_price1: ask } = f.quote;
    if (bid !== null && ask !== null) return (bid + ask) / 2;
    return bid ?? ask ?? f.quote.last_price;
  }

  // -------------------------------------------------------------------------------------------
  // Options

  private ensureChain(futureSymbol: string): ChainState | undefined {
    const existing = this.chains.get(futureSymbol);
    if (existing) return existing;
    const future = this.futures.get(futureSymbol);
    const opt = future?.product.option;
    if (!future || !opt) return undefined;
    const specs = this.catalogue.optionChain(futureSymbol, this.dayAsOf, future.quote.pre_settlement);
    const first = specs[0];
    if (!first) return undefined;
    const strikes = [...new Set(specs.map((s) => s.strike))];
    const rng = new Rng(hashSeed(this.seed, `${futureSymbol}#options`));
    const chain: ChainState = {
      future,
      opt,
      specs,
      strikes,
      noise: strikes.map(() => STRIKE_STEP * rng.normal()),
      level: LEVEL_STEP * rng.normal(),
      slope: SLOPE_STEP * rng.normal(),
      rng,
      expiryMs: first.expiryMs,
      refs: 0,
      pricedVersion: -1,
      pricedTick: -1,
      noiseTick: -1,
      jitter: new Uint8Array(specs.length),
      tick: -1,
      theo: new Float64Array(specs.length),
      options: specs.map((spec) => ({
        spec,
        isCall: spec.optionType === 'CALL',
        strikeIndex: strikes.indexOf(spec.strike),
        quote: {
          symbol: spec.symbol,
          last_price: spec.tick,
          bid_price1: null,
          ask_price1: null,
          bid_volume1: 0,
          ask_volume1: 0,
          volume: 0,
          open_interest: 0,
          upper_limit: spec.tick,
          lower_limit: spec.tick,
          pre_settlement: spec.tick,
          datetime: future.quote.datetime,
        },
      })),
    };
    this.settleChain(chain, future.quote.datetime, true);
    this.chains.set(futureSymbol, chain);
    for (const o of chain.options) this.optionIndex.set(o.spec.symbol, chain);
    return chain;
  }

  private yearsToExpiry(chain: ChainState, at: number): number {
    return Math.max((chain.expiryMs - at) / YEAR_MS, 1 / (365 * 24 * 60));
  }

  /** Smile implied vol and standardised moneyness of a strike. */
  private smile(chain: ChainState, F: number, K: number, T: number): { iv: number; x: number } {
    const atm = chain.future.product.vol * ATM_PREMIUM;
    const x = clamp(Math.log(K / F) / (atm * Math.sqrt(T)), -4, 4);
    const shape = 1 + chain.opt.skew * x + chain.opt.curvature * x * x;
    return { iv: atm * Math.max(0.5, shape), x };
  }

  private value(chain: ChainState, F: number, K: number, T: number, isCall: boolean, iv: number): number {
    return chain.opt.style === 'E'
      ? black76Price(F, K, T, this.rate, isCall, iv)
      : americanPrice(F, K, T, this.rate, isCall, iv);
  }

  /**
   * Previous settlements and limits of a chain's options: the model value on the future's previous
   * settlement. With `initial`, the last price starts there too (as after yesterday's close).
   */
  private settleChain(chain: ChainState, datetime: string, initial = false): void {
    const f = chain.future;
    const F = f.quote.pre_settlement;
    const T = this.yearsToExpiry(chain, this.dayAsOf.getTime()) + 1 / 365;
    const limitAmount = f.quote.pre_settlement * f.product.limitPct;
    for (const o of chain.options) {
      const { tick } = o.spec;
      const { iv } = this.smile(chain, F, o.spec.strike, T);
      const pre = Math.max(tick, roundToTick(this.value(chain, F, o.spec.strike, T, o.isCall, iv), tick));
      const last = initial ? pre : o.quote.last_price;
      o.quote = {
        ...o.quote,
        last_price: last,
        pre_settlement: pre,
        upper_limit: floorToTick(pre + limitAmount, tick),
        lower_limit: Math.max(tick, ceilToTick(pre - limitAmount, tick)),
        volume: initial ? o.quote.volume : 0,
        open_interest: initial ? chain.rng.int(0, 2000) : o.quote.open_interest,
        datetime,
      };
    }
  }

  /**
   * One tick of a chain: a full reprice when the future's mid moved (or every REPRICE_EVERY ticks, for
   * time decay and noise), else only the occasional trade. Changed quotes go to `out`.
   */
  private advanceChain(chain: ChainState, now: Date, out: Quote[] | undefined): void {
    chain.tick = this.tickCount;
    const { rng } = chain;
    const datetime = formatQuoteTime(now);
    const reprice =
      chain.pricedTick < 0 ||
      chain.pricedVersion !== chain.future.version ||
      this.tickCount - chain.pricedTick >= REPRICE_EVERY;
    const F = this.forward(chain.future);
    const T = this.yearsToExpiry(chain, now.getTime());
    const df = Math.exp(-this.rate * T);
    const sqrtT = Math.sqrt(T);
    if (reprice) {
      chain.pricedTick = this.tickCount;
      chain.pricedVersion = chain.future.version;
    }
    if (reprice && (chain.noiseTick < 0 || this.tickCount - chain.noiseTick >= REPRICE_EVERY)) {
      chain.noiseTick = this.tickCount;
      for (let i = 0; i < chain.jitter.length; i++) chain.jitter[i] = rng.chance(0.3) ? 1 : 0;
      chain.level = NOISE_KEEP * chain.level + LEVEL_STEP * rng.normal();
      chain.slope = NOISE_KEEP * chain.slope + SLOPE_STEP * rng.normal();
      for (let i = 0; i < chain.noise.length; i++) {
        chain.noise[i] = NOISE_KEEP * (chain.noise[i] as number) + STRIKE_STEP * rng.normal();
      }
    }
    for (let i = 0; i < chain.options.length; i++) {
      const o = chain.options[i] as OptionState;
      const { tick, strike } = o.spec;
      const q = o.quote;
      const { iv: smileIv, x } = this.smile(chain, F, strike, T);
      let next: Quote = q;
      if (reprice) {
        const iv = Math.max(0.01, smileIv + chain.level + chain.slope * x + (chain.noise[o.strikeIndex] as number));
        const theo = this.value(chain, F, strike, T, o.isCall, iv);
        chain.theo[i] = theo;
        const sd = iv * sqrtT;
        const d1 = (Math.log(F / strike) + (sd * sd) / 2) / sd;
        const vega = df * F * normPdf(d1) * sqrtT;
        const half =
          Math.max(0.5 * tick, vega * HALF_SPREAD_VOL * (1 + Math.abs(x) / 2) + theo * 0.002) +
          (chain.jitter[i] as number) * tick;
        let bid: number | null = floorToTick(theo - half, tick);
        let ask: number | null = theo >= tick / 2 ? Math.max(tick, ceilToTick(theo + half, tick)) : null;
        if (bid < tick) bid = null;
        if (ask !== null) ask = clamp(ask, q.lower_limit, q.upper_limit);
        if (bid !== null) {
          bid = clamp(bid, q.lower_limit, q.upper_limit);
          if (ask !== null && bid >= ask) bid = ask - tick >= q.lower_limit ? floorToTick(ask - tick, tick) : null;
        }
        const depth = () => rng.int(1, 10 + Math.round(40 * Math.exp(-0.5 * x * x)));
        next = {
          ...q,
          bid_price1: bid,
          ask_price1: ask,
          bid_volume1: bid === null ? 0 : q.bid_price1 === bid && q.bid_volume1 > 0 ? q.bid_volume1 : depth(),
          ask_volume1: ask === null ? 0 : q.ask_price1 === ask && q.ask_volume1 > 0 ? q.ask_volume1 : depth(),
        };
      }
      // Occasional trades, mostly near the money.
      if (rng.chance(0.005 + 0.04 * Math.exp(-0.5 * x * x))) {
        const atAsk = next.ask_price1 !== null && (next.bid_price1 === null || rng.chance(0.5));
        const price = atAsk ? next.ask_price1 : next.bid_price1;
        if (price !== null) {
          const lots = rng.int(1, 20);
          next = {
            ...next,
            last_price: price,
            volume: next.volume + lots,
            open_interest: Math.max(0, next.open_interest + rng.int(-lots, lots)),
          };
        }
      }
      if (next !== q && !sameQuote(next, q)) {
        next.datetime = datetime;
        o.quote = next;
        out?.push(next);
      }
    }
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
