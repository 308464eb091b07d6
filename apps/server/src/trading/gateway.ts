/**
 * What the order router needs of a broker connection. The built-in simulated broker and the
 * DIFF trade gateway (open-trade-gateway / TqSdk protocol) both implement it.
 *
 * Orders are identified by OUR order id (orders.id as a string), sent to the broker as the
 * client order reference, so that after a crash every open order is found again by that id.
 *
 * Contract between a gateway and the router (the router relies on every point):
 * - Events of ONE order are emitted in the order they happened: `accepted` before its trades,
 *   every trade before the `cancelled` / `rejected` that ends the order.
 * - A trade id is unique per order and stable: the same fill reported twice carries the same id.
 * - An order that is completely filled gets no further event: the router sees volume_traded
 *   reach the order's volume. `cancelled` means "the unfilled rest is dead".
 * - Events may be repeated (replays, reconnects); the router applies each one at most once.
 */
export type Direction = 'BUY' | 'SELL';

export interface GatewayOrder {
  orderId: string;
  symbol: string; // exchange-qualified, e.g. SHFE.cu2601
  direction: Direction;
  offset: 'OPEN' | 'CLOSE';
  volume: number;
  /** MARKET: FAK at the best opposite price (or the limit price for exchanges without market orders). */
  priceType: 'LIMIT' | 'MARKET';
  /** 0 for MARKET. */
  limitPrice: number;
}

export type GatewayEvent =
  | { type: 'accepted'; orderId: string; exchangeOrderId?: string }
  /** The broker or exchange refused the order; nothing was filled. `message` is shown to users (Chinese). */
  | { type: 'rejected'; orderId: string; message: string }
  | { type: 'trade'; orderId: string; tradeId: string; volume: number; price: number; at: Date }
  /** The unfilled rest of the order is dead (cancel, FAK remainder, expiry). */
  | { type: 'cancelled'; orderId: string; message: string }
  | { type: 'status'; status: GatewayStatus };

export interface GatewayStatus {
  status: 'ok' | 'error';
  message?: string;
}

/** The broker's view of one order, for reconciliation after a restart. */
export interface GatewayOrderState {
  /**
   * false = the broker has never seen this order. Must be authoritative: a gateway answers only
   * once it has its complete view of the account (after login and the first full snapshot), and
   * throws while it cannot tell.
   */
  known: boolean;
  /** ALIVE = still working; FINISHED = dead (filled, cancelled, expired or rejected: see volumeTraded). */
  status?: 'ALIVE' | 'FINISHED';
  volumeTraded: number;
  /** Every fill of the order so far, in order. */
  trades: { tradeId: string; volume: number; price: number; at: Date }[];
  /** Why a FINISHED order ended with volumeTraded < volume (cancel/reject reason, Chinese). */
  message?: string;
}

export interface TradingGateway {
  connect(): Promise<void>;
  close(): Promise<void>;
  status(): GatewayStatus;
  /**
   * Idempotent by orderId: sending an order the broker already has does not duplicate it (the
   * broker may answer by repeating the order's events). Throws when the order could not be handed
   * over (e.g. disconnected); the router retries later.
   */
  insertOrder(order: GatewayOrder): Promise<void>;
  /** The result arrives as a `cancelled` event (or trades, if the order filled first). */
  cancelOrder(orderId: string): Promise<void>;
  queryOrder(orderId: string): Promise<GatewayOrderState>;
  onEvent(listener: (event: GatewayEvent) => void): () => void;
  /** The account's positions per symbol (the exposure page's hedge); undefined while it cannot tell. */
  positions?(): { instrument_id: string; long: number; short: number }[] | undefined;
}

/** Runs a piece of database work of the routers and brokers (TradingServiceOptions.dbConcurrency). */
export type Lane = <T>(fn: () => Promise<T>) => Promise<T>;
