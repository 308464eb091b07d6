import { z } from 'zod';
import { direction } from './entities';
import { hasAtMostDecimals, id, text, timestamp } from './primitives';
import { viewRequest } from './view';

/**
 * The business of price fixing (docs/fixing.md), beside SPEC §7's calls: contract terms, price
 * confirmations (点价确认单), exposure (敞口), statements (对账单) and the audit log viewer.
 */

/** The largest |basis| accepted: far beyond any real basis, small enough for numeric(18, 4). */
export const MAX_BASIS = 1_000_000;

/** A real calendar day written 'YYYY-MM-DD'. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whether a yuan amount has at most 2 decimals (fen), tolerant of binary floating point (0.29 × 100). */
export function isWholeFen(value: number): boolean {
  return hasAtMostDecimals(value, 2);
}

/**
 * 基差: a commercial premium in 元 per unit of the goods, sign allowed, at most 2 decimals. Not tied to
 * the futures tick (issue 29): the tick binds the futures order, the basis is quoted in fen.
 */
export const basis = z
  .number({ error: '请输入基差（可为负数）' })
  .finite({ error: '基差必须是数字' })
  .min(-MAX_BASIS, { error: '基差超出范围（绝对值不超过 1,000,000 元）' })
  .max(MAX_BASIS, { error: '基差超出范围（绝对值不超过 1,000,000 元）' })
  .refine(isWholeFen, { error: '基差最多两位小数（精确到分）' });

/** 点价截止日 (today or later is checked with the clock). */
export const fixingDeadline = text('请选择点价截止日')
  .trim()
  .min(1, { error: '请选择点价截止日' })
  .refine(isCalendarDay, { error: '点价截止日应为有效日期（YYYY-MM-DD）' });

/** The terms create-contract takes on top of SPEC §7's fields. */
export const contractTerms = z.object({ basis, fixing_deadline: fixingDeadline });

// ---- Confirmations -------------------------------------------------------------------------------

export const confirmationInput = z.object({ order_id: id() }, { error: '请求参数必须是 JSON 对象' });
export type ConfirmationInput = z.input<typeof confirmationInput>;

export const confirmation = z.object({
  order_id: z.int(),
  /** QR{yyyymmdd of the first fill, Beijing}-{order id, 6 digits}. */
  confirmation_no: z.string(),
  company_name: z.string(),
  pricer_id: z.int(),
  pricer_name: z.string(),
  contract_id: z.int(),
  contract_name: z.string(),
  product_name: z.string(),
  instrument_id: z.string(),
  instrument_name: z.string().nullable(),
  direction,
  lots: z.int(),
  futures_price: z.number(),
  basis: z.number(),
  fixed_price: z.number(),
  multiplier: z.int().nullable(),
  amount: z.number().nullable(),
  /** The last fill. */
  fixed_at: timestamp,
  ordered_at: timestamp,
  status: z.string(),
  /** When the customer acknowledged it (确认无误); null while pending (issue 29). */
  acknowledged_at: timestamp.nullable(),
  /** What lots × multiplier count in (吨, 克 …); null for index and bond futures. */
  unit: z.string().nullable().optional(),
  /** 客户全称, or the username when the trader has not filled it in (issue 29). */
  pricer_full_name: z.string().optional(),
  /** 点价人: the 授权点价人 who fixed (or made the 条件单), by name; null for orders before issue 43 item 4. */
  fixed_by: z.string().nullable().optional(),
  /** A day's 均价点价: what it averages ('settlement' 结算价 | 'fills' 成交价); null for a customer's own fix (issue 43). */
  average_basis: z.enum(['settlement', 'fills']).nullable().optional(),
});
export type Confirmation = z.input<typeof confirmation>;
/** A confirmation as the server holds it (timestamps as Dates). */
export type ConfirmationRecord = z.output<typeof confirmation>;

// ---- Exposure ------------------------------------------------------------------------------------

export const exposureItem = z.object({
  instrument_id: z.string(),
  product_name: z.string().nullable(),
  /** 'YYYY-MM'. */
  delivery_month: z.string().nullable(),
  fixed_buy: z.int(),
  fixed_sell: z.int(),
  unfixed_buy: z.int(),
  unfixed_sell: z.int(),
  hedge_long: z.int().nullable(),
  hedge_short: z.int().nullable(),
  /** (hedge_long − hedge_short) − (fixed_buy − fixed_sell); null when the hedge is unknown. */
  mismatch: z.int().nullable(),
  /** The instrument's multiplier and unit (吨 …): lots × multiplier is the goods (issue 29). */
  multiplier: z.int().nullable().optional(),
  unit: z.string().nullable().optional(),
});
export type ExposureItem = z.infer<typeof exposureItem>;

export const exposure = z.object({
  items: z.array(exposureItem),
  total_count: z.int(),
  hedge_source: z.enum(['sim', 'account']).nullable(),
  hedge_message: z.string().optional(),
});
export type Exposure = z.infer<typeof exposure>;

// ---- Statements ----------------------------------------------------------------------------------

const day = (label: string) =>
  text(`请选择${label}`)
    .trim()
    .min(1, { error: `请选择${label}` })
    .refine(isCalendarDay, { error: `${label}格式应为 YYYY-MM-DD` });

/** GET …/export/fixings: Beijing days, inclusive, on the confirmation's last fill. */
export const statementQuery = z
  .object({
    start_date: day('开始日期'),
    end_date: day('结束日期'),
    format: z.enum(['xlsx', 'csv'], { error: '导出格式应为 xlsx 或 csv' }).optional().default('xlsx'),
    /** Trader only: one customer (absent or empty: every customer). A query string carries digits as text. */
    pricer_id: text('pricer_id 必须是正整数')
      .trim()
      .regex(/^\d{0,10}$/, { error: 'pricer_id 必须是正整数' })
      .transform((v) => (v === '' ? undefined : Number(v)))
      .pipe(id().optional())
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.start_date > v.end_date) {
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: '开始日期不能晚于结束日期' });
    }
  });
export type StatementQuery = z.input<typeof statementQuery>;

// ---- Audit log -----------------------------------------------------------------------------------

/** Empty strings and null mean "no condition" (as in my-orders). */
const condition = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

const dayParam = (label: string) =>
  condition(text().regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}格式应为 YYYY-MM-DD` }));

/** The audit-log view: the view params plus exact action / actor and a Beijing date range. */
export const auditLogRequest = viewRequest.extend({
  action: condition(text().trim().max(100)),
  actor: condition(text().trim().max(200)),
  start_date: dayParam('开始日期'),
  end_date: dayParam('结束日期'),
});
export type AuditLogRequest = z.input<typeof auditLogRequest>;

/** GET /api/trader/export/audit-log: the page's filters as a query string (issue 30: xlsx of the filtered log). */
export const auditExportQuery = z.object({
  action: condition(text().trim().max(100)),
  actor: condition(text().trim().max(200)),
  start_date: dayParam('开始日期'),
  end_date: dayParam('结束日期'),
  /** The table's column filter expression (the views engine's language). */
  filter: text().max(2000).optional(),
});
export type AuditExportQuery = z.input<typeof auditExportQuery>;

export const auditRow = z.object({
  id: z.int(),
  actor: z.string(),
  actor_name: z.string(),
  actor_kind: z.enum(['trader', 'pricer', 'system']),
  action: z.string(),
  /** The action as the trader reads it, in Chinese (issue 30). */
  action_label: z.string(),
  /** The audited payload as JSON text (secrets redacted). */
  payload: z.string(),
  created_at: timestamp,
  /** Where a trader's or customer's action came from (NULL for the server's own, and rows before issue 30). */
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The names of the contract and the customer the payload's ids name (issue 30), when they exist. */
  contract_name: z.string().nullable(),
  customer_name: z.string().nullable(),
});
export type AuditRow = z.input<typeof auditRow>;
