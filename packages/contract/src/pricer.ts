import { z } from 'zod';
import { order, orderRow, orderStatus, pricerContract } from './entities';
import { pricerAccount } from './margin';
import { id, text } from './primitives';
import { ORDER_MESSAGES, ORDER_QUANTITY_MAX, PASSWORD_MAX, PRICE_MAX } from './rules';
import { viewRequest } from './view';

/** SPEC §7 "Customer calls" (/api/pricer/*): requests and the `data` of their answers. */

export const tenantId = id('公司代码无效');

export const pricerLoginInput = z.object(
  {
    tenant_id: tenantId,
    username: text('请输入用户名').trim().min(1, { error: '请输入用户名' }).max(64),
    password: text('请输入密码').min(1, { error: '请输入密码' }).max(PASSWORD_MAX),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type PricerLoginInput = z.input<typeof pricerLoginInput>;

/** SPEC §7: any other shape is a login response format error. */
export const pricerLoginResult = z.object({
  jwt_token: z.string(),
  user_id: z.int(),
  username: z.string(),
  tenant_id: z.int(),
  company_name: z.string(),
});
export type PricerLoginResult = z.infer<typeof pricerLoginResult>;

export const tenantInfoInput = z.object({ tenant_id: tenantId }, { error: '请求参数必须是 JSON 对象' });
export type TenantInfoInput = z.input<typeof tenantInfoInput>;
export const tenantInfo = z.object({ tenant_id: z.int(), company_name: z.string() });
export type TenantInfo = z.infer<typeof tenantInfo>;

/**
 * One instrument of the snapshot's market data: the last price, and what the desk checks a limit
 * price against before sending it (the tick and the day's limit band; null while not known).
 */
export const marketEntry = z.object({
  last_price: z.number().nullable(),
  price_tick: z.number(),
  upper_limit: z.number().nullable(),
  lower_limit: z.number().nullable(),
  /** Best bid and ask (买一 / 卖一), what a market order meets; null while not known (issue 29). */
  bid_price: z.number().nullable().optional(),
  ask_price: z.number().nullable().optional(),
});
export type MarketEntry = z.input<typeof marketEntry>;

/** The desk's poll: the customer's contracts, latest orders and the market data of their instruments. */
export const snapshot = z.object({
  contracts: z.array(pricerContract),
  orders: z.array(orderRow),
  timestamp: z.string(),
  market_data: z.record(z.string(), marketEntry),
  /** The customer's funds and margin (docs/margin.md). */
  account: pricerAccount.optional(),
  /** The desk shows the confirm sheet before every fix (issue 29; the trader may switch it off). */
  confirm_before_fix: z.boolean().optional(),
  /** The signed-in 授权点价人 (issue 43, docs/authorised-pricers.md); null: the login is none (cannot fix). */
  person: z.object({ id: z.int(), name: z.string(), active: z.boolean() }).nullable().optional(),
});
export type Snapshot = z.input<typeof snapshot>;

/** Empty strings, null and 'all' mean "no condition" (SPEC §7 my-orders): read as absent. */
const condition = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === 'all' || v === null ? undefined : v), schema.optional());

const day = (message: string) => text(message).regex(/^\d{4}-\d{2}-\d{2}$/, { error: message });

/** my-orders: the view params plus the history filter (SPEC §3). */
export const myOrdersRequest = viewRequest.extend({
  contract_id: condition(id()),
  status: condition(orderStatus),
  start_date: condition(day('开始日期格式应为 YYYY-MM-DD')),
  end_date: condition(day('结束日期格式应为 YYYY-MM-DD')),
});
export type MyOrdersRequest = z.input<typeof myOrdersRequest>;

/** SPEC §3 order form: price 0 (or absent) = market order, > 0 = limit order. */
export const submitOrderInput = z.object(
  {
    contract_id: id(ORDER_MESSAGES.contract),
    quantity: z
      .number({ error: ORDER_MESSAGES.quantity })
      .int({ error: ORDER_MESSAGES.quantityInteger })
      .positive({ error: ORDER_MESSAGES.quantity })
      .max(ORDER_QUANTITY_MAX, { error: ORDER_MESSAGES.quantityTooLarge }),
    price: z
      .number({ error: ORDER_MESSAGES.price })
      .min(0, { error: ORDER_MESSAGES.limitNeedsPrice })
      .max(PRICE_MAX, { error: ORDER_MESSAGES.priceTooLarge })
      .optional()
      .default(0),
    /** The desk's idempotency key: the same key from the same customer answers with the first order. */
    client_order_id: z
      .string({ error: 'client_order_id 必须是字符串' })
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'client_order_id 须为 1 至 64 位字母、数字或 . _ : -' })
      .optional(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type SubmitOrderInput = z.input<typeof submitOrderInput>;

export { order };
