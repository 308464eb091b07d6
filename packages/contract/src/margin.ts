import { z } from 'zod';
import { hasAtMostDecimals, id, text, timestamp } from './primitives';
import { viewRequest } from './view';

/**
 * Margin and credit (资金与保证金, docs/margin.md): the customer's account, its funds ledger, the margin
 * every fixing holds, floating P/L and margin calls, and the settlement of fixed lots. Additions to the
 * SPEC's calls.
 */

/**
 * The largest amount one ledger entry takes (元), entered or computed (a 转月费 is fee × lots ×
 * multiplier): far beyond any real account, exact in numeric(18, 2).
 */
export const AMOUNT_MAX = 1e12;

/**
 * The largest |running sum| the ledger keeps (a balance, a contract's fees), 元: numeric(18, 2) holds
 * < 10^16 and a double keeps every fen below 2^53 fen ≈ 9·10^13. An entry that would pass it is refused.
 */
export const BALANCE_MAX = 1e13;

/** What the server says when a computed amount or a running sum passes the bounds above. */
export const MONEY_BOUND_MESSAGES = {
  total: (label: string) => `${label}不能超过 1,000,000,000,000 元`,
  balance: '入账后余额将超过 10,000,000,000,000 元',
  contractFees: '合同累计费用将超过 10,000,000,000,000 元',
} as const;

/** An amount in 元 named `label`: finite, at most 2 decimals, |v| ≤ 10^12; `signed` lets it be negative (never 0). */
export const amount = (label: string, opts: { signed?: boolean; zero?: boolean } = {}) =>
  z
    .number({ error: `${label}必须是数字` })
    .finite({ error: `${label}必须是有限的数字` })
    .refine((v) => opts.signed || v >= 0, { error: `${label}不能为负数` })
    .refine((v) => opts.zero || v !== 0, { error: `${label}不能为 0` })
    .refine((v) => Math.abs(v) <= AMOUNT_MAX, { error: MONEY_BOUND_MESSAGES.total(label) })
    .refine((v) => hasAtMostDecimals(v, 2), { error: `${label}最多两位小数` });

/**
 * 保证金比例: 0 … 1 of the goods value, at most 4 decimals (numeric(6, 4)); 0 = no margin check. A rate
 * that is not 0 but would be stored as 0 (1e-300: within the decimals' tolerance) is refused too: what
 * the server answers is what it stored (issue 40).
 */
export const marginRate = z
  .number({ error: '保证金比例必须是数字' })
  .finite({ error: '保证金比例必须是有限的数字' })
  .min(0, { error: '保证金比例应在 0 到 1 之间' })
  .max(1, { error: '保证金比例应在 0 到 1 之间' })
  .refine((v) => hasAtMostDecimals(v, 4) && (v === 0 || Math.round(v * 1e4) !== 0), {
    error: '保证金比例最多四位小数',
  });

export const FUNDS_KINDS = ['deposit', 'withdraw', 'adjust'] as const;
export type FundsKind = (typeof FUNDS_KINDS)[number];
/** What the ledger can hold: the trader's entries. */
export const FUNDS_KIND_LABELS: Record<FundsKind, string> = { deposit: '入金', withdraw: '出金', adjust: '调整' };

const note = text('备注必须是文本').trim().max(200, { error: '备注不能超过 200 个字符' }).optional().default('');

/**
 * 入金 / 出金 / 调整. Deposit and withdrawal are positive amounts; an adjustment is signed (a wrong
 * entry is reversed by an adjustment of the opposite sign: the ledger is never edited).
 */
export const recordFundsInput = z
  .object(
    {
      pricer_id: id('请选择客户'),
      kind: z.enum(FUNDS_KINDS, { error: '资金类型应为 deposit、withdraw 或 adjust' }),
      amount: z.number({ error: '金额必须是数字' }),
      note,
      /** 银行流水号 of the transfer (issue 42): the console asks it for every deposit and withdrawal. */
      bank_ref: text('银行流水号必须是文本').trim().max(64, { error: '银行流水号不能超过 64 个字符' }).optional(),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .superRefine((v, ctx) => {
    const check = amount('金额', { signed: v.kind === 'adjust' }).safeParse(v.amount);
    if (!check.success)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: check.error.issues[0]?.message ?? '金额无效' });
  });
export type RecordFundsInput = z.input<typeof recordFundsInput>;

export const setCreditLineInput = z.object(
  { pricer_id: id('请选择客户'), credit_line: amount('授信额度', { zero: true }), note },
  { error: '请求参数必须是 JSON 对象' },
);
export type SetCreditLineInput = z.input<typeof setCreditLineInput>;

/**
 * The company's default margin rate, and its rates per product over it (issue 41), for contracts created
 * without one. set-margin-settings: product_rates given replace the company's list; absent, it stays.
 */
export const marginSettings = z.object({
  default_margin_rate: marginRate,
  product_rates: z
    .array(
      z.object({
        product_name: z.string({ error: '请选择品种' }).trim().min(1, { error: '请选择品种' }).max(100),
        margin_rate: marginRate,
      }),
    )
    .max(200, { error: '品种保证金比例最多 200 项' })
    .optional(),
});
export type MarginSettings = z.input<typeof marginSettings>;

/** A customer's account as the trader and the customer read it (元). */
export const pricerAccount = z.object({
  pricer_id: z.int(),
  pricer_name: z.string(),
  /** Σ of the ledger. */
  balance: z.number(),
  /** 授信额度. */
  credit_line: z.number(),
  /** The margin held by open orders, waiting 条件单 and fixed, not yet settled lots. */
  margin_required: z.number(),
  /** Fixed, not yet settled lots marked to the live futures price (gain > 0, loss < 0). */
  floating_pnl: z.number(),
  /** balance + credit_line − margin_required + min(floating_pnl, 0). */
  available: z.number(),
  /** available < 0. */
  margin_call: z.boolean(),
  /** What the customer must add to end the call (0 when not in a call). */
  call_amount: z.number(),
});
export type PricerAccount = z.input<typeof pricerAccount>;

export const pricerAccounts = z.object({ items: z.array(pricerAccount), total_count: z.int() });
export type PricerAccounts = z.input<typeof pricerAccounts>;

/** A row of the funds ledger (append-only). */
export const fundsEntry = z.object({
  id: z.int(),
  pricer_id: z.int(),
  kind: z.enum(FUNDS_KINDS),
  /** Signed: a withdrawal is negative. */
  amount: z.number(),
  balance_after: z.number(),
  note: z.string(),
  actor: z.string(),
  /** 银行流水号 (issue 42); null when none was given. */
  bank_ref: z.string().nullable().optional(),
  /** 复核人: who approved it when the approval policy held it (issue 42); null when it needed no approval. */
  checker: z.string().nullable().optional(),
  /** The trader's ledger (v_funds_ledger): who entered it and who approved it, by name. */
  maker_name: z.string().nullable().optional(),
  checker_name: z.string().nullable().optional(),
  created_at: timestamp,
});
export type FundsEntry = z.input<typeof fundsEntry>;

export const fundsLedgerRequest = viewRequest.extend({ pricer_id: id('请选择客户') });
export type FundsLedgerRequest = z.input<typeof fundsLedgerRequest>;

export const recordFundsResult = z.object({ entry: fundsEntry, account: pricerAccount });
export type RecordFundsResult = z.input<typeof recordFundsResult>;

/** The customer's own account and latest ledger entries. */
export const myFunds = z.object({ account: pricerAccount, items: z.array(fundsEntry) });
export type MyFunds = z.input<typeof myFunds>;

/** Delivered / settled lots of a contract: no more than fixed and not yet settled. */
export const settleLotsInput = z.object(
  {
    contract_id: id('请选择合同'),
    quantity: z
      .number({ error: '结算手数必须大于0' })
      .int({ error: '结算手数必须是整数' })
      .positive({ error: '结算手数必须大于0' })
      .max(1_000_000_000, { error: '结算手数超出范围' }),
    note,
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type SettleLotsInput = z.input<typeof settleLotsInput>;

export const settleLotsResult = z.object({
  contract_id: z.int(),
  executed_quantity: z.int(),
  settled_quantity: z.int(),
  account: pricerAccount,
});
export type SettleLotsResult = z.input<typeof settleLotsResult>;
