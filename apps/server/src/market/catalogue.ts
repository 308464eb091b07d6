/**
 * The instrument catalogue (ARCHITECTURE §6): products of the six exchanges, the futures listed on a
 * date, their option chains, and TqSdk symbols in each exchange's own format:
 *
 *   futures  SHFE.cu2601   DCE.m2601   CZCE.SR601 (3-digit year-month)   CFFEX.IF2601   INE.sc2601   GFEX.si2601
 *   options  SHFE.cu2601C80000   INE.sc2601C500   CZCE.SR601C5500          (no separators)
 *            DCE.m2601-C-3000    GFEX.si2601-C-10000   CFFEX.IO2601-C-4000 (dashes)
 *
 * Dates are Asia/Shanghai calendar dates; `asOf` defaults to now. See README.md for the rules.
 */
import {
  addMonths,
  dateKey,
  expiryDate,
  expiryInstant,
  monthDiff,
  shanghaiCivilDate,
  type CivilDate,
} from './calendar';
import { PRODUCTS } from './products';
import {
  EXCHANGE_IDS,
  type ExchangeId,
  type FutureSpec,
  type InstrumentSpec,
  type OptionSpec,
  type OptionType,
  type ProductSpec,
  type StrikeBand,
} from './types';

export type * from './types';
export { EXCHANGE_IDS } from './types';

// ---------------------------------------------------------------------------------------------
// Prices on the tick grid

/** Decimal places of a tick size: 0.2 → 1, 0.005 → 3, 10 → 0. */
export function tickDecimals(tick: number): number {
  const text = String(tick);
  const dot = text.indexOf('.');
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return dot < 0 ? 0 : text.length - dot - 1;
}

function fromTicks(ticks: number, tick: number): number {
  return Number((ticks * tick).toFixed(tickDecimals(tick)));
}

/** The nearest price on the tick grid, without binary noise (roundToTick(4600.1, 0.2) → 4600.2). */
export function roundToTick(price: number, tick: number): number {
  return fromTicks(Math.round(price / tick), tick);
}

/** The highest grid price ≤ price. */
export function floorToTick(price: number, tick: number): number {
  return fromTicks(Math.floor(price / tick + 1e-9), tick);
}

/** The lowest grid price ≥ price. */
export function ceilToTick(price: number, tick: number): number {
  return fromTicks(Math.ceil(price / tick - 1e-9), tick);
}

/**
 * What lots × multiplier count in: the quote unit's denominator ('元/吨' → '吨', '元/克' → '克',
 * '元/桶' → '桶'); null where the multiplier is money per point (index futures, '点') or a face value
 * (bond futures): no physical quantity.
 */
export function quantityUnit(quoteUnit: string): string | null {
  const m = /^元\/(.+)$/.exec(quoteUnit);
  return m ? m[1]! : null;
}

export function isOnTick(price: number, tick: number): boolean {
  const r = price / tick;
  const ticks = Math.round(r);
  // 1e-9 is no tick off 0, but it is not 0 either: stored, it would silently become 0.
  return Math.abs(r - ticks) < 1e-6 && (ticks !== 0 || price === 0);
}

/**
 * Limit-up and limit-down for a trading day: the previous settlement ± the product's limit,
 * rounded inwards to the tick grid.
 */
export function priceLimits(
  preSettlement: number,
  spec: Pick<ProductSpec, 'tick' | 'limitPct'>,
): { upper: number; lower: number } {
  return {
    upper: floorToTick(preSettlement * (1 + spec.limitPct), spec.tick),
    lower: Math.max(spec.tick, ceilToTick(preSettlement * (1 - spec.limitPct), spec.tick)),
  };
}

// ---------------------------------------------------------------------------------------------
// Strike grids

/** The step of the band a strike falls in (band i covers strikes ≤ upTo_i). */
export function strikeStep(strike: number, bands: readonly StrikeBand[]): number {
  for (const band of bands) if (strike <= band.upTo + 1e-9) return band.step;
  return (bands[bands.length - 1] as StrikeBand).step;
}

/** A strike is on the exchange grid when it is a multiple of its band's step. */
export function isOnStrikeGrid(strike: number, bands: readonly StrikeBand[]): boolean {
  return strike > 0 && isOnTick(strike, strikeStep(strike, bands));
}

function cleanStrike(value: number): number {
  return Number(value.toFixed(6));
}

/** The smallest grid strike > k. */
function nextStrike(k: number, bands: readonly StrikeBand[]): number {
  const step = strikeStep(k + 1e-9 * Math.max(1, k), bands);
  return cleanStrike(Math.floor(k / step + 1e-9) * step + step);
}

/** The largest grid strike < k (0 when there is none). */
function previousStrike(k: number, bands: readonly StrikeBand[]): number {
  const step = strikeStep(k - 1e-9 * Math.max(1, k), bands);
  return cleanStrike(Math.max(0, Math.ceil(k / step - 1e-9) * step - step));
}

export const MIN_STRIKES = 20;
export const MAX_STRIKES = 60;
export const STRIKE_RANGE = 0.3;

/**
 * Strikes on the exchange grid within ±30% of `centre`, ascending; widened to at least 20 strikes
 * and trimmed to the 60 nearest the centre (in log-moneyness) where the grid is fine.
 */
export function strikeGrid(centre: number, bands: readonly StrikeBand[]): number[] {
  const lo = centre * (1 - STRIKE_RANGE);
  const hi = centre * (1 + STRIKE_RANGE);
  let k = nextStrike(Math.max(0, lo - 1e-9 * lo), bands);
  const strikes: number[] = [];
  while (k <= hi + 1e-9) {
    strikes.push(k);
    k = nextStrike(k, bands);
  }
  while (strikes.length < MIN_STRIKES) {
    const first = strikes[0] ?? nextStrike(centre, bands);
    const below = previousStrike(first, bands);
    if (below > 0) strikes.unshift(below);
    if (strikes.length < MIN_STRIKES) strikes.push(nextStrike(strikes[strikes.length - 1] ?? first, bands));
  }
  if (strikes.length <= MAX_STRIKES) return strikes;
  const nearest = [...strikes].sort((a, b) => Math.abs(Math.log(a / centre)) - Math.abs(Math.log(b / centre)));
  return nearest.slice(0, MAX_STRIKES).sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Symbols

const COMPACT_OPTIONS: ReadonlySet<ExchangeId> = new Set(['SHFE', 'INE', 'CZCE']);

/** 'cu' + 2026-01 → 'cu2601'; CZCE uses one year digit: 'SR' + 2026-01 → 'SR601'. */
function futureInstrumentId(exchange: ExchangeId, productId: string, y: number, m: number): string {
  const mm = String(m).padStart(2, '0');
  return exchange === 'CZCE' ? `${productId}${y % 10}${mm}` : `${productId}${String(y % 100).padStart(2, '0')}${mm}`;
}

function formatStrike(strike: number): string {
  return String(cleanStrike(strike));
}

function optionInstrumentId(exchange: ExchangeId, contract: string, type: OptionType, strike: number): string {
  const cp = type === 'CALL' ? 'C' : 'P';
  return COMPACT_OPTIONS.has(exchange)
    ? `${contract}${cp}${formatStrike(strike)}`
    : `${contract}-${cp}-${formatStrike(strike)}`;
}

const UPPER_CASE: ReadonlySet<ExchangeId> = new Set(['CZCE', 'CFFEX']);

interface ParsedSymbol {
  exchange: ExchangeId;
  productId: string;
  digits: string;
  option?: { type: OptionType; strike: number };
}

function parseSymbol(symbol: string): ParsedSymbol | undefined {
  const dot = symbol.indexOf('.');
  if (dot < 0) return undefined;
  const exchange = symbol.slice(0, dot) as ExchangeId;
  if (!EXCHANGE_IDS.includes(exchange)) return undefined;
  const rest = symbol.slice(dot + 1);
  const letters = UPPER_CASE.has(exchange) ? '[A-Z]+' : '[a-z]+';
  const digits = exchange === 'CZCE' ? '\\d{3}' : '\\d{4}';
  const strike = '(\\d+(?:\\.\\d+)?)';
  const future = new RegExp(`^(${letters})(${digits})$`).exec(rest);
  if (future) return { exchange, productId: future[1] as string, digits: future[2] as string };
  const option = COMPACT_OPTIONS.has(exchange)
    ? new RegExp(`^(${letters})(${digits})([CP])${strike}$`).exec(rest)
    : new RegExp(`^(${letters})(${digits})-([CP])-${strike}$`).exec(rest);
  if (!option) return undefined;
  return {
    exchange,
    productId: option[1] as string,
    digits: option[2] as string,
    option: { type: option[3] === 'C' ? 'CALL' : 'PUT', strike: Number(option[4]) },
  };
}

/** Year and month of a contract code: '2601' → 2026-01; CZCE '601' → the 2020s year nearest to asOf. */
function contractMonth(digits: string, asOf: CivilDate): { y: number; m: number } | undefined {
  const m = Number(digits.slice(-2));
  if (m < 1 || m > 12) return undefined;
  if (digits.length === 4) return { y: 2000 + Number(digits.slice(0, 2)), m };
  const digit = Number(digits[0]);
  // A 3-digit CZCE code names a year from one year back to eight years ahead of asOf.
  let y = asOf.y - 1 - ((asOf.y - 1) % 10) + digit;
  if (y < asOf.y - 1) y += 10;
  return { y, m };
}

// ---------------------------------------------------------------------------------------------
// The catalogue

function compareDates(a: CivilDate, b: CivilDate): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

/** Listing rule months: a month that can ever be listed for the product. */
function isListableMonth(product: ProductSpec, m: number): boolean {
  const rule = product.listing;
  return rule.kind === 'monthly' ? rule.months.includes(m) : true;
}

export class Catalogue {
  private readonly products: readonly ProductSpec[];
  private readonly byKey = new Map<string, ProductSpec>();
  private readonly byOptionKey = new Map<string, ProductSpec>();

  constructor(products: readonly ProductSpec[] = PRODUCTS) {
    this.products = products;
    for (const p of products) {
      this.byKey.set(`${p.exchange}.${p.id}`, p);
      if (p.option) this.byOptionKey.set(`${p.exchange}.${p.option.id}`, p);
    }
  }

  listExchanges(): ExchangeId[] {
    return EXCHANGE_IDS.filter((ex) => this.products.some((p) => p.exchange === ex));
  }

  listProducts(exchangeId: string): ProductSpec[] {
    return this.products.filter((p) => p.exchange === exchangeId);
  }

  allProducts(): readonly ProductSpec[] {
    return this.products;
  }

  getProduct(exchangeId: string, productId: string): ProductSpec | undefined {
    return this.byKey.get(`${exchangeId}.${productId}`);
  }

  /** The futures product an instrument belongs to (for an option: its underlying's product). */
  productOf(instrument: InstrumentSpec): ProductSpec {
    const product =
      instrument.kind === 'future'
        ? this.byKey.get(`${instrument.exchange}.${instrument.productId}`)
        : this.byOptionKey.get(`${instrument.exchange}.${instrument.productId}`);
    if (!product) throw new Error(`no product for ${instrument.symbol}`);
    return product;
  }

  /** The contract months of a product listed on `asOf`, nearest first. */
  private listedMonths(product: ProductSpec, asOf: CivilDate): { y: number; m: number }[] {
    const alive = (c: { y: number; m: number }) =>
      compareDates(expiryDate(product.expiry, c.y, c.m, product.exchange), asOf) >= 0;
    const ahead = (i: number) => addMonths(asOf.y, asOf.m, i);
    const out: { y: number; m: number }[] = [];
    const rule = product.listing;
    switch (rule.kind) {
      case 'monthly':
        for (let i = 0; out.length < rule.count && i < 120; i++) {
          const c = ahead(i);
          if (rule.months.includes(c.m) && alive(c)) out.push(c);
        }
        break;
      case 'nearPlus': {
        let near = 0;
        for (let i = 0; i <= Math.max(rule.horizon, 24); i++) {
          const c = ahead(i);
          if (!alive(c)) continue;
          if (near < rule.consecutive) {
            near++;
            out.push(c);
          } else if (i <= rule.horizon && rule.months.includes(c.m)) out.push(c);
        }
        break;
      }
      case 'cffexIndex': {
        let i = 0;
        while (!alive(ahead(i))) i++;
        out.push(ahead(i), ahead(i + 1));
        for (let j = i + 2; out.length < 4; j++) if (ahead(j).m % 3 === 0) out.push(ahead(j));
        break;
      }
    }
    return out;
  }

  private makeFuture(product: ProductSpec, y: number, m: number, asOf: CivilDate): FutureSpec {
    const instrumentId = futureInstrumentId(product.exchange, product.id, y, m);
    const expiry = expiryDate(product.expiry, y, m, product.exchange);
    const monthsOut = Math.max(0, monthDiff(asOf.y, asOf.m, y, m));
    return {
      kind: 'future',
      symbol: `${product.exchange}.${instrumentId}`,
      exchange: product.exchange,
      instrumentId,
      productId: product.id,
      name: `${product.name}${instrumentId.slice(product.id.length)}`,
      tick: product.tick,
      multiplier: product.multiplier,
      expiry: dateKey(expiry),
      expiryMs: expiryInstant(expiry),
      year: y,
      month: m,
      refPrice: roundToTick(product.refPrice * (1 + (product.carry * monthsOut) / 12), product.tick),
      hasOptions: product.option !== undefined,
    };
  }

  /** Futures of a product listed on `asOf` (default now), nearest first. Unknown product → []. */
  listFutures(exchangeId: string, productId: string, asOf: Date = new Date()): FutureSpec[] {
    const product = this.getProduct(exchangeId, productId);
    if (!product) return [];
    const date = shanghaiCivilDate(asOf);
    return this.listedMonths(product, date).map((c) => this.makeFuture(product, c.y, c.m, date));
  }

  /** Every listed future of every product (or of one exchange). */
  listAllFutures(asOf: Date = new Date(), exchangeId?: string): FutureSpec[] {
    const products = exchangeId === undefined ? this.products : this.listProducts(exchangeId);
    return products.flatMap((p) => this.listFutures(p.exchange, p.id, asOf));
  }

  /** Listed futures that have a live (unexpired) option chain, optionally of one exchange/product. */
  futuresWithOptions(exchangeId?: string, productId?: string, asOf: Date = new Date()): FutureSpec[] {
    const products = this.products.filter(
      (p) =>
        p.option !== undefined &&
        (exchangeId === undefined || p.exchange === exchangeId) &&
        (productId === undefined || p.id === productId),
    );
    return products.flatMap((p) =>
      this.listFutures(p.exchange, p.id, asOf).filter((f, index) => this.chainIsLive(p, f, index, asOf)),
    );
  }

  /** Until the options' last trading day closes (15:00 Beijing): on that afternoon the chain has no prices any more. */
  private chainIsLive(product: ProductSpec, future: FutureSpec, index: number, asOf: Date): boolean {
    const opt = product.option;
    if (!opt) return false;
    if (opt.maxChains !== undefined && index >= opt.maxChains) return false;
    return asOf.getTime() < expiryInstant(expiryDate(opt.expiry, future.year, future.month, product.exchange));
  }

  /** Strike bands of a future's options (CFFEX: wider bands beyond the three nearest months). */
  strikeBands(
    product: ProductSpec,
    future: Pick<FutureSpec, 'year' | 'month'>,
    asOf: CivilDate,
  ): readonly StrikeBand[] {
    const opt = product.option;
    if (!opt) return [];
    if (opt.farStrikeBands && opt.nearMonths !== undefined) {
      if (monthDiff(asOf.y, asOf.m, future.year, future.month) >= opt.nearMonths) return opt.farStrikeBands;
    }
    return opt.strikeBands;
  }

  /**
   * The option chain on a listed future on `asOf`: for each strike (ascending) a call then a put.
   * Strikes cover ±30% of `centre` (default: the contract's reference price) on the exchange's grid.
   * [] when the product has no options, the future is not listed, or its options have expired.
   */
  optionChain(futureSymbol: string, asOf: Date = new Date(), centre?: number): OptionSpec[] {
    const found = this.findInstrument(futureSymbol, asOf);
    if (!found || found.kind !== 'future') return [];
    const product = this.productOf(found);
    const opt = product.option;
    if (!opt) return [];
    const date = shanghaiCivilDate(asOf);
    const listed = this.listFutures(product.exchange, product.id, asOf);
    const index = listed.findIndex((f) => f.symbol === futureSymbol);
    const future = listed[index];
    if (!future || !this.chainIsLive(product, future, index, asOf)) return [];
    const strikes = strikeGrid(centre ?? future.refPrice, this.strikeBands(product, future, date));
    const out: OptionSpec[] = [];
    for (const strike of strikes) {
      out.push(this.makeOption(product, future, 'CALL', strike), this.makeOption(product, future, 'PUT', strike));
    }
    return out;
  }

  private makeOption(product: ProductSpec, future: FutureSpec, type: OptionType, strike: number): OptionSpec {
    const opt = product.option as NonNullable<ProductSpec['option']>;
    const contract = futureInstrumentId(product.exchange, opt.id, future.year, future.month);
    const instrumentId = optionInstrumentId(product.exchange, contract, type, strike);
    const expiry = expiryDate(opt.expiry, future.year, future.month, product.exchange);
    return {
      kind: 'option',
      symbol: `${product.exchange}.${instrumentId}`,
      exchange: product.exchange,
      instrumentId,
      productId: opt.id,
      name: `${opt.name}${contract.slice(opt.id.length)}${type === 'CALL' ? '购' : '沽'}${formatStrike(strike)}`,
      tick: opt.tick,
      multiplier: opt.multiplier,
      expiry: dateKey(expiry),
      expiryMs: expiryInstant(expiry),
      underlying: future.symbol,
      optionType: type,
      strike,
      style: opt.style,
    };
  }

  /**
   * Parses a TqSdk symbol of a known product: a future of a listable month, or an option whose strike
   * lies on the exchange grid. The contract need not be listed on `asOf`, which only resolves CZCE's
   * one-digit years and the contract's reference price.
   */
  findInstrument(symbol: string, asOf: Date = new Date()): InstrumentSpec | undefined {
    const parsed = parseSymbol(symbol);
    if (!parsed) return undefined;
    const date = shanghaiCivilDate(asOf);
    const month = contractMonth(parsed.digits, date);
    if (!month) return undefined;
    if (!parsed.option) {
      const product = this.getProduct(parsed.exchange, parsed.productId);
      if (!product || !isListableMonth(product, month.m)) return undefined;
      return this.makeFuture(product, month.y, month.m, date);
    }
    const product = this.byOptionKey.get(`${parsed.exchange}.${parsed.productId}`);
    const opt = product?.option;
    if (!product || !opt || !isListableMonth(product, month.m)) return undefined;
    const { strike, type } = parsed.option;
    const onGrid =
      isOnStrikeGrid(strike, opt.strikeBands) || (!!opt.farStrikeBands && isOnStrikeGrid(strike, opt.farStrikeBands));
    if (!onGrid) return undefined;
    const future = this.makeFuture(product, month.y, month.m, date);
    return this.makeOption(product, future, type, strike);
  }
}

/** The catalogue of real products used by the server. */
export const catalogue = new Catalogue();

export function listExchanges(): ExchangeId[] {
  return catalogue.listExchanges();
}

export function listProducts(exchangeId: string): ProductSpec[] {
  return catalogue.listProducts(exchangeId);
}

export function listFutures(exchangeId: string, productId: string, asOf?: Date): FutureSpec[] {
  return catalogue.listFutures(exchangeId, productId, asOf);
}

export function futuresWithOptions(exchangeId?: string, productId?: string, asOf?: Date): FutureSpec[] {
  return catalogue.futuresWithOptions(exchangeId, productId, asOf);
}

export function optionChain(futureSymbol: string, asOf?: Date, centre?: number): OptionSpec[] {
  return catalogue.optionChain(futureSymbol, asOf, centre);
}

export function findInstrument(symbol: string, asOf?: Date): InstrumentSpec | undefined {
  return catalogue.findInstrument(symbol, asOf);
}

/** The product an instrument belongs to (its sessions, name, exchange). */
export function productOfInstrument(instrument: InstrumentSpec): ProductSpec {
  return catalogue.productOf(instrument);
}
