import { zh } from '@pfp/i18n';
import { z } from 'zod';
import { orderParties } from './entities';
import { id, timestamp } from './primitives';
import { keptPrice, ORDER_MESSAGES, ORDER_QUANTITY_MAX, PRICE_MAX } from './rules';
import { viewRequest } from './view';

/**
 * Conditional fixing orders (条件单, docs/conditional-orders.md): the server watches the market and
 * sends a fixing order once the last price crosses the trigger. Its lots are held from creation.
 */

const M = zh.conditional.errors;

export const TRIGGER_OPS = ['>=', '<='] as const;
export type TriggerOp = (typeof TRIGGER_OPS)[number];
export const triggerOp = z.enum(TRIGGER_OPS, { error: M.triggerOp });

export const CONDITIONAL_STATUSES = ['WAITING', 'TRIGGERED', 'CANCELLED', 'EXPIRED'] as const;
export type ConditionalStatus = (typeof CONDITIONAL_STATUSES)[number];
export const conditionalStatus = z.enum(CONDITIONAL_STATUSES, {
  error: `状态应为 ${CONDITIONAL_STATUSES.join('、')} 之一`,
});

export const createConditionalInput = z.object(
  {
    contract_id: id(ORDER_MESSAGES.contract),
    quantity: z
      .number({ error: M.quantity })
      .int({ error: ORDER_MESSAGES.quantityInteger })
      .positive({ error: M.quantity })
      .max(ORDER_QUANTITY_MAX, { error: ORDER_MESSAGES.quantityTooLarge }),
    trigger_op: triggerOp,
    trigger_price: z
      .number({ error: M.triggerPrice })
      .positive({ error: M.triggerPrice })
      .max(PRICE_MAX, { error: M.priceTooLarge })
      .refine(keptPrice, { error: ORDER_MESSAGES.priceDecimals }),
    /** 0 = market order when it triggers, > 0 = limit order at this price. */
    order_price: z
      .number({ error: M.orderPrice })
      .min(0, { error: M.orderPrice })
      .max(PRICE_MAX, { error: M.priceTooLarge })
      .refine(keptPrice, { error: ORDER_MESSAGES.priceDecimals })
      .optional()
      .default(0),
    /** ISO time; default and latest: the close (15:00 Beijing) of the contract's fixing deadline. */
    expires_at: z.iso.datetime({ offset: true, error: M.expiresAt }).optional(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type CreateConditionalInput = z.input<typeof createConditionalInput>;

export const conditionalIdInput = z.object({ id: id() }, { error: '请求参数必须是 JSON 对象' });
export type ConditionalIdInput = z.input<typeof conditionalIdInput>;

/** Empty strings, null and 'all' mean "no condition" (as in my-orders). */
const condition = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === 'all' || v === null ? undefined : v), schema.optional());

/** my-conditional-orders: the view params plus contract and status. */
export const myConditionalRequest = viewRequest.extend({
  contract_id: condition(id()),
  status: condition(conditionalStatus),
});
export type MyConditionalRequest = z.input<typeof myConditionalRequest>;

/** The trader's conditional-orders view: the view params plus an optional status. */
export const conditionalViewRequest = viewRequest.extend({
  status: condition(conditionalStatus),
});
export type ConditionalViewRequest = z.input<typeof conditionalViewRequest>;

/** A conditional order as the calls answer it (and a row of the views, with the names). */
export const conditionalOrder = z.object({
  ...orderParties,
  quantity: z.int(),
  trigger_op: triggerOp,
  trigger_price: z.number(),
  /** 0 = market. */
  order_price: z.number(),
  expires_at: timestamp,
  status: conditionalStatus,
  /** The fixing order it created (TRIGGERED only). */
  order_id: z.int().nullable(),
  /** The last price that crossed the trigger. */
  trigger_last_price: z.number().nullable(),
  triggered_at: timestamp.nullable(),
  last_msg: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ConditionalOrder = z.input<typeof conditionalOrder>;

/** A row of my-conditional-orders / conditional-orders (v_conditional_orders). */
export const conditionalRow = conditionalOrder.extend({
  pricer_name: z.string().nullable(),
  contract_name: z.string().nullable(),
  status_str: z.string(),
  /** The created order's status and filled lots. */
  order_status: z.string().nullable(),
  order_volume_traded: z.int().nullable(),
});
export type ConditionalRow = z.input<typeof conditionalRow>;

/** The form's check before sending (the server says the same; the tick grid is checked with the instrument). */
export function conditionalProblem(
  input: { quantity: number; trigger_price: number; order_price: number },
  remaining: number,
): { field: 'quantity' | 'trigger_price' | 'order_price'; message: string } | null {
  const q = input.quantity;
  if (!Number.isFinite(q) || q <= 0) return { field: 'quantity', message: M.quantity };
  if (!Number.isInteger(q)) return { field: 'quantity', message: ORDER_MESSAGES.quantityInteger };
  if (q > remaining) return { field: 'quantity', message: ORDER_MESSAGES.exceedsRemaining(remaining) };
  if (!Number.isFinite(input.trigger_price) || input.trigger_price <= 0)
    return { field: 'trigger_price', message: M.triggerPrice };
  if (input.trigger_price > PRICE_MAX) return { field: 'trigger_price', message: M.priceTooLarge };
  if (!Number.isFinite(input.order_price) || input.order_price < 0)
    return { field: 'order_price', message: M.orderPrice };
  if (input.order_price > PRICE_MAX) return { field: 'order_price', message: M.priceTooLarge };
  return null;
}
