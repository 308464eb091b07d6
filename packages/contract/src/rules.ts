import { zh } from '@pfp/i18n';

/**
 * The business rules the apps' forms and the server both check (SPEC §5), written once. The
 * server is the authority; the forms use the same numbers and patterns to say it earlier.
 */

/** Mainland mobile number: 11 digits, 1 then 3–9 (SPEC §5 create customer). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

export const USERNAME_MIN = 2;
export const USERNAME_MAX = 32;
/** Letters of any script, digits and `_ . @ -`: what a login name may hold. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.@-]+$/u;

export const PASSWORD_MIN = 2;
export const PASSWORD_MAX = 128;

export const COMPANY_NAME_MAX = 100;
export const CONTRACT_NAME_MAX = 100;
export const BROKER_NAME_MAX = 100;
export const FUTURES_ACCOUNT_MAX = 64;

/** Lots of one contract (an integer above 0). */
export const CONTRACT_QUANTITY_MAX = 1_000_000;
/** Lots of one order (an integer above 0, at most the contract's remaining lots). */
export const ORDER_QUANTITY_MAX = 100_000;
/** A limit price is above 0 and below this; 0 (or absent) is a market order. */
export const PRICE_MAX = 100_000_000;
/** Prices are kept with 4 decimals (numeric(18, 4)): the smallest price above 0 is 0.0001. */
export const PRICE_DECIMALS = 4;

/**
 * A price the database keeps exactly as sent: 0, or a whole number of 0.0001 at least 0.0001. A price
 * that would round (1e-7 to 0: a limit order turned into a market order) is refused, never changed.
 */
export function keptPrice(price: number): boolean {
  if (price === 0) return true;
  const units = price * 10 ** PRICE_DECIMALS;
  return Number.isFinite(units) && units >= 1 - 1e-9 && Math.abs(units - Math.round(units)) < 1e-6;
}

/** The order form's price step (SPEC §5); the exchange's tick decides what is accepted. */
export const PRICE_STEP = 0.01;

/** SPEC §9: at most 3 sort columns. */
export const MAX_SORT_FIELDS = 3;
export const MAX_GROUP_BY_FIELDS = 5;
export const MAX_AGGREGATE_FIELDS = 10;
export const MAX_FIELD_NAME = 100;
export const MAX_SEARCH_LENGTH = 200;
export const MAX_FILTER_LENGTH = 2000;

export const ORDER_STATUSES = ['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CONTRACT_STATUSES = ['active', 'paused', 'expired', 'completed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const PRICER_STATUSES = ['active', 'inactive', 'pending'] as const;
export type PricerStatus = (typeof PRICER_STATUSES)[number];

export const DIRECTIONS = ['BUY', 'SELL'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** What a cancel answers: cancelled here (it never reached the broker) or sent to the broker. */
export const CANCEL_RESULTS = ['CANCELLED', 'CANCEL_REQUESTED'] as const;

/** SPEC §4: who may cancel an order in which status. */
export const CANCELLABLE = {
  trader: ['PENDING', 'ALIVE'],
  pricer: ['ALIVE'],
} as const satisfies Record<string, readonly OrderStatus[]>;

/**
 * Where packages/i18n keeps the Chinese label of each status: `zh.<path>.<STATUS>`. The trader
 * and the customer word an order's ALIVE differently (处理中 / 执行中), so orders have two.
 */
export const STATUS_LABEL_KEYS = {
  order: { trader: 'trader.orders.status', pricer: 'pricer.status' },
  contract: { trader: 'trader.contracts.status' },
  pricerUser: { trader: 'trader.pricers.status' },
} as const;

/** The Chinese messages of the order rules (SPEC §5 submit order), as the server answers them. */
export const ORDER_MESSAGES = {
  contract: '请选择合同',
  quantity: '请输入有效的成交数量',
  quantityInteger: '成交数量必须是整数',
  quantityTooLarge: '单笔数量过大',
  exceedsRemaining: (remaining: number) => `成交数量不能超过剩余数量（剩余 ${remaining} 手）`,
  price: '价格必须是数字',
  limitNeedsPrice: '限价单必须有有效价格',
  priceTooLarge: '价格超出范围',
  /** A price the database would round (docs/fixing.md). */
  priceDecimals: '价格最多 4 位小数，且不小于 0.0001',
  /** An idempotency key sent again with other parameters: it keeps the meaning of its first use. */
  clientOrderIdReused: '委托编号（client_order_id）已用于另一笔合同、数量或价格不同的委托，本次未下单',
} as const;

/**
 * The order rules of SPEC §5 in one function: the form calls it before sending, the server's
 * schema and its freeze check say the same. `price` 0 = market order. Returns the first problem.
 */
export function orderProblem(
  input: { quantity: number; price: number; orderType: 'market' | 'limit' },
  remaining: number,
): { field: 'quantity' | 'price'; message: string } | null {
  const q = input.quantity;
  if (!Number.isFinite(q) || q <= 0) return { field: 'quantity', message: ORDER_MESSAGES.quantity };
  if (!Number.isInteger(q)) return { field: 'quantity', message: ORDER_MESSAGES.quantityInteger };
  if (q > remaining) return { field: 'quantity', message: ORDER_MESSAGES.exceedsRemaining(remaining) };
  if (q > ORDER_QUANTITY_MAX) return { field: 'quantity', message: ORDER_MESSAGES.quantityTooLarge };
  if (input.orderType === 'limit') {
    const p = input.price;
    if (!Number.isFinite(p) || p <= 0) return { field: 'price', message: ORDER_MESSAGES.limitNeedsPrice };
    if (p > PRICE_MAX) return { field: 'price', message: ORDER_MESSAGES.priceTooLarge };
  }
  return null;
}

/** What the exchange refuses of a limit price (the simulated exchange words it the same). */
export const PRICE_MESSAGES = {
  offTick: zh.errors.priceOffTick,
  outsideLimits: zh.errors.priceOutsideLimits,
} as const;

/** A price the exchange accepts: a whole number of ticks (within floating-point noise). */
export function onTickGrid(price: number, tick: number): boolean {
  if (!(tick > 0)) return true;
  const n = price / tick;
  return Math.abs(n - Math.round(n)) < 1e-6;
}

/** The instrument's price rules of the day: its tick and limit band (null: not known yet). */
export interface PriceRules {
  price_tick: number;
  upper_limit: number | null;
  lower_limit: number | null;
}

/**
 * A limit price the exchange would refuse: off the tick grid, or outside the day's limit band
 * (涨跌停板). Returns the Chinese message, or null when the exchange would take it.
 */
export function limitPriceProblem(price: number, rules: PriceRules): string | null {
  if (!onTickGrid(price, rules.price_tick)) return PRICE_MESSAGES.offTick;
  const eps = 1e-9;
  if (rules.upper_limit !== null && price > rules.upper_limit + eps) return PRICE_MESSAGES.outsideLimits;
  if (rules.lower_limit !== null && price < rules.lower_limit - eps) return PRICE_MESSAGES.outsideLimits;
  return null;
}
