import type { ColumnType, Generated } from 'kysely';
import type { DefaultNumeric, DefaultTimestamp, Numeric, Timestamp } from './columns';
import type { AuthorisedPricerTable } from './authorisedPricerTables';
import type { AgreementAcceptanceTable, AgreementSignatureTable, AgreementTemplateTable } from './agreementTables';
import type { LoginFailureTable, OidcKeyTable, OidcPayloadTable, TraderTable } from './identityTables';
import type { FundsLedgerTable, FundsLedgerViewRow, PricerAccountTable, ProductMarginRateTable } from './marginTables';
import type { ApprovalRequestTable, StaffTable } from './staffTables';
import type {
  AverageFixingTable,
  ContractEventTable,
  RollApplicationTable,
  RollApplicationViewRow,
  SettlementPriceTable,
} from './lifecycleTables';
import type { NotificationTable, TenantWebhookTable, WebhookDeliveryTable } from './notificationTables';
import type { OrderDispatchTable, SimOrderTable, SimTradeTable } from './tradingTables';
import type { FeeReceivableTable, StatementResponseTable } from './statementTables';
import type { ConditionalViewRow, ConfirmationViewRow, OrderViewRow } from './viewRows';

import type { ConditionalStatus, ContractStatus, Direction, OrderStatus, PricerStatus, TriggerOp } from '@pfp/contract';

export type { ContractStatus, Direction, OrderStatus, PricerStatus };
export type { LoginFailureTable, OidcKeyTable, OidcPayloadTable, TraderTable };
// The row types kept in sibling files, by what they hold: importable from here as before.
export type * from './marginTables';
export type * from './staffTables';
export type * from './lifecycleTables';
export type * from './notificationTables';
export type * from './tradingTables';
export type * from './statementTables';
export type * from './viewRows';

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
  /** The margin rate of contracts created without one, 0 … 1 (migration 012, docs/margin.md). */
  default_margin_rate: DefaultNumeric;
  /** Which calls need a second person (migration 027, docs/roles.md); null: the default policy. */
  approval_policy: ColumnType<unknown, unknown, unknown> | null;
  /** The auto rule pricing 转月 applications (migration 032, docs/roles.md); null: off. */
  roll_auto_pricing: ColumnType<unknown, unknown, unknown> | null;
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
  /** In every customer token; bumped when the password is reset (migration 006). */
  token_version: Generated<number>;
  /** 客户全称 and 联系人 (migration 014): the legal identity a confirmation prints. */
  full_name: string | null;
  contact_name: string | null;
  /** The desk's confirm sheet before every fix (migration 014, default on). */
  confirm_before_fix: Generated<boolean>;
  /** The customer's own margin rate over the company's, 0 … 1; null: the company's (migration 023). */
  margin_rate: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** What lots × multiplier count in (吨, 克, 桶 …); null for index and bond futures (migration 013). */
  unit: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Σ price × volume of the contract's fills: avg_price = traded_amount / executed_quantity (migration 008). */
  traded_amount: DefaultNumeric;
  status: ContractStatus;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** 基差, 元 per unit of the goods, up to 2 decimals, not on the futures tick (migration 006, issue 29). */
  basis: DefaultNumeric;
  /** 点价截止日 'YYYY-MM-DD' (Asia/Shanghai); null only for contracts from before migration 006. */
  fixing_deadline: string | null;
  /** 保证金比例 0 … 1, immutable (migration 012, docs/margin.md). */
  margin_rate: DefaultNumeric;
  /** Fixed lots delivered / settled, ≤ executed_quantity (migration 012). */
  settled_quantity: Generated<number>;
  /** 点价方式: by hand / 条件单, or 均价点价 fixed by the server each trading day of the window (migration 017). */
  pricing_mode: Generated<PricingMode>;
  /** The average window 'YYYY-MM-DD' (Beijing calendar days); null for a point contract. */
  average_start: ColumnType<string | null, string | null | undefined, string | null>;
  average_end: ColumnType<string | null, string | null | undefined, string | null>;
  /** 均价依据 of an average contract: 结算价 or 成交价 (migration 031; 'fills' on the rows before it). */
  average_basis: Generated<AverageBasis>;
  /** The contract these lots were rolled (转月) from. */
  rolled_from: ColumnType<number | null, number | null | undefined, number | null>;
  /** Unfixed lots rolled out to another month (still counted in total_quantity, migration 028). */
  rolled_out_quantity: Generated<number>;
  /** Σ roll and extension fees charged on the contract, 元. */
  fees: DefaultNumeric;
}

export type PricingMode = 'point' | 'average';
export type AverageBasis = 'settlement' | 'fills';

/** What an order and a conditional order hold the same way: their contract's customer and future, and the side. */
interface FixingRow {
  id: Generated<number>;
  tenant_id: number;
  contract_id: number;
  pricer_id: number;
  instrument_id: string;
  direction: Direction;
  /** The 授权点价人 who fixed or made it (migration 030); null only if none was known. */
  authorised_pricer_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface OrderTable extends FixingRow {
  volume_orign: number;
  volume_traded: Generated<number>;
  /** 0 = market order. */
  limit_price: Numeric;
  trade_price: DefaultNumeric;
  status: OrderStatus;
  last_msg: Generated<string>;
  /** The desk's idempotency key: one order per (customer, key). */
  client_order_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The contract's basis when the order was submitted (migration 006). */
  basis: DefaultNumeric;
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
  /** Where the action came from (migration 011); NULL for the server's own. */
  ip: ColumnType<string | null, string | null | undefined, string | null>;
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Raised by every change to a customer's orders or contracts (migration 009). */
export interface PricerDataVersionTable {
  pricer_id: number;
  shard: number;
  version: ColumnType<string, string | number, string | number>;
}

/** A customer's acknowledgement of a 点价确认单 (migration 013): the first one is kept. */
export interface ConfirmationAckTable {
  order_id: number;
  tenant_id: number;
  pricer_id: number;
  acknowledged_at: DefaultTimestamp;
  ip: string | null;
  user_agent: string | null;
}

/** v_contracts (modules/contracts/sql.ts), beside the ContractTable it is made from; other views' rows: viewRows.ts. */
export interface ContractViewRow extends Omit<
  ContractTable,
  | 'id'
  | 'executed_quantity'
  | 'frozen_quantity'
  | 'avg_price'
  | 'traded_amount'
  | 'created_at'
  | 'updated_at'
  | 'basis'
  | 'margin_rate'
  | 'settled_quantity'
  | 'pricing_mode'
  | 'average_basis'
  | 'rolled_out_quantity'
  | 'fees'
> {
  pricing_mode: PricingMode;
  /** null for a point contract. */
  average_basis: AverageBasis | null;
  rolled_out_quantity: number;
  fees: number;
  margin_rate: number;
  settled_quantity: number;
  id: number;
  executed_quantity: number;
  frozen_quantity: number;
  avg_price: number;
  pricer_name: string;
  created_at: Date;
  basis: number;
  /** avg_price + basis; null before the first fill. */
  avg_fixed_price: number | null;
  multiplier: number | null;
  /** The instrument's quantity unit (migration 013). */
  unit: string | null;
}

/** A conditional fixing order (migration 007, docs/conditional-orders.md). */
export interface ConditionalOrderTable extends FixingRow {
  quantity: number;
  trigger_op: TriggerOp;
  trigger_price: Numeric;
  /** 0 = market order when triggered. */
  order_price: DefaultNumeric;
  /**
   * The futures price its margin is held at while it waits (migration 022): the order price, or for a
   * market 条件单 the worse of its trigger and the live price at creation. Null: from before (the order
   * price, or the trigger price).
   */
  margin_price: ColumnType<number | null, number | string | null | undefined, number | string | null>;
  expires_at: Timestamp;
  status: ColumnType<ConditionalStatus, ConditionalStatus | undefined, ConditionalStatus>;
  /** The order the trigger inserted (TRIGGERED only). */
  order_id: number | null;
  trigger_last_price: Numeric | null;
  triggered_at: Timestamp | null;
  last_msg: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** Every table and view of the database: the one type all queries are written against. */
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
  /** The catalogue's live instruments (modules/contracts/sql.ts): no unit, no product id. */
  v_instruments: Omit<InstrumentTable, 'product_id' | 'expired' | 'unit'>;
  traders: TraderTable;
  oidc_payloads: OidcPayloadTable;
  oidc_keys: OidcKeyTable;
  pricer_data_versions: PricerDataVersionTable;
  sim_orders: SimOrderTable;
  sim_trades: SimTradeTable;
  order_dispatch: OrderDispatchTable;
  conditional_orders: ConditionalOrderTable;
  v_conditional_orders: ConditionalViewRow;
  v_confirmations: ConfirmationViewRow;
  pricer_accounts: PricerAccountTable;
  funds_ledger: FundsLedgerTable;
  confirmation_acks: ConfirmationAckTable;
  notifications: NotificationTable;
  tenant_webhooks: TenantWebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  login_failures: LoginFailureTable;
  contract_events: ContractEventTable;
  average_fixings: AverageFixingTable;
  settlement_prices: SettlementPriceTable;
  agreement_templates: AgreementTemplateTable;
  agreement_acceptances: AgreementAcceptanceTable;
  agreement_signatures: AgreementSignatureTable;
  authorised_pricers: AuthorisedPricerTable;
  fee_receivables: FeeReceivableTable;
  statement_responses: StatementResponseTable;
  product_margin_rates: ProductMarginRateTable;
  staff: StaffTable;
  v_funds_ledger: FundsLedgerViewRow;
  approval_requests: ApprovalRequestTable;
  roll_applications: RollApplicationTable;
  v_roll_applications: RollApplicationViewRow;
}
