import { z } from 'zod';
import { text } from './primitives';

/**
 * The fitted smiles of a future's product (issue 44 §1, docs/smile.md): GET /api/rpc/volatility_smile?symbol=…,
 * public like the volatility page's curves. Per option chain (one future's options, one expiry) the market points,
 * the served SVI slice over the quoted strikes, and the fit's error. Vols are fractions (0.2345 = 23.45 %).
 */
export const volatilitySmileQuery = z.object({
  symbol: text('缺少参数 symbol').min(1, { error: '缺少参数 symbol' }).max(40, { error: '参数 symbol 过长' }),
});
export type VolatilitySmileQuery = z.input<typeof volatilitySmileQuery>;

const strikeVol = z.tuple([z.number(), z.number()]);

export const smileChain = z.object({
  /** The chain's future, its options' expiry (YYYY-MM-DD), years to it and the future's price the fit used. */
  future: z.string(),
  expiry: z.string(),
  years: z.number(),
  forward: z.number(),
  /** [strike, mid implied vol] of the quoted strikes (the out-of-the-money side's where both quote). */
  points: z.array(strikeVol),
  /** [strike, served vol] across the quoted range: the line the surface prices on. */
  fitted: z.array(strikeVol),
  /** Fitted against quoted vol: root-mean-square and largest absolute difference (fractions of vol). */
  rmse: z.number(),
  max_error: z.number(),
  /** Raw SVI parameters of the chain's own fit (before the calendar envelope). */
  params: z.object({ a: z.number(), b: z.number(), rho: z.number(), m: z.number(), sigma: z.number() }),
  /** The constrained fit failed its check and the slice is flat at the at-the-money variance. */
  flat: z.boolean(),
  /** Time the fit took (ms). */
  fit_ms: z.number(),
});
export type SmileChain = z.input<typeof smileChain>;

export const volatilitySmile = z.object({
  /** Exchange.product, e.g. SHFE.cu. */
  product: z.string(),
  /** When the fitted quotes were read (epoch ms); null when no chain has enough points to fit. */
  fitted_at: z.number().nullable(),
  chains: z.array(smileChain),
});
export type VolatilitySmile = z.input<typeof volatilitySmile>;
