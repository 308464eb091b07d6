import type { ColumnType, Generated } from 'kysely';
import type { Direction } from '@pfp/contract';
import type { DefaultTimestamp, Numeric, Timestamp } from './columns';

/** The trading tables' rows (part of schema.ts's DB; docs/trading.md). */

// ---- Trading (migration 003): the outbox record and the simulated broker's books -------------------

export type SimOrderStatus = 'ALIVE' | 'FILLED' | 'CANCELLED' | 'REJECTED';

export interface SimOrderTable {
  tenant_id: number;
  order_ref: string;
  symbol: string;
  direction: Direction;
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

/** Which gateway an order was handed to, and what is owed to it (docs/trading.md). */
export interface OrderDispatchTable {
  order_id: number;
  tenant_id: number;
  gateway_key: string;
  sent_at: DefaultTimestamp;
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  cancel_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Why we cancel it ourselves (migration 006: the fixing deadline); the order ends with this message. */
  cancel_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Lots filled after a pause or 停用 had asked the broker to cancel (migration 011). */
  late_fill_volume: ColumnType<number, number | undefined, number>;
}
