import type { ColumnType, Generated, Kysely } from 'kysely';
import type { DB } from '../db/schema';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Numeric = ColumnType<number, number | string, number | string>;

export type SimOrderStatus = 'ALIVE' | 'FILLED' | 'CANCELLED' | 'REJECTED';

/** Tables of migration 003 (merge into DB in db/schema.ts if you like). */
export interface SimOrderTable {
  tenant_id: number;
  order_ref: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  offset_flag: 'OPEN' | 'CLOSE';
  price_type: 'LIMIT' | 'MARKET';
  limit_price: Numeric;
  volume_orign: number;
  volume_traded: number;
  status: SimOrderStatus;
  last_msg: string;
  seq: Generated<number>;
  expires_at: Timestamp;
  inserted_at: Timestamp;
  updated_at: Timestamp;
}

export interface SimTradeTable {
  trade_id: string;
  tenant_id: number;
  order_ref: string;
  volume: number;
  price: Numeric;
  traded_at: Timestamp;
}

export interface OrderDispatchTable {
  order_id: number;
  tenant_id: number;
  gateway_key: string;
  sent_at: ColumnType<Date, Date | string | undefined, Date | string>;
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  cancel_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface TradingTables {
  sim_orders: SimOrderTable;
  sim_trades: SimTradeTable;
  order_dispatch: OrderDispatchTable;
}

export type TradingDB = DB & TradingTables;

/** The application database seen with the trading tables. */
export function tradingDb(db: Kysely<DB>): Kysely<TradingDB> {
  return db as unknown as Kysely<TradingDB>;
}

/** Minimal pino-compatible logger (Fastify's app.log fits). */
export interface TradingLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: TradingLogger = { info() {}, warn() {}, error() {} };
