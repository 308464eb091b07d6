import type { ColumnType, Generated } from 'kysely';
import type { DefaultNumeric, DefaultTimestamp, Numeric, Timestamp } from './columns';
import type { AuthorisedPricerTable } from './authorisedPricerTables';
import type { AgreementAcceptanceTable, AgreementSignatureTable, AgreementTemplateTable } from './agreementTables';
import type { LoginFailureTable, OidcKeyTable, OidcPayloadTable, TraderTable } from './identityTables';

import type {
  ConditionalStatus,
  confirmation,
  ContractStatus,
  Direction,
  OrderStatus,
  PricerStatus,
  TriggerOp,
} from '@pfp/contract';
import type { z } from 'zod';

export type { ContractStatus, Direction, OrderStatus, PricerStatus };
export type { LoginFailureTable, OidcKeyTable, OidcPayloadTable, TraderTable };

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

/** v_funds_ledger (modules/margin/sql.ts): the ledger with its maker's and checker's names (issue 42). */
export interface FundsLedgerViewRow {
  id: number;
  tenant_id: number;
  pricer_id: number;
  kind: string;
  amount: number;
  balance_after: number;
  note: string;
  actor: string;
  bank_ref: string | null;
  checker: string | null;
  created_at: Date;
  maker_name: string;
  checker_name: string | null;
}

/** A company's staff member and roles (migration 027, docs/roles.md). */
export interface StaffTable {
  tenant_id: number;
  trader_sub: string;
  full_name: Generated<string>;
  roles: string[];
  status: Generated<'active' | 'disabled'>;
  created_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** A call held for a second person (maker-checker, migration 027, docs/roles.md). */
export interface ApprovalRequestTable {
  id: Generated<number>;
  tenant_id: number;
  action: string;
  body: ColumnType<unknown, string, string>;
  subject: string;
  subject_state: string;
  subject_label: Generated<string>;
  before: ColumnType<unknown, string | null, string | null> | null;
  after: ColumnType<unknown, string | null, string | null> | null;
  maker: string;
  status: Generated<'pending' | 'approved' | 'rejected' | 'failed'>;
  checker: string | null;
  reason: string | null;
  result: ColumnType<unknown, string | null, string | null> | null;
  created_at: DefaultTimestamp;
  decided_at: Date | null;
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

/** A company's margin rate for one product over its default (migration 023, docs/margin.md). */
export interface ProductMarginRateTable {
  tenant_id: number;
  product_name: string;
  margin_rate: Numeric;
  updated_at: DefaultTimestamp;
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

/** A future's daily settlement price as published at the close (migration 031, docs/fixing.md). */
export interface SettlementPriceTable {
  instrument_id: string;
  /** The trading day 'YYYY-MM-DD'. */
  day: string;
  price: Numeric;
  volume: ColumnType<number, number | undefined, number>;
  /** 'sim': the simulated exchange. */
  source: string;
  published_at: DefaultTimestamp;
}

/** A roll or an extension of a contract (migration 017). */
export interface ContractEventTable {
  id: Generated<number>;
  tenant_id: number;
  contract_id: number;
  kind: 'roll' | 'extension';
  actor: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: DefaultTimestamp;
}

/** An average contract's fixing of one trading day (migration 017): the key is the guard of exactly once. */
export interface AverageFixingTable {
  contract_id: number;
  day: string;
  tenant_id: number;
  planned_lots: number;
  order_id: number;
  created_at: DefaultTimestamp;
}

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

/** Raised by every change to a customer's orders or contracts (migration 009). */
export interface PricerDataVersionTable {
  pricer_id: number;
  shard: number;
  version: ColumnType<string, string | number, string | number>;
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

/**
 * Read-only relations: the database views, defined in the capabilities' sql.ts and held to the live database
 * by modules/views.db.test.ts.
 */
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
  basis: number;
  /** trade_price + basis; null before the first fill. */
  fixed_price: number | null;
  multiplier: number | null;
  /** fixed_price × volume_traded × multiplier; null before the first fill. */
  fixed_amount: number | null;
  /** When the customer acknowledged the confirmation (migration 013); null while pending. */
  acknowledged_at: Date | null;
  /** trade_price × volume_traded × multiplier (migration 013). */
  turnover: number;
  /** The instrument's quantity unit (migration 013). */
  unit: string | null;
  /** The 条件单 that sent this order, if one did (migration 020). */
  conditional_order_id: number | null;
}

/** A fee the customer owes (migration 025, docs/statements.md): charged open, settled once. */
export interface FeeReceivableTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  contract_id: number;
  kind: 'roll' | 'extension';
  amount: Numeric;
  note: Generated<string>;
  actor: string;
  created_at: DefaultTimestamp;
  status: Generated<FeeStatus>;
  settled_at: Date | null;
  settled_by: string | null;
  settle_note: Generated<string>;
  ledger_entry_id: number | null;
}
export type FeeStatus = 'open' | 'collected' | 'offset' | 'waived';

/** The customer's answer to a statement of a period (migration 025): one per content (digest). */
export interface StatementResponseTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  start_date: string;
  end_date: string;
  digest: string;
  response: 'confirmed' | 'disputed';
  note: Generated<string>;
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
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

export interface ConditionalViewRow {
  id: number;
  tenant_id: number;
  contract_id: number;
  pricer_id: number;
  pricer_name: string | null;
  contract_name: string | null;
  instrument_id: string;
  direction: Direction;
  quantity: number;
  trigger_op: TriggerOp;
  trigger_price: number;
  order_price: number;
  expires_at: Date;
  status: ConditionalStatus;
  status_str: string;
  order_id: number | null;
  trigger_last_price: number | null;
  triggered_at: Date | null;
  last_msg: string;
  created_at: Date;
  updated_at: Date;
  order_status: OrderStatus | null;
  order_volume_traded: number | null;
}

/** v_confirmations (migration 006): the contract's 点价确认单 as the server reads it (Dates), and its tenant. */
export type ConfirmationViewRow = z.output<typeof confirmation> & { tenant_id: number };

/** A customer's account (migration 012, docs/margin.md): the balance is Σ funds_ledger, kept here. */
export interface PricerAccountTable {
  pricer_id: number;
  tenant_id: number;
  balance: DefaultNumeric;
  credit_line: DefaultNumeric;
  in_call: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

/** The funds ledger: append-only (a trigger refuses UPDATE and DELETE). */
export interface FundsLedgerTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  kind: 'deposit' | 'withdraw' | 'adjust';
  /** Signed: a withdrawal is negative. */
  amount: Numeric;
  balance_after: Numeric;
  note: Generated<string>;
  actor: string;
  /** 银行流水号 of a deposit or withdrawal (migration 027). */
  bank_ref: string | null;
  /** Who approved it, when the approval policy held it (migration 027). */
  checker: string | null;
  created_at: DefaultTimestamp;
}

/** Notifications (migration 018, docs/notifications.md): one row per audience of an event. */
export interface NotificationTable {
  id: Generated<number>;
  tenant_id: number;
  audience: 'trader' | 'pricer';
  pricer_id: number | null;
  kind: string;
  title: string;
  body: string;
  ref: string | null;
  read_at: Date | null;
  created_at: DefaultTimestamp;
}

/** A company's outbound webhook (migration 018): the secret is encrypted (SecretBox). */
export interface TenantWebhookTable {
  tenant_id: number;
  url: string;
  secret_enc: string;
  kinds: string[];
  updated_at: DefaultTimestamp;
}

/** The webhook outbox (migration 018). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  tenant_id: number;
  notification_id: number;
  kind: string;
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_at: DefaultTimestamp;
  claimed_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  delivered_at: Date | null;
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

/** A customer's 转月 application, the trader's offer and its acceptance (migration 028, issue 42). */
export interface RollApplicationTable {
  id: Generated<number>;
  tenant_id: number;
  pricer_id: number;
  contract_id: number;
  to_instrument_id: string;
  quantity: number;
  status: ColumnType<RollApplicationState, RollApplicationState | undefined, RollApplicationState>;
  spread: ColumnType<number | null, number | null | undefined, number | null>;
  fee_per_unit: ColumnType<number | null, number | null | undefined, number | null>;
  valid_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  priced_by: ColumnType<string | null, string | null | undefined, string | null>;
  priced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  accepted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  to_contract_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** What roll_applications.status stores; expired is read, not stored (v_roll_applications). */
export type RollApplicationState = 'pending' | 'priced' | 'accepted';

/** v_roll_applications (modules/lifecycle/sql.ts): the application with its contract, customer and status as of now. */
export interface RollApplicationViewRow {
  id: number;
  tenant_id: number;
  pricer_id: number;
  pricer_name: string | null;
  contract_id: number;
  contract_name: string | null;
  direction: string;
  from_instrument_id: string;
  to_instrument_id: string;
  quantity: number;
  multiplier: number | null;
  unit: string | null;
  basis: number;
  status: string;
  status_str: string;
  spread: number | null;
  fee_per_unit: number | null;
  fee: number | null;
  valid_until: Date | null;
  priced_by: string | null;
  priced_at: Date | null;
  accepted_at: Date | null;
  to_contract_id: number | null;
  created_at: Date;
}
