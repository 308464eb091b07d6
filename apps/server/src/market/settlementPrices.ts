import { addTradingDays, exchangeOfSymbol, isTradingDay } from '@pfp/contract';
import type { Quote } from '../platform/quote';

/**
 * A future's settlement price of one trading day, as a market publishes it (docs/fixing.md 均价依据):
 * the simulated exchange's (`sim`) or read off a DIFF quote (`diff`). Stored in settlement_prices.
 */
export interface SettlementPrice {
  instrument_id: string;
  price: number;
  /** The day's volume in lots when known (0 otherwise). */
  volume: number;
  source: 'sim' | 'diff';
}

/** The day session's close (Beijing): no exchange publishes a settlement price before it. */
const CLOSE_HOUR = 15;
/**
 * Until this hour (Beijing) a quote stamped on a trading day is that day's: after it the night session's
 * auction (20:55) may already carry the next trading day, and DCE stamps its night with the next day's date.
 */
const EVENING_HOUR = 20;
/** From this hour a quote is of the day session (the morning auction opens at 08:55). */
const MORNING_HOUR = 8;

const positive = (x: number | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/**
 * The settlement price of `day` a DIFF quote (TqSdk's `quotes[symbol]`) tells, or undefined. A price is
 * attributed to a trading day only when the quote's `datetime` (the exchange's Beijing time of the
 * snapshot) names that day without doubt:
 * - `settlement` (today's, empty until the exchange publishes it after the close) counts for the day of a
 *   quote stamped between 15:00 and 20:00 of a trading day. Stamped in the session, it is a value the
 *   feed did not reset (yesterday's), not today's.
 * - `pre_settlement` (the previous trading day's) counts for the trading day before a quote stamped
 *   between 08:00 and 20:00 of a trading day: a server that missed the evening finds the price the next
 *   morning.
 * - A quote stamped in the night (20:00–08:00), on a day that is no trading day, or without a datetime
 *   tells nothing: its trading day is ambiguous (before or after the feed's rollover), and a price for
 *   the wrong day would fix a customer's lots at it.
 */
export function diffSettlement(
  quote: Pick<Quote, 'symbol' | 'datetime' | 'volume' | 'pre_settlement' | 'settlement'>,
  day: string,
): SettlementPrice | undefined {
  const stamp = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):/.exec(quote.datetime);
  if (!stamp) return undefined;
  const [, date = '', hourText = ''] = stamp;
  const hour = Number(hourText);
  const exchange = exchangeOfSymbol(quote.symbol) ?? 'SHFE';
  if (hour < MORNING_HOUR || hour >= EVENING_HOUR || !isTradingDay(exchange, date)) return undefined;
  if (date === day && hour >= CLOSE_HOUR && positive(quote.settlement))
    return { instrument_id: quote.symbol, price: quote.settlement, volume: volumeOf(quote.volume), source: 'diff' };
  if (addTradingDays(exchange, date, -1) === day && positive(quote.pre_settlement))
    return { instrument_id: quote.symbol, price: quote.pre_settlement, volume: 0, source: 'diff' };
  return undefined;
}

const volumeOf = (v: number) => (Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
