import { BROKERS } from '@pfp/i18n';
import { z } from 'zod';
import { STAFF_ROLES } from './paths';
import { contract, contractStatus, direction, pricerUser } from './entities';
import { basis, fixingDeadline } from './fixing';
import { marginRate } from './margin';
import { pricingTerms } from './lifecycle';
import { id, nameText, text } from './primitives';
import {
  BROKER_NAME_MAX,
  CANCEL_RESULTS,
  COMPANY_NAME_MAX,
  CONTRACT_NAME_MAX,
  CONTRACT_QUANTITY_MAX,
  FUTURES_ACCOUNT_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_PATTERN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from './rules';
import { viewRequest } from './view';

/** SPEC §7 "Trader calls" (/api/trader/*): requests and the `data` of their answers. */

// ---- Profile and gateway status ------------------------------------------------------------------

export const tqAccountConfig = z.object({
  is_sim: z.boolean(),
  broker_name: z.string(),
  futures_account: z.string(),
});

/** my-self and trader-profile answer it; the futures password is never returned. */
export const traderProfile = z.object({
  tenant_id: z.int(),
  company_name: z.string(),
  tq_account_config: tqAccountConfig,
  /** The caller's staff roles (issue 42, docs/roles.md): the console shows only what they may do. */
  roles: z.array(z.enum(STAFF_ROLES)).optional(),
  /** The caller's own id (the token's subject): the approvals inbox tells their own requests apart. */
  user_id: z.string().optional(),
});
export type TraderProfile = z.infer<typeof traderProfile>;

/**
 * The settings dialog's save (SPEC §5). Broker and account are required unless simulated; the
 * password is optional (blank keeps the stored one). The broker comes from the fixed list.
 */
export const profileInput = z
  .object(
    {
      company_name: nameText('公司名称', '请输入公司名称')
        .min(1, { error: '请输入公司名称' })
        .max(COMPANY_NAME_MAX, { error: `公司名称不能超过 ${COMPANY_NAME_MAX} 个字符` }),
      tq_account_config: z.object(
        {
          is_sim: z.boolean({ error: 'is_sim 必须是布尔值' }),
          broker_name: text().trim().max(BROKER_NAME_MAX).optional().default(''),
          futures_account: text().trim().max(FUTURES_ACCOUNT_MAX).optional().default(''),
          futures_password: text().max(PASSWORD_MAX).optional(),
        },
        { error: '缺少参数 tq_account_config' },
      ),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .superRefine((v, ctx) => {
    const c = v.tq_account_config;
    if (c.is_sim) return;
    if (!c.broker_name)
      ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'broker_name'], message: '请输入期货公司' });
    else if (!BROKERS.includes(c.broker_name))
      ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'broker_name'], message: '期货公司不在支持列表中' });
    if (!c.futures_account)
      ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'futures_account'], message: '请输入期货账户' });
  });
export type ProfileInput = z.input<typeof profileInput>;

/** tqsdk-status: `ok` when the tenant's gateway is connected and logged in, else `error` and why. */
export const tqsdkStatus = z.object({
  status: z.enum(['ok', 'error']),
  connected: z.boolean(),
  message: z.string().optional(),
});
export type TqsdkStatus = z.infer<typeof tqsdkStatus>;

// ---- Orders ---------------------------------------------------------------------------------------

export const cancelOrderInput = z.object({ order_id: id() }, { error: '请求参数必须是 JSON 对象' });
export type CancelOrderInput = z.input<typeof cancelOrderInput>;

/** CANCELLED: it never reached the broker; CANCEL_REQUESTED: the broker's answer follows. */
export const cancelOrderResult = z.object({ status: z.enum(CANCEL_RESULTS) });
export type CancelOrderResult = z.infer<typeof cancelOrderResult>;

// ---- Contracts ------------------------------------------------------------------------------------

export const createContractInput = z.object(
  {
    name: nameText('合同名称')
      .max(CONTRACT_NAME_MAX, { error: `合同名称不能超过 ${CONTRACT_NAME_MAX} 个字符` })
      .optional()
      .default(''),
    pricer_id: id('请选择客户'),
    product_name: text('请选择品种').trim().min(1, { error: '请选择品种' }).max(100),
    instrument_id: text('请选择期货合约').trim().min(1, { error: '请选择期货合约' }).max(64),
    direction,
    total_quantity: z
      .number({ error: '总数量必须大于0' })
      .int({ error: '总数量必须是整数' })
      .positive({ error: '总数量必须大于0' })
      .max(CONTRACT_QUANTITY_MAX, { error: `总数量不能超过 ${CONTRACT_QUANTITY_MAX.toLocaleString('en-US')} 手` }),
    /** A new contract is active unless asked otherwise (never completed). */
    status: contractStatus.optional().default('active'),
    /** 基差, on the instrument's tick grid (checked with the instrument); docs/fixing.md. */
    basis,
    /** 点价截止日, today or later (checked with the clock). */
    fixing_deadline: fixingDeadline,
    /** 保证金比例, 0 … 1 (docs/margin.md); absent or null: the customer's, else the product's, else the company's. */
    margin_rate: marginRate.nullish(),
    /** 点价方式 and the average window (issue 32). */
    ...pricingTerms,
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type CreateContractInput = z.input<typeof createContractInput>;

export const updateContractStatusInput = z.object(
  { contract_id: id(), new_status: contractStatus },
  { error: '请求参数必须是 JSON 对象' },
);
export type UpdateContractStatusInput = z.input<typeof updateContractStatusInput>;

// ---- Pricer users ---------------------------------------------------------------------------------

const password = (empty: string) =>
  text(empty)
    .min(1, { error: empty })
    .min(PASSWORD_MIN, { error: `密码至少 ${PASSWORD_MIN} 个字符` })
    .max(PASSWORD_MAX, { error: `密码不能超过 ${PASSWORD_MAX} 个字符` });

export const usernameSchema = text('用户名不能为空')
  .trim()
  .min(1, { error: '用户名不能为空' })
  .min(USERNAME_MIN, { error: `用户名至少 ${USERNAME_MIN} 个字符` })
  .max(USERNAME_MAX, { error: `用户名不能超过 ${USERNAME_MAX} 个字符` })
  .regex(USERNAME_PATTERN, { error: '用户名只能包含文字、数字和 _ . @ -' });

/** Blank means none; given, it must be a mainland mobile number. */
export const phoneSchema = text('手机号格式不正确')
  .trim()
  .refine((v) => v === '' || PHONE_PATTERN.test(v), { error: '手机号格式不正确' });

export const createPricerInput = z.object(
  {
    username: usernameSchema,
    password: password('密码不能为空'),
    phone: phoneSchema.nullish(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type CreatePricerInput = z.input<typeof createPricerInput>;

export const resetPricerPasswordInput = z.object(
  { user_id: id(), new_password: password('请输入新密码') },
  { error: '请求参数必须是 JSON 对象' },
);
export type ResetPricerPasswordInput = z.input<typeof resetPricerPasswordInput>;

export const resetPricerPasswordResult = z.object({ user_id: z.int() });

/** 停用 / 启用 a customer: pending is only ever the initial state. */
export const updatePricerStatusInput = z.object(
  {
    user_id: id(),
    new_status: z.enum(['active', 'inactive'], { error: '客户状态无效，只能是 active 或 inactive' }),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type UpdatePricerStatusInput = z.input<typeof updatePricerStatusInput>;

export const updatePricerStatusResult = pricerUser.pick({ id: true, username: true, status: true });

// ---- Views ----------------------------------------------------------------------------------------

/** The instruments view needs the product (SPEC §7: param product_name). */
export const instrumentsViewRequest = viewRequest.extend({
  product_name: text('请选择品种').trim().min(1, { error: '请选择品种' }).max(100),
});

export const TRADER_VIEW_NAMES = ['orders', 'contracts', 'users', 'products', 'instruments'] as const;
export type TraderViewName = (typeof TRADER_VIEW_NAMES)[number];

export { contract, pricerUser };
