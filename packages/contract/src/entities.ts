import { z } from 'zod';
import { timestamp } from './primitives';
import { CONTRACT_STATUSES, DIRECTIONS, ORDER_STATUSES, PRICER_STATUSES } from './rules';

/** The entities of SPEC §3 as the API answers them (timestamps: Date on the server, ISO string on the wire). */

export const direction = z.enum(DIRECTIONS, { error: '请选择期货方向' });
export const orderStatus = z.enum(ORDER_STATUSES, { error: '订单状态无效' });
export const contractStatus = z.enum(CONTRACT_STATUSES, { error: '合同状态无效' });
export const pricerStatus = z.enum(PRICER_STATUSES, { error: '客户状态无效' });

/** A contract as create-contract and update-contract-status answer it (the table row). */
export const contract = z.object({
  id: z.int(),
  tenant_id: z.int(),
  name: z.string(),
  pricer_id: z.int(),
  product_name: z.string(),
  /** Exchange-qualified, e.g. SHFE.cu2601. */
  instrument_id: z.string(),
  direction,
  total_quantity: z.int(),
  executed_quantity: z.int(),
  frozen_quantity: z.int(),
  remaining_quantity: z.int(),
  /** Volume-weighted fill price of the executed lots; 0 before the first fill. */
  avg_price: z.number(),
  status: contractStatus,
  created_at: timestamp,
  updated_at: timestamp,
  /** 基差 (docs/fixing.md). */
  basis: z.number(),
  /** 点价截止日 'YYYY-MM-DD'; null only for contracts from before deadlines existed. */
  fixing_deadline: z.string().nullable(),
  /** 保证金比例 (docs/margin.md); 0 = no margin check. */
  margin_rate: z.number().default(0),
  /** Fixed lots delivered / settled (docs/margin.md). */
  settled_quantity: z.int().default(0),
  /** 点价方式 and the average window (issue 32, docs/fixing.md). */
  pricing_mode: z.enum(['point', 'average']).default('point'),
  average_start: z.string().nullable().default(null),
  average_end: z.string().nullable().default(null),
  /** 均价依据 'settlement' | 'fills' of an average contract; null for a point one (issue 43). */
  average_basis: z.enum(['settlement', 'fills']).nullable().default(null),
  /** The contract these lots were rolled (转月) from. */
  rolled_from: z.int().nullable().default(null),
  rolled_out_quantity: z.int().default(0),
  /** Σ roll and extension fees, 元. */
  fees: z.number().default(0),
});

/** The contract terms and what follows from them, on the contracts view and the snapshot (docs/fixing.md). */
const termsRow = {
  basis: z.number(),
  fixing_deadline: z.string().nullable(),
  /** Lot-weighted average fixed price of the executed lots; null before the first fill. */
  avg_fixed_price: z.number().nullable(),
  multiplier: z.int().nullable(),
  /** 保证金比例 (docs/margin.md); 0 = no margin check. */
  margin_rate: z.number().default(0),
  /** Fixed lots delivered / settled (docs/margin.md). */
  settled_quantity: z.int().default(0),
};

/** A contract's side, lots, progress and terms, on the contracts view and the snapshot. */
const contractState = {
  direction,
  total_quantity: z.int(),
  remaining_quantity: z.int(),
  executed_quantity: z.int(),
  frozen_quantity: z.int(),
  avg_price: z.number(),
  status: contractStatus,
  created_at: timestamp,
  ...termsRow,
};

/** The fixed price on an order row (docs/fixing.md). */
const fixingRow = {
  basis: z.number(),
  /** Average futures fill price + basis; null before the first fill. */
  fixed_price: z.number().nullable(),
  multiplier: z.int().nullable(),
  /** fixed_price × traded lots × multiplier. */
  fixed_amount: z.number().nullable(),
  /** When the customer acknowledged the confirmation; null while pending (issue 29). */
  acknowledged_at: timestamp.nullable().optional(),
  /** trade_price × traded lots × multiplier, 元 (SPEC's trade_amount stays price × lots). */
  turnover: z.number().optional(),
  /** The instrument's quantity unit (吨, 克 …); null for index and bond futures. */
  unit: z.string().nullable().optional(),
  /** The 条件单 that sent the order, null for a fix by hand (issue 29). */
  conditional_order_id: z.int().nullable().optional(),
};

/** Whose and what an order or a conditional order is: its tenant, contract, customer, instrument and side. */
export const orderParties = {
  id: z.int(),
  tenant_id: z.int(),
  contract_id: z.int(),
  pricer_id: z.int(),
  instrument_id: z.string(),
  direction,
};

/** An order as submit-order answers it (the table row). */
export const order = z.object({
  ...orderParties,
  /** Ordered lots (the SPEC's spelling). */
  volume_orign: z.int(),
  volume_traded: z.int(),
  /** 0 = market order. */
  limit_price: z.number(),
  /** Average fill price; 0 before the first fill. */
  trade_price: z.number(),
  status: orderStatus,
  last_msg: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  /** The contract's basis when the order was submitted. */
  basis: z.number(),
});

/** A row of the orders views (trader `orders`, pricer `my-orders` and the snapshot's orders). */
export const orderRow = z.object({
  id: z.int(),
  tenant_id: z.int(),
  contract_id: z.int(),
  pricer_id: z.int(),
  pricer_name: z.string().nullable(),
  contract_name: z.string().nullable(),
  instrument_id: z.string(),
  direction,
  volume_orign: z.int(),
  /** Traded lots as a string number (SPEC §3). */
  volume_traded: z.string(),
  limit_price: z.number(),
  trade_price: z.number(),
  trade_amount: z.number(),
  status: orderStatus,
  /** The server's Chinese label of the status. */
  status_str: z.string(),
  last_msg: z.string(),
  created_at: timestamp,
  ...fixingRow,
});

/** A row of the trader's contracts view. */
export const contractRow = z.object({
  id: z.int(),
  tenant_id: z.int(),
  name: z.string(),
  pricer_id: z.int(),
  pricer_name: z.string().nullable(),
  product_name: z.string(),
  instrument_id: z.string(),
  ...contractState,
  /** What lots × multiplier count in (吨, 克 …); null for index and bond futures (issue 29). */
  unit: z.string().nullable().optional(),
  /** 点价方式, the average window, the roll link and the fees (issue 32). */
  pricing_mode: z.enum(['point', 'average']).optional(),
  average_start: z.string().nullable().optional(),
  average_end: z.string().nullable().optional(),
  average_basis: z.enum(['settlement', 'fills']).nullable().optional(),
  rolled_from: z.int().nullable().optional(),
  rolled_out_quantity: z.int().optional(),
  fees: z.number().optional(),
});

/** A contract of the customer snapshot: with the instrument's name and tick. */
export const pricerContract = z.object({
  id: z.int(),
  name: z.string(),
  product_name: z.string(),
  instrument_id: z.string(),
  instrument_name: z.string(),
  /** Minimum price increment of the instrument. */
  price_tick: z.number(),
  /** What lots × multiplier count in (吨, 克, 桶 …); null for index and bond futures (issue 29). */
  unit: z.string().nullable().optional(),
  ...contractState,
  /** Why it cannot be fixed now, by the server's clock (the desk disables fixing); null when it can. */
  not_fixable_reason: z.string().nullable(),
  /** 均价点价 (issue 32): the desk shows the schedule instead of fixing. */
  pricing_mode: z.enum(['point', 'average']).default('point'),
  average_start: z.string().nullable().default(null),
  average_end: z.string().nullable().default(null),
  /** 均价依据 'settlement' | 'fills' of an average contract; null for a point one (issue 43). */
  average_basis: z.enum(['settlement', 'fills']).nullable().default(null),
  /** Lots rolled out to another month (转月, issue 42): still in total_quantity, no longer to fix here. */
  rolled_out_quantity: z.int().default(0),
});

/** A row of the trader's users view (the pricer users of the tenant). */
export const pricerUserRow = z.object({
  id: z.int(),
  username: z.string(),
  status: pricerStatus,
  phone: z.string().nullable(),
  created_at: timestamp,
  last_login_at: timestamp.nullable(),
  /** 客户全称, 联系人 and the desk's confirm sheet (issue 29). */
  full_name: z.string().nullable().optional(),
  contact_name: z.string().nullable().optional(),
  confirm_before_fix: z.boolean().optional(),
  /** The customer's own margin rate (issue 41); null: the company's. */
  margin_rate: z.number().nullable().optional(),
});

/** What create-pricer-user answers. */
export const pricerUser = pricerUserRow.omit({ last_login_at: true });

export const productRow = z.object({
  id: z.int(),
  name: z.string(),
  exchange_id: z.string(),
  product_id: z.string(),
});

export const instrumentRow = z.object({
  symbol: z.string(),
  name: z.string(),
  product_name: z.string(),
  exchange_id: z.string(),
  price_tick: z.number(),
  volume_multiple: z.int(),
});

export type Contract = z.input<typeof contract>;
export type Order = z.input<typeof order>;
export type OrderRow = z.input<typeof orderRow>;
export type ContractRow = z.input<typeof contractRow>;
export type PricerContract = z.input<typeof pricerContract>;
export type PricerUserRow = z.input<typeof pricerUserRow>;
export type PricerUser = z.input<typeof pricerUser>;
export type ProductRow = z.input<typeof productRow>;
export type InstrumentRow = z.input<typeof instrumentRow>;
