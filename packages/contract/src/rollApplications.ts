import { z } from 'zod';
import { amount } from './margin';
import { id, text, timestamp } from './primitives';
import { viewRequest } from './view';

/**
 * 转月 as the customer's application (issue 42 item 3, docs/fixing.md): the customer applies from the
 * desk, the trader prices it (月差, 转月费, how long the offer holds), the customer accepts the offer in
 * time, and only then is the contract rolled — once.
 */

const lots = z
  .number({ error: '转月数量必须是数字' })
  .int({ error: '转月数量必须是整数' })
  .positive({ error: '转月数量必须大于0' })
  .max(1_000_000, { error: '转月数量超出范围' });

export const applyRollInput = z.object(
  {
    contract_id: id('请选择合同'),
    quantity: lots,
    to_instrument_id: text('请选择转入的期货合约').trim().min(1, { error: '请选择转入的期货合约' }).max(64),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type ApplyRollInput = z.input<typeof applyRollInput>;

/** The offer's validity: 10 seconds … 1 day. */
export const ROLL_OFFER_SECONDS = { min: 10, max: 86_400 } as const;

export const priceRollInput = z.object(
  {
    application_id: id('请选择转月申请'),
    /** 月差, yuan per unit, may be negative; on the new instrument's tick grid (the roll checks it). */
    spread: z
      .number({ error: '请输入月差（可为负数）' })
      .finite({ error: '月差必须是数字' })
      .min(-1e6, { error: '月差超出范围' })
      .max(1e6, { error: '月差超出范围' }),
    fee_per_unit: amount('转月费', { zero: true }).optional().default(0),
    valid_seconds: z
      .number({ error: '报价有效期必须是数字' })
      .int({ error: '报价有效期必须是整数秒' })
      .min(ROLL_OFFER_SECONDS.min, { error: `报价有效期至少 ${ROLL_OFFER_SECONDS.min} 秒` })
      .max(ROLL_OFFER_SECONDS.max, { error: '报价有效期不能超过 1 天' }),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type PriceRollInput = z.input<typeof priceRollInput>;

export const rollApplicationIdInput = z.object(
  { application_id: id('请选择转月申请') },
  { error: '请求参数必须是 JSON 对象' },
);
export type RollApplicationIdInput = z.input<typeof rollApplicationIdInput>;

/**
 * pending: waits for the trader's price; priced: an offer the customer may accept until valid_until
 * (after it the row reads expired, and the trader may price it again); accepted: rolled (to_contract_id).
 */
export const ROLL_APPLICATION_STATUSES = ['pending', 'priced', 'expired', 'accepted'] as const;
export type RollApplicationStatus = (typeof ROLL_APPLICATION_STATUSES)[number];

/** A row of roll-applications / my-roll-applications (v_roll_applications); status is as of the read. */
export const rollApplication = z.object({
  id: z.int(),
  tenant_id: z.int(),
  pricer_id: z.int(),
  pricer_name: z.string().nullable(),
  contract_id: z.int(),
  contract_name: z.string().nullable(),
  direction: z.enum(['BUY', 'SELL']),
  from_instrument_id: z.string(),
  to_instrument_id: z.string(),
  quantity: z.int(),
  multiplier: z.int().nullable(),
  unit: z.string().nullable(),
  basis: z.number(),
  status: z.enum(ROLL_APPLICATION_STATUSES),
  status_str: z.string(),
  spread: z.number().nullable(),
  fee_per_unit: z.number().nullable(),
  /** fee_per_unit × lots × multiplier, 元 (null before the price). */
  fee: z.number().nullable(),
  valid_until: timestamp.nullable(),
  priced_by: z.string().nullable(),
  priced_at: timestamp.nullable(),
  accepted_at: timestamp.nullable(),
  to_contract_id: z.int().nullable(),
  created_at: timestamp,
});
export type RollApplication = z.input<typeof rollApplication>;

const statusCondition = z.preprocess(
  (v) => (v === '' || v === 'all' || v === null ? undefined : v),
  z.enum(ROLL_APPLICATION_STATUSES, { error: '状态应为 pending、priced、expired、accepted 之一' }).optional(),
);
export const rollApplicationsRequest = viewRequest.extend({ status: statusCondition });
export type RollApplicationsRequest = z.input<typeof rollApplicationsRequest>;

/** The live market of a roll: both futures' best bid/ask, and the 月差 (from − to) they make. */
export const rollQuoteInput = z.object(
  {
    contract_id: id('请选择合同'),
    /** Absent: the first later month of the product (the desk's first look). */
    to_instrument_id: text('请选择转入的期货合约').trim().min(1, { error: '请选择转入的期货合约' }).max(64).optional(),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type RollQuoteInput = z.input<typeof rollQuoteInput>;

const side = z.object({
  symbol: z.string(),
  bid: z.number().nullable(),
  ask: z.number().nullable(),
  last: z.number().nullable(),
});
export const rollQuote = z.object({
  from: side,
  to: side,
  /** from.bid − to.ask … from.ask − to.bid: the 月差 one could roll at in the market now (null: a side unknown). */
  spread_low: z.number().nullable(),
  spread_high: z.number().nullable(),
  multiplier: z.int(),
  unit: z.string().nullable(),
  price_tick: z.number(),
  /** The months the contract may roll to: the product's other live futures, in order. */
  months: z.array(z.string()),
});
export type RollQuote = z.input<typeof rollQuote>;

/**
 * The auto rule with a spread band (docs/roles.md): when enabled, a customer's application is priced at
 * once at the live 月差 on the side the company rolls its hedge at (a buyer's contract: from.ask − to.bid;
 * a seller's: from.bid − to.ask), when that side is within max_spread_deviation of the 月差 of the two last
 * prices; otherwise (a side unknown, the market wide or moved) it is left to the trader. Off by default.
 */
export const setRollAutoPricingInput = z.object(
  {
    enabled: z.boolean({ error: '请选择是否启用自动报价' }),
    /** 元 per unit: how far the priced side may be from the last prices' 月差. */
    max_spread_deviation: z
      .number({ error: '月差偏离上限必须是数字' })
      .finite({ error: '月差偏离上限必须是数字' })
      .min(0, { error: '月差偏离上限不能为负数' })
      .max(1e6, { error: '月差偏离上限超出范围' }),
    fee_per_unit: amount('转月费', { zero: true }).optional().default(0),
    valid_seconds: z
      .number({ error: '报价有效期必须是数字' })
      .int({ error: '报价有效期必须是整数秒' })
      .min(ROLL_OFFER_SECONDS.min, { error: `报价有效期至少 ${ROLL_OFFER_SECONDS.min} 秒` })
      .max(ROLL_OFFER_SECONDS.max, { error: '报价有效期不能超过 1 天' }),
  },
  { error: '请求参数必须是 JSON 对象' },
);
export type SetRollAutoPricingInput = z.input<typeof setRollAutoPricingInput>;
export const rollAutoPricing = z.object({
  enabled: z.boolean(),
  max_spread_deviation: z.number(),
  fee_per_unit: z.number(),
  valid_seconds: z.int(),
});
export type RollAutoPricing = z.input<typeof rollAutoPricing>;

/** How the customer agreed to a roll the trader enters directly (roll-contract): agreed off the platform. */
export const ROLL_AGREEMENTS = ['phone', 'written', 'meeting', 'other'] as const;
export type RollAgreement = (typeof ROLL_AGREEMENTS)[number];
export const ROLL_AGREEMENT_LABELS: Record<RollAgreement | 'application', string> = {
  phone: '电话',
  written: '书面',
  meeting: '面谈',
  other: '其他',
  application: '客户在线申请',
};
