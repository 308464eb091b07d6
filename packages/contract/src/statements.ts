import { z } from 'zod';
import { isCalendarDay } from './fixing';
import { id, text, timestamp } from './primitives';

/**
 * Fee receivables (应收费用) and the statement that balances (对账单), issue 41 items 4 and 5
 * (docs/statements.md). A roll or extension fee is owed, not taken from the customer's funds: the
 * trader collects it from the funds, offsets it or waives it. A statement of a period shows, for one
 * customer, opening + movements = closing for funds, fees and the lots of every contract open in it;
 * the customer confirms it or disputes it with a note.
 */

export const FEE_STATUSES = ['open', 'collected', 'offset', 'waived'] as const;
export type FeeStatus = (typeof FEE_STATUSES)[number];

export const feeReceivable = z.object({
  id: z.number(),
  pricer_id: z.number(),
  /** 客户全称, the login name while it is not filled in. */
  pricer_name: z.string(),
  contract_id: z.number(),
  contract_name: z.string(),
  kind: z.enum(['roll', 'extension']),
  amount: z.number(),
  note: z.string(),
  created_at: timestamp,
  status: z.enum(FEE_STATUSES),
  settled_at: timestamp.nullable(),
  settle_note: z.string(),
  ledger_entry_id: z.number().nullable(),
});
export type FeeReceivable = z.input<typeof feeReceivable>;

/** The trader's fee list: one customer or all, open ones or all. */
export const feeReceivablesRequest = z.object({
  pricer_id: id().optional(),
  status: z.enum([...FEE_STATUSES, 'all'], { error: '状态应为 open、collected、offset、waived 或 all' }).optional(),
});
export const feeReceivables = z.object({
  items: z.array(feeReceivable),
  total_count: z.number(),
  /** Σ of the open fees listed, 元. */
  outstanding: z.number(),
});

const settleNote = text('说明必须是文本').trim().max(200, { error: '说明不能超过 200 个字符' }).optional().default('');

/**
 * collect: taken from the customer's funds as an 调整 (no more than their money no margin or loss holds,
 * so a collection never puts them in a margin call); offset: settled outside the platform (against the
 * goods' payment); waive: 减免. Offset and waive need a note.
 */
export const settleFeeInput = z
  .object({
    fee_id: id('请选择费用'),
    method: z.enum(['collect', 'offset', 'waive'], { error: '处理方式应为 collect、offset 或 waive' }),
    note: settleNote,
  })
  .superRefine((v, ctx) => {
    if (v.method !== 'collect' && !v.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: '冲抵或减免请填写说明' });
  });
export type SettleFeeInput = z.input<typeof settleFeeInput>;

const day = (label: string) =>
  text(`请选择${label}`)
    .trim()
    .min(1, { error: `请选择${label}` })
    .refine(isCalendarDay, { error: `${label}格式应为 YYYY-MM-DD` });

const period = {
  start_date: day('开始日期'),
  end_date: day('结束日期'),
};
const periodOrder = (v: { start_date: string; end_date: string }, ctx: z.RefinementCtx) => {
  if (v.start_date > v.end_date)
    ctx.addIssue({ code: 'custom', path: ['start_date'], message: '开始日期不能晚于结束日期' });
};

export const traderStatementRequest = z.object({ pricer_id: id('请选择客户'), ...period }).superRefine(periodOrder);
export const pricerStatementRequest = z.object(period).superRefine(periodOrder);
export type TraderStatementRequest = z.input<typeof traderStatementRequest>;

/** The customer's answer; `digest` is the statement they read (a changed statement is refused 409). */
export const respondStatementInput = z
  .object({
    ...period,
    digest: text('对账单版本无效').regex(/^[0-9a-f]{64}$/, { error: '对账单版本无效' }),
    response: z.enum(['confirmed', 'disputed'], { error: '请选择对账确认或有异议' }),
    note: text('说明必须是文本').trim().max(500, { error: '说明不能超过 500 个字符' }).optional().default(''),
  })
  .superRefine((v, ctx) => {
    periodOrder(v, ctx);
    if (v.response === 'disputed' && !v.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: '请填写异议说明' });
  });
export type RespondStatementInput = z.input<typeof respondStatementInput>;

const ledgerLine = z.object({
  id: z.number(),
  created_at: timestamp,
  kind: z.enum(['deposit', 'withdraw', 'adjust']),
  /** A collected fee's entry (an 调整 the trader confirmed). */
  fee_id: z.number().nullable(),
  amount: z.number(),
  balance_after: z.number(),
  note: z.string(),
});

const statementContract = z.object({
  contract_id: z.number(),
  contract_name: z.string(),
  product_name: z.string(),
  instrument_id: z.string(),
  direction: z.enum(['BUY', 'SELL']),
  status: z.string(),
  basis: z.number(),
  fixing_deadline: z.string().nullable(),
  multiplier: z.number().nullable(),
  unit: z.string().nullable(),
  /** Unfixed lots: opening + added (created or rolled in) − fixed − rolled out = closing. */
  opening_unfixed: z.number(),
  added: z.number(),
  fixed: z.number(),
  rolled_out: z.number(),
  closing_unfixed: z.number(),
  /** Fixed lots: opening + fixed = closing. */
  opening_fixed: z.number(),
  closing_fixed: z.number(),
  /** The period's fixes: Σ fixed price × lots / Σ lots and Σ fixed price × lots × multiplier (元). */
  avg_fixed_price: z.number().nullable(),
  fixed_amount: z.number(),
  /** Fees charged on the contract in the period (元). */
  fees: z.number(),
});
export type StatementContract = z.input<typeof statementContract>;

export const statementResponse = z.object({
  response: z.enum(['confirmed', 'disputed']),
  note: z.string(),
  created_at: timestamp,
  /** false: answered for an earlier content of the statement (it changed since). */
  current: z.boolean(),
});

export const statement = z.object({
  pricer_id: z.number(),
  pricer_name: z.string(),
  /** 客户全称 (the login name while it is not filled in). */
  pricer_full_name: z.string(),
  company_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  funds: z.object({
    opening: z.number(),
    deposits: z.number(),
    withdrawals: z.number(),
    adjustments: z.number(),
    fees_collected: z.number(),
    closing: z.number(),
    entries: z.array(ledgerLine),
  }),
  fees: z.object({
    opening: z.number(),
    charged: z.number(),
    collected: z.number(),
    offset: z.number(),
    waived: z.number(),
    closing: z.number(),
    /** Fees charged or settled in the period, and those still open at its end. */
    items: z.array(feeReceivable),
  }),
  lots: z.object({
    opening_unfixed: z.number(),
    added: z.number(),
    fixed: z.number(),
    rolled_out: z.number(),
    closing_unfixed: z.number(),
  }),
  contracts: z.array(statementContract),
  /** sha256 of the figures: what a response answers. */
  digest: z.string(),
  response: statementResponse.nullable(),
});
export type Statement = z.input<typeof statement>;

export const settleFeeResult = feeReceivable;
