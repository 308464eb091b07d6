import type { Quote } from '../platform/quote';

/** Whether two quotes show the same market (the time fields aside). */
export function sameQuote(a: Quote, b: Quote): boolean {
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

/**
 * The price options on this future are valued against: the mid when both sides quote, else the one
 * side left (at a price limit), else the last price. Missing prices may be null or NaN (DIFF).
 */
export function forwardPrice(q: Quote | undefined): number | undefined {
  if (!q) return undefined;
  const bid = q.bid_price1 !== null && q.bid_price1 > 0 ? q.bid_price1 : undefined;
  const ask = q.ask_price1 !== null && q.ask_price1 > 0 ? q.ask_price1 : undefined;
  if (bid !== undefined && ask !== undefined) return (bid + ask) / 2;
  const one = bid ?? ask ?? q.last_price;
  return one > 0 ? one : undefined;
}
