/**
 * A level-1 quote, with TqSdk's (the DIFF protocol's) field names: the one shape of a quote on the
 * server. The simulated exchange (market/) makes them, a DIFF feed (diff/marketData.ts) reads them off
 * the wire, trading reads what it needs of them (trading/quotes.ts). A missing price is null from the
 * simulated exchange and NaN from DIFF (a field not sent, or sent as '-'): readers treat both as absent.
 */
export interface Quote {
  /** Exchange-qualified symbol, e.g. 'SHFE.cu2601'. */
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
  /**
   * Today's settlement price, published by the exchange after the close (DIFF; NaN before). The
   * simulated exchange leaves it out: it publishes its settlement prices itself (settlementPrices).
   */
  settlement?: number;
  /** Exchange time of the last change, Beijing time: 'YYYY-MM-DD HH:MM:SS.ffffff' ('' when DIFF sent none). */
  datetime: string;
  /**
   * Not TqSdk's: when the trade that set `last_price` happened (epoch ms) and the underlying future's
   * price then. The simulated exchange fills them; a feed that does not leaves them out, and a reader
   * that needs them observes trades itself. Absent while `last_price` is a settlement, not a trade.
   */
  last_trade_ms?: number;
  last_trade_underlying?: number;
}

/** What a market-data source knows of an instrument now: any field may be missing or null (undefined: nothing yet). */
export type QuoteOf = (symbol: string) => { [K in keyof Quote]?: Quote[K] | null } | undefined;
