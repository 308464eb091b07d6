/** Types of the instrument catalogue (ARCHITECTURE §6). Symbols are spelled as in TqSdk. */

export type ExchangeId = 'SHFE' | 'DCE' | 'CZCE' | 'CFFEX' | 'INE' | 'GFEX';

export const EXCHANGE_IDS: readonly ExchangeId[] = ['SHFE', 'DCE', 'CZCE', 'CFFEX', 'INE', 'GFEX'];

/** 'A' = American (exercise on any trading day), 'E' = European (on the expiry day only). */
export type ExerciseStyle = 'A' | 'E';

export type OptionType = 'CALL' | 'PUT';

/** A trading session in Asia/Shanghai wall-clock time, 'HH:MM'. `end < start` crosses midnight. */
export interface Session {
  start: string;
  end: string;
}

/** Strike interval `step` for strikes ≤ `upTo` (the last band has `upTo: Infinity`). */
export interface StrikeBand {
  upTo: number;
  step: number;
}

/**
 * Which contract months are listed on a date.
 * - `monthly`: the next `count` unexpired contracts whose month is in `months`
 *   (e.g. DCE m: months 1,3,5,7,8,9,11,12 → 8 contracts).
 * - `nearPlus`: the nearest `consecutive` unexpired months, plus unexpired months in `months`
 *   no more than `horizon` months after the current month (SHFE au: 3 consecutive + even months ≤ 12 ahead).
 * - `cffexIndex`: current month, next month and the next two quarterly months (CFFEX stock-index futures).
 */
export type ListingRule =
  | { kind: 'monthly'; months: readonly number[]; count: number }
  | { kind: 'nearPlus'; consecutive: number; months: readonly number[]; horizon: number }
  | { kind: 'cffexIndex' };

/**
 * Last trading day of a contract with delivery (or contract) month M.
 * - `dayOfMonth`: calendar day `day` of month M + `monthOffset`, rolled forward to a trading day (SHFE: the 15th).
 * - `nthTradingDay`: the n-th trading day of month M + `monthOffset`; n < 0 counts from the month's end
 *   (-1 = last trading day, -5 = fifth-to-last).
 * - `nthWeekday`: the n-th given weekday (0 = Sunday … 6 = Saturday) of month M; n < 0 from the end.
 */
export type ExpiryRule =
  | { kind: 'dayOfMonth'; day: number; monthOffset: number }
  | { kind: 'nthTradingDay'; n: number; monthOffset: number }
  | { kind: 'nthWeekday'; n: number; weekday: number; monthOffset: number };

export interface OptionProductSpec {
  /** Option product id as in the option symbol: 'cu' for SHFE.cu2601C80000, 'IO' for CFFEX.IO2601-C-4000. */
  id: string;
  /** Chinese name, e.g. '铜期权', '沪深300股指期权'. */
  name: string;
  style: ExerciseStyle;
  /** Why the style is what it is (listing rules, approximations). */
  styleNote: string;
  tick: number;
  multiplier: number;
  strikeBands: readonly StrikeBand[];
  /** CFFEX index options: wider bands for contracts more than `nearMonths` months out (the quarterly ones). */
  farStrikeBands?: readonly StrikeBand[];
  nearMonths?: number;
  expiry: ExpiryRule;
  /** Options exist only on the first `maxChains` listed futures (absent = on every listed future). */
  maxChains?: number;
  /** Smile of the simulation: iv = atm·(1 + skew·x + curvature·x²), x = ln(K/F) / (atm·√T). */
  skew: number;
  curvature: number;
}

export interface ProductSpec {
  exchange: ExchangeId;
  /** TqSdk case: lowercase for SHFE/DCE/INE/GFEX, uppercase for CZCE/CFFEX. */
  id: string;
  /** Chinese name, identical to @pfp/i18n PRODUCT_NAMES. */
  name: string;
  /** Quote unit, e.g. '元/吨'. */
  unit: string;
  tick: number;
  multiplier: number;
  listing: ListingRule;
  expiry: ExpiryRule;
  daySessions: readonly Session[];
  nightSession: Session | null;
  /** Normal daily price limit as a fraction of the previous settlement (0.07 = ±7%); exchanges adjust it. */
  limitPct: number;
  /** Realistic price level of the nearest contracts for the simulation (late 2025). */
  refPrice: number;
  /** Annualised volatility of the simulated futures price. */
  vol: number;
  /** Annual carry of the simulated futures curve: contract i months out is priced refPrice·(1 + carry·i/12). */
  carry: number;
  option?: OptionProductSpec;
}

interface InstrumentBase {
  /** Exchange-qualified TqSdk symbol, e.g. 'SHFE.cu2601'. */
  symbol: string;
  exchange: ExchangeId;
  /** Symbol without the exchange, e.g. 'cu2601'. */
  instrumentId: string;
  /** Product id of the instrument (the option product id for options: 'IO', not 'IF'). */
  productId: string;
  name: string;
  tick: number;
  multiplier: number;
  /** Last trading day (Asia/Shanghai calendar date), 'YYYY-MM-DD'. */
  expiry: string;
  /** Expiry instant: 15:00 Shanghai on the last trading day, epoch ms. */
  expiryMs: number;
}

export interface FutureSpec extends InstrumentBase {
  kind: 'future';
  /** Delivery (contract) year and month. */
  year: number;
  month: number;
  /** Reference price of this contract for the simulation (product level plus carry). */
  refPrice: number;
  /** Whether the product has listed options (the chain may still be empty once the options expired). */
  hasOptions: boolean;
}

export interface OptionSpec extends InstrumentBase {
  kind: 'option';
  /** Symbol of the underlying future (CFFEX index options: the same-month index future, see README). */
  underlying: string;
  optionType: OptionType;
  strike: number;
  style: ExerciseStyle;
}

export type InstrumentSpec = FutureSpec | OptionSpec;
