import { z } from 'zod';

/**
 * 含权报价 (issue 44, docs/pricing.md): one call prices a vanilla, Asian, daily-barrier or accumulator structure on a
 * future, off the live market of `structure.instrument_id` or a what-if `market`. The schema checks each field's
 * form; the rules between fields (the barrier's side, the window against the valuation date, …) are the server's.
 */
export const STRUCTURE_KINDS = ['vanilla', 'asian', 'barrier', 'accumulator'] as const;
export const BARRIER_TYPES = ['up_in', 'up_out', 'down_in', 'down_out'] as const;

const date = (label: string) =>
  z
    .string({ error: `${label}必须是日期（YYYY-MM-DD）` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}必须是日期（YYYY-MM-DD）` });
const positive = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .finite({ error: `${label}必须是有限数` })
    .positive({ error: `${label}必须大于 0` });

export const structureTerms = z.object(
  {
    kind: z.enum(STRUCTURE_KINDS, { error: '结构类型应为 vanilla、asian、barrier 或 accumulator' }),
    instrument_id: z.string({ error: '请选择期货合约' }).min(1, { error: '请选择期货合约' }),
    option_type: z.enum(['call', 'put'], { error: '期权类型应为 call 或 put' }).optional(),
    strike: positive('行权价').optional(),
    expiry: date('到期日').optional(),
    average_start: date('均价起始日').optional(),
    average_end: date('均价结束日').optional(),
    fixings: z
      .array(positive('已定价格'), { error: '已定价格必须是数字列表' })
      .max(400, { error: '已定价格最多 400 个' })
      .optional(),
    barrier: positive('障碍价').optional(),
    barrier_type: z.enum(BARRIER_TYPES, { error: '障碍类型应为 up_in、up_out、down_in 或 down_out' }).optional(),
    rebate: z.number({ error: '返还金额必须是数字' }).finite().min(0, { error: '返还金额不能为负' }).optional(),
    side: z.enum(['buy', 'sell'], { error: '累计方向应为 buy（累购）或 sell（累沽）' }).optional(),
    quantity_per_day: positive('每日数量').optional(),
    leverage: z.number({ error: '杠杆必须是数字' }).finite({ error: '杠杆必须是有限数' }).optional(),
    start: date('起始日').optional(),
    end: date('结束日').optional(),
    solve: z.enum(['strike'], { error: 'solve 只能为 strike' }).optional(),
  },
  { error: '结构条款必须是 JSON 对象' },
);
export type StructureTerms = z.input<typeof structureTerms>;

export const whatIfMarket = z.object(
  {
    forward: positive('期货价格'),
    vol: positive('波动率'),
    rate: z.number({ error: '利率必须是数字' }).finite({ error: '利率必须是有限数' }),
    valuation_date: date('估值日'),
  },
  { error: '行情参数必须是 JSON 对象' },
);

export const priceStructureInput = z.object(
  { structure: structureTerms, market: whatIfMarket.optional() },
  { error: '请求参数必须是 JSON 对象' },
);
export type PriceStructureInput = z.input<typeof priceStructureInput>;

export const priceStructureResult = z.object({
  /** 元 per unit of the future for options; 元 for the whole accumulator. */
  price: z.number(),
  /** Per unit of the future (the accumulator's for the whole structure). */
  delta: z.number(),
  gamma: z.number(),
  /** Per 1.00 of volatility. */
  vega: z.number(),
  /** Per year of calendar time. */
  theta: z.number(),
  forward: z.number(),
  vol: z.number(),
  rate: z.number(),
  valuation_date: z.string(),
  /**
   * Where the volatility came from: the what-if market, the product's fitted smile surface at the structure's strike
   * and date (`vol_point` says where), or — when no chain of the product has enough quotes to fit — the nearest
   * chain's at-the-money implied volatility.
   */
  vol_source: z.enum(['market', 'atm', 'surface']),
  engine: z.string(),
  /** The engines are deterministic: no standard error. */
  standard_error: z.number().nullable(),
  /** The zero-cost strike (accumulator with solve: 'strike'). */
  strike: z.number().optional(),
  /** An accumulator's observations still to come (trading days): at most quantity_per_day × this is accumulated. */
  observations: z.number().optional(),
  /** With vol_source 'surface': where on the surface the vol was read (docs/smile.md). */
  vol_point: z
    .object({
      strike: z.number(),
      /** The date read (the structure's expiry, the average's or the accumulator's last day). */
      date: z.string(),
      /** ln(strike / forward) and years to the date's close. */
      log_moneyness: z.number(),
      years: z.number(),
      total_variance: z.number(),
      /** slice: a chain's expiry; interpolated: linear in total variance between two; before_first / after_last. */
      rule: z.enum(['slice', 'interpolated', 'before_first', 'after_last']),
      /** The chains (futures) whose slices were used. */
      chains: z.array(z.string()),
    })
    .optional(),
  /** A sentence for the trader about how the figures were made (e.g. the at-the-money volatility in place of a smile). */
  note: z.string().optional(),
  /** The future's multiplier (units per lot) and quantity unit (吨 …), when the catalogue has it: the console's 元 and 手. */
  multiplier: z.number().optional(),
  unit: z.string().nullable().optional(),
  /**
   * The chain's market points (live market only): Black-76 implied vols of the listed strikes of the expiry nearest
   * the structure's last date (the mean of the call's and the put's where both have a price).
   */
  chain_vols: z
    .object({ expiry: z.string(), points: z.array(z.object({ strike: z.number(), vol: z.number() })) })
    .optional(),
});
export type PriceStructureResult = z.input<typeof priceStructureResult>;
