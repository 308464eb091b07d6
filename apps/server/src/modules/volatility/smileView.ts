import type { VolatilitySmile } from '@pfp/contract';
import { fittedLine, type SmileBook } from './smileBook';

/** The wire answer of GET /api/rpc/volatility_smile: the product's chains as fitted (docs/smile.md). */
export async function smileView(book: SmileBook, future: string): Promise<VolatilitySmile> {
  const smile = await book.product(future);
  if (!smile) return { product: future, fitted_at: null, chains: [] };
  return {
    product: smile.product,
    fitted_at: smile.at,
    chains: smile.chains.map((c, i) => ({
      future: c.future,
      expiry: c.expiry,
      years: c.fit.T,
      forward: c.forward,
      points: c.points.map((p): [number, number] => [p.strike, p.vol]),
      fitted: fittedLine(smile, i),
      rmse: c.rmse,
      max_error: c.maxError,
      params: c.fit.params,
      flat: c.fit.flat,
      fit_ms: c.fitMs,
    })),
  };
}
