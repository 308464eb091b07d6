/**
 * The quotes and trades of one simulated option chain, as its market makers and traders make them.
 *
 * - Fair value: the chain's smile (smile.ts) priced on the future's mid with Black-76 ('E') or the
 *   American model ('A') from @pfp/quant.
 * - Market makers quote around it in vol terms, as they hedge: half-spread vega·HALF_SPREAD_VOL·
 *   (1 + |x|/2), x the standardised moneyness, outwards to the tick grid; where that is under a tick,
 *   the one-tick-wide market around the value. Now and then one tick wider on one side. Never a
 *   percentage of the premium: a deep in-the-money option with little time value has a narrow spread.
 * - The tick floor: an option worth less than a tick is offered at one tick with no bid. Its prices say
 *   nothing about vol (the curves give it no point).
 * - Trades arrive at random (Poisson) at the bid or the offer, often near the money of liquid months
 *   (every few seconds), rarely in the wings; each sets `last_price` with its time and the future's
 *   price then. A chain that comes into view has traded before: its options get the last trade their
 *   trade rate makes likely in the past few minutes, at the current quotes.
 */
import { ceilToTick, floorToTick, roundToTick } from './catalogue';
import type { SimFuture } from './futuresProcess';
import { YEAR_MS } from './futuresProcess';
import { americanPrice, black76Price } from './pricing';
import type { Quote } from '../platform/quote';
import { sameQuote } from './quote';
import { hashSeed, Rng } from './rng';
import { Smile } from './smile';
import type { OptionProductSpec, OptionSpec } from './types';

/** Half-spread at the money, in vol (× vega): 0.2 vol points each side. */
const HALF_SPREAD_VOL = 0.002;
/** Trades per second at the money of the dominant month; the wings trade less (× e^(−x²/2)). */
const TRADE_RATE = 0.25;
/** How far back a chain coming into view looks for its options' last trades. */
const WARM_START_MS = 15 * 60_000;
/**
 * The chain is repriced when its future's quote moves, and at least every REPRICE_EVERY ticks (time
 * decay); the smile's noise and the spread jitter evolve on that slower clock.
 */
const REPRICE_EVERY = 10;
const MIN_T = 1 / (365 * 24 * 60);

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);
const normPdf = (x: number) => Math.exp(-0.5 * x * x) / 2.506628274631;

interface OptionState {
  spec: OptionSpec;
  isCall: boolean;
  strikeIndex: number;
  quote: Quote;
  /** Extra tick on one side of the book: 0 none, 1 bid, 2 ask. */
  jitter: number;
}

export class SimOptionChain {
  readonly specs: OptionSpec[];
  readonly expiryMs: number;
  /** Live subscriptions. */
  refs = 0;
  /** Last tick this chain was advanced (-1: never). */
  tick = -1;
  private readonly opt: OptionProductSpec;
  private readonly options: OptionState[];
  private readonly bySymbol = new Map<string, OptionState>();
  private readonly smile: Smile;
  private readonly rng: Rng;
  private pricedVersion = -1;
  private pricedTick = -1;
  private noiseTick = -1;
  private tradedAt = -1;

  constructor(
    readonly future: SimFuture,
    specs: OptionSpec[],
    seed: number,
    private readonly rate: number,
    dayStartMs: number,
  ) {
    this.opt = future.product.option!;
    this.specs = specs;
    this.expiryMs = specs[0]!.expiryMs;
    const strikes = [...new Set(specs.map((s) => s.strike))];
    this.rng = new Rng(hashSeed(seed, `${future.spec.symbol}#options`));
    this.smile = new Smile(future.product, this.opt, strikes.length, this.rng);
    const datetime = future.quote.datetime;
    this.options = specs.map((spec) => ({
      spec,
      isCall: spec.optionType === 'CALL',
      strikeIndex: strikes.indexOf(spec.strike),
      jitter: 0,
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
        datetime,
      },
    }));
    for (const o of this.options) this.bySymbol.set(o.spec.symbol, o);
    this.settle(datetime, dayStartMs, true);
  }

  get quotes(): Quote[] {
    return this.options.map((o) => o.quote);
  }

  quoteOf(symbol: string): Quote | undefined {
    return this.bySymbol.get(symbol)?.quote;
  }

  /** Whether the chain needs its first pricing, or is behind `tick`. */
  isBehind(tick: number): boolean {
    return this.pricedTick < 0 || this.tick < tick;
  }

  /**
   * Previous settlements and limits: the model value on the future's previous settlement. With
   * `initial`, the last price starts at the settlement (as after yesterday's close, no trade yet).
   * The next advance requotes.
   */
  settle(datetime: string, dayStartMs: number, initial = false): void {
    const f = this.future;
    const F = f.quote.pre_settlement;
    const T = this.yearsToExpiry(dayStartMs) + 1 / 365;
    const limitAmount = f.quote.pre_settlement * f.product.limitPct;
    for (const o of this.options) {
      const { tick, strike } = o.spec;
      const pre = Math.max(tick, roundToTick(this.value(F, strike, T, o.isCall, this.smile.base(F, strike, T)), tick));
      o.quote = {
        ...o.quote,
        last_price: initial ? pre : o.quote.last_price,
        pre_settlement: pre,
        upper_limit: floorToTick(pre + limitAmount, tick),
        lower_limit: Math.max(tick, ceilToTick(pre - limitAmount, tick)),
        volume: initial ? o.quote.volume : 0,
        open_interest: initial ? this.rng.int(0, 2000) : o.quote.open_interest,
        datetime,
      };
    }
    this.pricedTick = -1;
  }

  /**
   * One tick: a full requote when the future's quote moved (or every REPRICE_EVERY ticks), and the
   * trades since the last tick. Changed quotes go to `out`.
   */
  advance(tick: number, now: number, datetime: string, out: Quote[] | undefined): void {
    const first = this.tradedAt < 0;
    const reprice =
      this.pricedTick < 0 || this.pricedVersion !== this.future.version || tick - this.pricedTick >= REPRICE_EVERY;
    const evolve = reprice && (this.noiseTick < 0 || tick - this.noiseTick >= REPRICE_EVERY);
    const seconds = this.tradedAt < 0 ? 0 : Math.max(0, now - this.tradedAt) / 1000;
    this.tick = tick;
    this.tradedAt = now;
    if (reprice) {
      this.pricedTick = tick;
      this.pricedVersion = this.future.version;
    }
    if (evolve) {
      this.noiseTick = tick;
      this.smile.evolve();
      for (const o of this.options) o.jitter = this.rng.chance(0.3) ? this.rng.int(1, 2) : 0;
    }
    const F = this.future.forward;
    const T = this.yearsToExpiry(now);
    const sqrtT = Math.sqrt(T);
    const df = Math.exp(-this.rate * T);
    const liquidity = this.future.liquidity;
    const { rng } = this;
    for (const o of this.options) {
      const q = o.quote;
      const x = this.smile.moneyness(F, o.spec.strike, T);
      let next = reprice ? this.requote(o, F, T, sqrtT, df, x) : q;
      const rate = TRADE_RATE * liquidity * Math.exp(-0.5 * x * x);
      if (first) {
        // The age of the last trade of a Poisson stream is exponential.
        const age = (-Math.log(1 - rng.next()) / rate) * 1000;
        if (age < WARM_START_MS) next = this.trade(next, now - age, F);
      } else if (seconds > 0 && rng.chance(1 - Math.exp(-rate * seconds))) {
        next = this.trade(next, now, F);
      }
      if (next !== q && !sameQuote(next, q)) {
        next.datetime = datetime;
        o.quote = next;
        out?.push(next);
      }
    }
  }

  /** The market makers' quote around the fair value. */
  private requote(o: OptionState, F: number, T: number, sqrtT: number, df: number, x: number): Quote {
    const { tick, strike } = o.spec;
    const q = o.quote;
    const iv = this.smile.vol(F, strike, T, o.strikeIndex);
    const theo = this.value(F, strike, T, o.isCall, iv);
    let bid: number | null;
    let ask: number | null;
    if (theo < tick) {
      // The tick floor: nobody pays for an option worth less than the smallest price, one tick is offered.
      bid = null;
      ask = tick;
    } else {
      const sd = iv * sqrtT;
      const vega = df * F * normPdf((Math.log(F / strike) + (sd * sd) / 2) / sd) * sqrtT;
      const half = vega * HALF_SPREAD_VOL * (1 + Math.abs(x) / 2);
      // Narrower than a tick in vol terms: the tightest market there is, one tick wide around the value.
      bid = 2 * half < tick ? floorToTick(theo, tick) : floorToTick(theo - half, tick);
      ask = 2 * half < tick ? bid + tick : ceilToTick(theo + half, tick);
      if (o.jitter === 1) bid -= tick;
      if (o.jitter === 2) ask += tick;
      bid = roundToTick(bid, tick);
      ask = roundToTick(ask, tick);
      if (bid < tick) bid = null;
    }
    ask = clamp(ask, q.lower_limit, q.upper_limit);
    if (bid !== null) {
      bid = clamp(bid, q.lower_limit, q.upper_limit);
      if (bid >= ask) bid = ask - tick >= q.lower_limit ? floorToTick(ask - tick, tick) : null;
    }
    const { rng } = this;
    const depth = () => rng.int(1, 10 + Math.round(40 * Math.exp(-0.5 * x * x)));
    return {
      ...q,
      bid_price1: bid,
      ask_price1: ask,
      bid_volume1: bid === null ? 0 : q.bid_price1 === bid && q.bid_volume1 > 0 ? q.bid_volume1 : depth(),
      ask_volume1: q.ask_price1 === ask && q.ask_volume1 > 0 ? q.ask_volume1 : depth(),
    };
  }

  /** A trade at the bid or the offer at `at`, the future being at F. */
  private trade(q: Quote, at: number, F: number): Quote {
    const { rng } = this;
    const atAsk = q.ask_price1 !== null && (q.bid_price1 === null || rng.chance(0.5));
    const price = atAsk ? q.ask_price1 : q.bid_price1;
    if (price === null) return q;
    const lots = rng.int(1, 20);
    return {
      ...q,
      last_price: price,
      volume: q.volume + lots,
      open_interest: Math.max(0, q.open_interest + rng.int(-lots, lots)),
      last_trade_ms: Math.round(at),
      last_trade_underlying: F,
    };
  }

  private yearsToExpiry(at: number): number {
    return Math.max((this.expiryMs - at) / YEAR_MS, MIN_T);
  }

  private value(F: number, K: number, T: number, isCall: boolean, iv: number): number {
    return this.opt.style === 'E'
      ? black76Price(F, K, T, this.rate, isCall, iv)
      : americanPrice(F, K, T, this.rate, isCall, iv);
  }
}
