import { z } from 'zod';
import { contract } from './entities';
import { isCalendarDay } from './fixing';
import { amount } from './margin';
import { id, text, timestamp } from './primitives';
import { ROLL_AGREEMENTS } from './rollApplications';

/**
 * A contract's whole life (issue 32, docs/fixing.md): 转月 roll, 延期 extension, 均价点价 average
 * pricing. Additions to the SPEC's calls.
 */

export const PRICING_MODES = ['point', 'average'] as const;
export type PricingMode = (typeof PRICING_MODES)[number];
export const PRICING_MODE_LABELS: Record<PricingMode, string> = { point: '点价', average: '均价点价' };

/**
 * What a 均价 contract averages (issue 43 item 2, docs/fixing.md): 'settlement' 结算价 — the exchange's
 * daily settlement price, booked at the close; 'fills' 成交价 — the desk's own market order at the fixing
 * time. A new average contract takes 'settlement' unless told otherwise (DEFAULT_AVERAGE_BASIS).
 */
export const AVERAGE_BASES = ['settlement', 'fills'] as const;
export type AverageBasis = (typeof AVERAGE_BASES)[number];
export const DEFAULT_AVERAGE_BASIS: AverageBasis = 'settlement';

const day = (label: string) =>
  text(`请选择${label}`)
    .trim()
    .min(1, { error: `请选择${label}` })
    .refine(isCalendarDay, { error: `${label}应为有效日期（YYYY-MM-DD）` });

const lots = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .int({ error: `${label}必须是整数` })
    .positive({ error: `${label}必须大于0` });

/** 点价方式 and the average window: what create-contract takes on top of the terms. */
export const pricingTerms = {
  /** 'point' (default): fixed by the customer; 'average': by the server, an equal part each trading day. */
  pricing_mode: z.enum(PRICING_MODES, { error: '点价方式应为 point 或 average' }).optional().default('point'),
  /** The window's first and last day (Beijing calendar days; its trading days are fixed). */
  average_start: z.preprocess((v) => (v === '' ? undefined : v), day('均价开始日').optional()),
  average_end: z.preprocess((v) => (v === '' ? undefined : v), day('均价结束日').optional()),
  /** 均价依据: absent on an average contract → DEFAULT_AVERAGE_BASIS; refused on a point contract. */
  average_basis: z
    .enum(AVERAGE_BASES, { error: '均价依据 average_basis 应为 settlement（结算价）或 fills（成交价）' })
    .optional(),
};

/** 转月: move unfixed lots to another month of the same product at a 月差 added to the basis. */
export const rollContractInput = z
  .object(
    {
      contract_id: id('请选择合同'),
      to_instrument_id: text('请选择转入的期货合约').trim().min(1, { error: '请选择转入的期货合约' }).max(64),
      quantity: lots('转月数量'),
      /** 月差, yuan per unit, may be negative; on the new instrument's tick grid. */
      spread: z
        .number({ error: '请输入月差（可为负数）' })
        .finite({ error: '月差必须是数字' })
        .min(-1e6, { error: '月差超出范围' })
        .max(1e6, { error: '月差超出范围' }),
      /** 转月费, 元 per unit (吨, 克 …) of the rolled lots. */
      fee_per_unit: amount('转月费', { zero: true }).optional().default(0),
      /** The new contract's 点价截止日; default: a week before the new month's last trading day. */
      fixing_deadline: day('新点价截止日').optional(),
      /** How the customer agreed to this roll off the platform (电话/书面/面谈/其他): kept on the 转月确认单. */
      agreed_via: z.enum(ROLL_AGREEMENTS, { error: '请选择客户同意转月的方式（电话、书面、面谈或其他）' }),
      /** Who agreed and when, the document's number … (required with 其他). */
      agreed_note: text('说明必须是文本').trim().max(200, { error: '说明最多 200 个字符' }).optional().default(''),
    },
    { error: '请求参数必须是 JSON 对象' },
  )
  .refine((v) => v.agreed_via !== 'other' || v.agreed_note.length > 0, {
    error: '客户同意方式为其他时，请填写说明',
    path: ['agreed_note'],
  });
export type RollContractInput = z.input<typeof rollContractInput>;

/** 延期: a later fixing deadline, for a fee (元, the whole fee). */
export const extendDeadlineInput = z.object(
  {
    contract_id: id('请选择合同'),
    fixing_deadline: day('新点价截止日'),
    fee: amount('延期费', { zero: true }).optional().default(0),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type ExtendDeadlineInput = z.input<typeof extendDeadlineInput>;

/** The 转月确认单: what the customer agreed, printable from their history. */
export const rollConfirmation = z.object({
  confirmation_no: z.string(),
  from_contract_id: z.int(),
  to_contract_id: z.int(),
  from_instrument_id: z.string(),
  to_instrument_id: z.string(),
  direction: z.enum(['BUY', 'SELL']),
  quantity: z.int(),
  multiplier: z.int(),
  unit: z.string().nullable(),
  old_basis: z.number(),
  new_basis: z.number(),
  spread: z.number(),
  fee_per_unit: z.number(),
  /** fee_per_unit × lots × multiplier, 元. */
  fee: z.number(),
  fixing_deadline: z.string(),
  /** How the customer agreed: 'application' (their accepted offer) or the trader's agreed_via. Absent before issue 42. */
  agreed_via: z.enum([...ROLL_AGREEMENTS, 'application']).optional(),
  agreed_note: z.string().optional(),
  /** The customer's roll application it ran (agreed_via 'application'). */
  application_id: z.int().optional(),
});
export type RollConfirmation = z.input<typeof rollConfirmation>;

/** A 延期's record in the contract's history (contract_events.payload of kind 'extension'). */
export const extensionEvent = z.object({
  from: z.string().nullable().default(null),
  to: z.string(),
  fee: z.number().default(0),
  reopened: z.boolean().optional(),
});
export type ExtensionEvent = z.input<typeof extensionEvent>;

export const rollContractResult = z.object({ from: contract, to: contract, confirmation: rollConfirmation });
export type RollContractResult = z.input<typeof rollContractResult>;

export const contractIdInput = z.object({ contract_id: id('请选择合同') }, { error: '请求参数必须是 JSON 对象' });
export type ContractIdInput = z.input<typeof contractIdInput>;

/** Lots a roll cannot take while they are held: the trader cancels these first. */
export const rollBlockers = z.object({
  orders: z.array(z.object({ id: z.int(), volume: z.int(), status_str: z.string() })),
  conditional_orders: z.array(z.object({ id: z.int(), quantity: z.int() })),
});

export const SCHEDULE_STATUSES = ['filled', 'working', 'planned', 'skipped'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** One trading day of an average contract's window. */
export const scheduleDay = z.object({
  date: z.string(),
  planned_lots: z.int(),
  fixed_lots: z.int(),
  /** The day's price (futures): the fill, or for 'settlement' the day's settlement price; null before. */
  price: z.number().nullable(),
  /** The lot-weighted average futures price of the fills up to and with this day. */
  average_so_far: z.number().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  order_id: z.int().nullable(),
});
export type ScheduleDay = z.input<typeof scheduleDay>;

export const contractSchedule = z.object({
  contract_id: z.int(),
  pricing_mode: z.enum(PRICING_MODES),
  average_start: z.string().nullable(),
  average_end: z.string().nullable(),
  /** 均价依据 of an average contract (null for a point one). */
  average_basis: z.enum(AVERAGE_BASES).nullable(),
  /** 'HH:MM' Beijing time: AVERAGE_FIXING_TIME for 'fills', the close (15:00) for 'settlement'. */
  fixing_time: z.string(),
  total_quantity: z.int(),
  executed_quantity: z.int(),
  /** Lot-weighted average futures price of the fills; null before the first. */
  avg_price: z.number().nullable(),
  /** avg_price + basis. */
  avg_fixed_price: z.number().nullable(),
  basis: z.number(),
  days: z.array(scheduleDay),
});
export type ContractSchedule = z.input<typeof contractSchedule>;

export const HISTORY_KINDS = ['created', 'fix', 'roll_in', 'roll_out', 'extension'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** One event of a contract's life, oldest first. */
export const historyEvent = z.object({
  at: timestamp,
  kind: z.enum(HISTORY_KINDS),
  /** What happened, in Chinese, with its units. */
  text: z.string(),
  order_id: z.int().nullable(),
  roll: rollConfirmation.nullable(),
  fee: z.number(),
});
export type HistoryEvent = z.input<typeof historyEvent>;

export const contractHistory = z.object({ contract_id: z.int(), items: z.array(historyEvent) });
export type ContractHistory = z.input<typeof contractHistory>;
