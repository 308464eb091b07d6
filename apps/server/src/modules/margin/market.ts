import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import type { AppContext } from '../context';

/** The live futures price of an instrument (undefined while not known). */
export type LastPriceOf = (symbol: string) => number | undefined;

/**
 * The market data the margin rules price with, per database: the margin capability records its
 * context's source when it is registered (modules/index.ts), so the rules called from the orders and
 * conditional capabilities (`assertMargin`) find it without a parameter of their own. Keyed by the
 * database because tests open many apps in one process.
 */
const markets = new WeakMap<Kysely<DB>, LastPriceOf>();

export function rememberMarket(ctx: Pick<AppContext, 'db' | 'quote'>) {
  markets.set(ctx.db, lastPriceFrom(ctx));
}

export function marketOf(db: Kysely<DB>): LastPriceOf {
  return markets.get(db) ?? (() => undefined);
}

const positive = (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

export function lastPriceFrom(ctx: Pick<AppContext, 'quote'>): LastPriceOf {
  return (symbol) => positive(ctx.quote?.(symbol)?.last_price);
}
