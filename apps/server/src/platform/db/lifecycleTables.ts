import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Numeric } from './columns';

/**
 * A contract's life after creation (part of schema.ts's DB): rolls and extensions, average fixing days,
 * settlement prices and 转月 applications.
 */

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
