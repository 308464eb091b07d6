/** Shapes of the trader API (SPEC §3, apps/server/src/trader/*). */

export interface TqAccountConfig {
  is_sim: boolean;
  broker_name: string;
  futures_account: string;
}

export interface TraderProfile {
  tenant_id: number;
  company_name: string;
  tq_account_config: TqAccountConfig;
}

/** POST /api/trader/rpc/trader-profile; the password is write-only and sent only when non-blank. */
export interface ProfileInput {
  company_name: string;
  tq_account_config: TqAccountConfig & { futures_password?: string };
}

export interface TqsdkStatus {
  status: string;
  connected: boolean;
  message?: string;
}

export type OrderStatus = 'PENDING' | 'ALIVE' | 'FINISHED' | 'CANCELLED';

export interface Order {
  id: number;
  contract_id: number;
  pricer_id: number;
  pricer_name: string;
  contract_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  volume_orign: number;
  /** A string number in the view. */
  volume_traded: string;
  limit_price: number;
  trade_price: number | null;
  trade_amount: number | null;
  status: OrderStatus | (string & {});
  status_str: string;
  last_msg: string | null;
  created_at: string;
}

export type ContractStatus = 'active' | 'paused' | 'expired' | 'completed';

export interface Contract {
  id: number;
  name: string;
  pricer_id: number;
  pricer_name: string;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  total_quantity: number;
  remaining_quantity: number;
  executed_quantity: number;
  frozen_quantity: number;
  avg_price: number | null;
  status: ContractStatus;
  created_at: string;
}

export interface CreateContractInput {
  name: string;
  pricer_id: number;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  total_quantity: number;
  status: ContractStatus;
}

export type PricerStatus = 'active' | 'inactive' | 'pending';

export interface PricerUser {
  id: number;
  username: string;
  status: PricerStatus;
  phone: string | null;
  created_at: string;
  last_login_at: string | null;
}

export interface CreatePricerInput {
  username: string;
  password: string;
  phone?: string;
}

export interface Product {
  id: number;
  name: string;
  exchange_id: string;
  product_id: string;
}

export interface Instrument {
  symbol: string;
  name: string;
  product_name: string;
}

/** One row of a view grouped by status (aggregate keys are `${op}_${field}`). */
export type StatusGroup = { status: string } & Record<string, number | string | null>;

export interface Page<T> {
  items: T[];
  total_count: number;
}
