/** The customer calls' data (SPEC §3 customer entities, as apps/server/src/pricer/routes.ts answers them). */

export type Direction = 'BUY' | 'SELL';
export type OrderStatus = 'PENDING' | 'ALIVE' | 'FINISHED' | 'CANCELLED';

export interface PricerContract {
  id: number;
  name: string;
  product_name: string;
  instrument_id: string;
  instrument_name: string;
  /** Minimum price increment of the instrument. */
  price_tick: number;
  direction: Direction;
  total_quantity: number;
  remaining_quantity: number;
  executed_quantity: number;
  frozen_quantity: number;
  avg_price: number;
  status: string;
  created_at: string;
}

export interface PricerOrder {
  id: number;
  contract_id: number;
  contract_name: string;
  instrument_id: string;
  direction: Direction;
  /** Ordered lots (the spec's spelling). */
  volume_orign: number;
  /** Traded lots, a number as a string. */
  volume_traded: string | number;
  /** 0 = market order. */
  limit_price: number;
  /** Average fill price; 0 before the first fill. */
  trade_price: number;
  status: OrderStatus | (string & {});
  /** The server's Chinese status label. */
  status_str?: string;
  last_msg: string | null;
  created_at: string;
}

export interface Snapshot {
  contracts: PricerContract[];
  orders: PricerOrder[];
  timestamp: string;
  market_data: Record<string, { last_price: number | null } | undefined>;
}

export interface LoginAnswer {
  jwt_token: string;
  user_id: number;
  username: string;
  tenant_id: number;
  company_name: string;
}

export interface Page<T> {
  items: T[];
  total_count: number;
}

/** SPEC §3 order form: price 0 = market order. */
export interface OrderRequest {
  contract_id: number;
  quantity: number;
  price: number;
}

/** SPEC §3 history filter; empty strings mean "no condition". */
export interface HistoryFilter {
  start_date: string;
  end_date: string;
  contract_id: string;
  status: string;
}

/** One group of the history summary query: the orders with the same traded volume. */
export interface TradedGroup {
  volume_traded: string | number;
  count_id: number;
  sum_volume_orign: number;
}
