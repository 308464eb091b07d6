import type { AppContext } from '../context';

/** The live futures price of an instrument (undefined while not known). */
export type LastPriceOf = (symbol: string) => number | undefined;

/** No market data: every price unknown (a market order on a contract with a margin rate is refused). */
export const noMarket: LastPriceOf = () => undefined;

const positive = (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

/**
 * The margin rules' market: the capability context's quote source, handed by each capability to the
 * rules it calls (orders, 条件单, accounts), never looked up behind their back.
 */
export function lastPriceFrom(ctx: Pick<AppContext, 'quote'>): LastPriceOf {
  return (symbol) => positive(ctx.quote?.(symbol)?.last_price);
}
