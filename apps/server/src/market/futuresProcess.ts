/**
 * The price process of one simulated future and its level-1 book.
 *
 * The true price is a driftless geometric random walk in calendar time: between two steps it moves by
 * vol·√(elapsed / year), whatever the sessions, so a future moves at the volatility its options are
 * priced with (their at-the-money vol is the product's `vol`, see smile.ts). A step after a closed
 * session carries the whole break's variance: the market gaps at the open. Quotes sit on the tick
 * grid inside the day's price limits, one or two ticks wide; at limit-up only bids remain, at
 * limit-down only offers.
 */
import { priceLimits, roundToTick } from './catalogue';
import type { Quote } from '../platform/quote';
import { forwardPrice, sameQuote } from './quote';
import { hashSeed, Rng } from './rng';
import type { FutureSpec, ProductSpec } from './types';

export const YEAR_MS = 365 * 86_400_000;
/** Liquidity by position in the listing: the second contract is usually the dominant one. */
const LIQUIDITY = [0.6, 1, 0.8, 0.55, 0.4, 0.3, 0.25, 0.2];

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export class SimFuture {
  private readonly rng: Rng;
  /** 0–1: how actively it trades (the dominant month is 1). */
  readonly liquidity: number;
  /** The true (continuous) price the quotes follow. */
  private mid: number;
  private movedAt: number;
  quote: Quote;
  /** Bumped whenever the quote's bid/ask changes (option chains reprice on it). */
  version = 0;
  /** Σ price × lots of the trading day's simulated trades (their volume is quote.volume): the settlement's VWAP. */
  turnover = 0;

  constructor(
    readonly spec: FutureSpec,
    readonly product: ProductSpec,
    listingIndex: number,
    seed: number,
    now: number,
    datetime: string,
  ) {
    this.rng = new Rng(hashSeed(seed, spec.symbol));
    this.liquidity = LIQUIDITY[listingIndex] ?? 0.15;
    const pre = spec.refPrice;
    const limits = priceLimits(pre, product);
    // Start a little away from the previous settlement, as after an overnight move.
    this.mid = clamp(
      pre * Math.exp(0.3 * product.vol * Math.sqrt(1 / 365) * this.rng.normal()),
      limits.lower,
      limits.upper,
    );
    this.movedAt = now;
    this.quote = {
      symbol: spec.symbol,
      last_price: roundToTick(this.mid, product.tick),
      bid_price1: null,
      ask_price1: null,
      bid_volume1: 0,
      ask_volume1: 0,
      volume: 0,
      open_interest: this.rng.int(500, 500 + Math.round(this.liquidity * 300_000)),
      upper_limit: limits.upper,
      lower_limit: limits.lower,
      pre_settlement: pre,
      datetime,
    };
    this.quote = { ...this.quote, ...this.book() };
  }

  /** The price options are valued on: the quoted mid (or the one side at a limit). */
  get forward(): number {
    return forwardPrice(this.quote) ?? this.quote.last_price;
  }

  /**
   * Moves the true price by the calendar time since the last move, then (more often for liquid
   * months) requotes and maybe trades. Returns the new quote when it changed. `moving` false (outside
   * the sessions) lets the time pass without a move: the variance is taken at the next open.
   */
  advance(now: number, datetime: string, moving = true): Quote | undefined {
    if (!moving) return undefined;
    const dt = Math.max(0, now - this.movedAt) / YEAR_MS;
    this.movedAt = now;
    const { rng } = this;
    const q = this.quote;
    const vol = this.product.vol;
    this.mid = clamp(
      this.mid * Math.exp(-0.5 * vol * vol * dt + vol * Math.sqrt(dt) * rng.normal()),
      q.lower_limit,
      q.upper_limit,
    );
    // Far contracts update less often than the dominant one.
    if (!rng.chance(0.15 + 0.85 * this.liquidity)) return undefined;
    const book = this.book();
    let { last_price, volume, open_interest } = q;
    if (rng.chance(0.25 + 0.6 * this.liquidity)) {
      const atAsk = book.ask_price1 !== null && (book.bid_price1 === null || rng.chance(0.5));
      const price = atAsk ? book.ask_price1 : book.bid_price1;
      if (price !== null) {
        const lots = rng.int(1, 5 + Math.round(this.liquidity * 120));
        last_price = price;
        volume += lots;
        this.turnover += price * lots;
        open_interest = Math.max(0, open_interest + rng.int(-lots, lots));
      }
    }
    const next: Quote = { ...q, ...book, last_price, volume, open_interest, datetime };
    if (sameQuote(next, q)) return undefined;
    if (next.bid_price1 !== q.bid_price1 || next.ask_price1 !== q.ask_price1) this.version++;
    this.quote = next;
    return next;
  }

  /**
   * The true price moved at once by `factor` (inside the day's limits) and a trade there: the end-to-end
   * suites' market shock (SIM_MARKET_HOOKS, docs/margin.md). Returns the new quote.
   */
  shift(factor: number): Quote {
    const q = this.quote;
    this.mid = clamp(this.mid * factor, q.lower_limit, q.upper_limit);
    const book = this.book();
    const last_price = roundToTick(this.mid, this.product.tick);
    this.quote = { ...q, ...book, last_price, volume: q.volume + 1 };
    this.turnover += last_price;
    this.version++;
    return this.quote;
  }

  /**
   * The day's settlement price as the exchanges compute it (SHFE, DCE, CZCE: 当日结算价 = the
   * volume-weighted average price of the day's trades): Σ price × lots ÷ lots of the trading day's
   * simulated trades, on the tick; the last price when nothing traded.
   */
  settlementPrice(): { price: number; volume: number } {
    const volume = this.quote.volume;
    if (volume <= 0 || this.turnover <= 0) return { price: this.quote.last_price, volume: 0 };
    return { price: roundToTick(this.turnover / volume, this.product.tick), volume };
  }

  /** A new trading day: the last price becomes the settlement, limits are recomputed, volume resets. */
  settle(datetime: string): Quote {
    const settlement = this.quote.last_price;
    this.turnover = 0;
    const limits = priceLimits(settlement, this.product);
    this.mid = clamp(this.mid, limits.lower, limits.upper);
    this.quote = {
      ...this.quote,
      pre_settlement: settlement,
      upper_limit: limits.upper,
      lower_limit: limits.lower,
      volume: 0,
      datetime,
    };
    this.quote = { ...this.quote, ...this.book() };
    this.version++;
    return this.quote;
  }

  /** Bid/ask around the true price: 1–2 ticks wide, inside the limits. */
  private book(): Pick<Quote, 'bid_price1' | 'ask_price1' | 'bid_volume1' | 'ask_volume1'> {
    const { tick } = this.product;
    const { rng } = this;
    const c = this.mid / tick;
    const wide = rng.chance(0.25);
    let bidT = wide ? Math.round(c) - 1 : Math.floor(c + 1e-9);
    let askT = wide ? Math.round(c) + 1 : bidT + 1;
    const upperT = Math.round(this.quote.upper_limit / tick);
    const lowerT = Math.round(this.quote.lower_limit / tick);
    const depth = () => rng.int(1, 10 + Math.round(this.liquidity * 300));
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
}
