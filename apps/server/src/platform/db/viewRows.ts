import type { ConditionalStatus, confirmation, Direction, OrderStatus, TriggerOp } from '@pfp/contract';
import type { z } from 'zod';

/**
 * Read-only relations (part of schema.ts's DB): the database views, defined in the capabilities' sql.ts and held
 * to the live database by modules/views.db.test.ts. v_contracts' row is in schema.ts, beside its ContractTable.
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
