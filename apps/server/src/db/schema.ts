import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp column with a default: optional on insert. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric columns come back as JS numbers (see the type parsers in database.ts). */
type Numeric = ColumnType<number, number | string, number | string>;
type DefaultNumeric = ColumnType<number, number | string | undefined, number | string>;

export type ContractStatus = 'active' | 'paused' | 'expired' | 'completed';
export type PricerStatus = 'active' | 'inactive' | 'pending';
export type OrderStatus = 'PENDING' | 'ALIVE' | 'FINISHED' | 'CANCELLED';
export type Direction = 'BUY' | 'SELL';

export interface TenantTable {
  id: Generated<number>;
  owner_sub: string;
  company_name: string;
  is_sim: boolean;
  broker_name: string | null;
  futures_account: string | null;
  /** AES-256-GCM ciphertext, never returned by any call. */
  futures_password_enc: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PricerUserTable {
  id: Generated<number>;
  tenant_id: number;
  username: string;
  password_hash: string;
  phone: string | null;
  status: PricerStatus;
  created_at: DefaultTimestamp;
  last_login_at: Timestamp | null;
}

export interface ProductTable {
  id: Generated<number>;
  exchange_id: string;
  product_id: string;
  name: string;
}

export interface InstrumentTable {
  symbol: string;
  name: string;
  exchange_id: string;
  product_id: string;
  product_name: string;
  price_tick: Numeric;
  volume_multiple: number;
  expired: Generated<boolean>;
}

export interface ContractTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  pricer_id: number;
  product_name: string;
  instrument_id: string;
  direction: Direction;
  total_quantity: number;
  executed_quantity: Generated<number>;
  frozen_quantity: Generated<number>;
  remaining_quantity: number;
  avg_price: DefaultNumeric;
  status: ContractStatus;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface OrderTable {
  id: Generated<number>;
  tenant_id: number;
  contract_id: number;
  pricer_id: number;
  instrument_id: string;
  direction: Direction;
  volume_orign: number;
  volume_traded: Generated<number>;
  /** 0 = market order. */
  limit_price: Numeric;
  trade_price: DefaultNumeric;
  status: OrderStatus;
  last_msg: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface TradeTable {
  id: Generated<number>;
  tenant_id: number;
  order_id: number;
  trade_id: string;
  volume: number;
  price: Numeric;
  created_at: DefaultTimestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  tenant_id: number | null;
  actor: string;
  action: string;
  payload: ColumnType<unknown, string, string>;
  created_at: DefaultTimestamp;
}

/** Read-only relations the database views query (see migrations). */
export interface OrderViewRow {
  id: number;
  tenant_id: number;
  contract_id: number;
  pricer_id: number;
  pricer_name: string;
  contract_name: string;
  instrument_id: string;
  direction: Direction;
  volume_orign: number;
  volume_traded: string;
  limit_price: number;
  trade_price: number;
  trade_amount: number;
  status: OrderStatus;
  status_str: string;
  last_msg: string;
  created_at: Date;
}

export interface ContractViewRow extends Omit<
  ContractTable,
  'id' | 'executed_quantity' | 'frozen_quantity' | 'avg_price' | 'created_at' | 'updated_at'
> {
  id: number;
  executed_quantity: number;
  frozen_quantity: number;
  avg_price: number;
  pricer_name: string;
  created_at: Date;
}

export interface DB {
  tenants: TenantTable;
  pricer_users: PricerUserTable;
  products: ProductTable;
  instruments: InstrumentTable;
  contracts: ContractTable;
  orders: OrderTable;
  trades: TradeTable;
  audit_log: AuditLogTable;
  v_orders: OrderViewRow;
  v_contracts: ContractViewRow;
  v_instruments: Omit<InstrumentTable, 'product_id' | 'expired'>;
}
