import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { DomainError } from '../../platform/errors';
import { yuan } from './arithmetic';
import type { LastPriceOf } from './market';

/** The Chinese refusals of a fixing the customer's money does not back (409 insufficient_margin). */
export const MARGIN_MESSAGES = {
  inCall: (call: number) => `账户处于追加保证金状态，需追加 ${yuan(call)} 元后才能点价`,
  /** The figures of a shortfall (a 条件单 refused when it fires names them too). */
  shortBy: (need: number, available: number, shortfall: number) =>
    `本次点价需保证金 ${yuan(need)} 元，可用 ${yuan(available)} 元，还差 ${yuan(shortfall)} 元`,
  short: (need: number, available: number, shortfall: number) =>
    `可用保证金不足：${MARGIN_MESSAGES.shortBy(need, available, shortfall)}`,
  noMarket: '暂无行情，无法计算市价点价所需的保证金，请以限价点价',
} as const;

/** The 409 of a fixing the money does not back; `reason`: why, without the leading 可用保证金不足. */
export class MarginRefusal extends DomainError {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super('conflict', message, { code: 'insufficient_margin' });
  }
}

/**
 * The margin check of a fixing (an order, or a 条件单 from its creation), as SQL to run inside the
 * fixing's statement or transaction, after its lots are frozen and before its row is written: the
 * database function margin_check (modules/margin/sql.ts). On a contract with a margin rate it locks the
 * customer's account row (concurrent fixings of one customer are checked one after the other, each
 * seeing what the one before it holds) and refuses when the margin it needs — (price, or the live price
 * for a market order, + basis) × lots × multiplier × rate — is more than available, or when the
 * customer is in a margin call; on a contract with rate 0 only a recorded margin call refuses. The
 * refusal raises: the statement (or transaction) rolls back and nothing changes. Answers (boolean)
 * whether the contract carries a margin rate. `prices`: from `withMarginPrices`.
 */
export function marginCheckSql(
  who: { tenantId: number; pricerId: number },
  contractId: number,
  order: { quantity: number; price: number },
  prices: string,
  /** A 条件单 that fires: checked without the margin it held while waiting. */
  conditionalId?: number,
): RawBuilder<boolean> {
  return sql<boolean>`margin_check(${who.tenantId}::integer, ${who.pricerId}::integer, ${contractId}::integer,
    ${order.quantity}::integer, ${order.price}::numeric, ${prices}::jsonb${
      conditionalId === undefined ? sql`` : sql`, ${conditionalId}::bigint`
    })`;
}

/** marginCheckSql on its own, in the caller's transaction. */
export async function assertMargin(
  tx: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  contractId: number,
  order: { quantity: number; price: number },
  prices: string,
  conditionalId?: number,
): Promise<{ margined: boolean }> {
  const { rows } = await sql<{
    margined: boolean;
  }>`select ${marginCheckSql(who, contractId, order, prices, conditionalId)} as margined`.execute(tx);
  return { margined: Boolean(rows[0]?.margined) };
}

/**
 * The instruments, besides the fixing's own, whose live prices a customer's check needs (their fixed
 * lots and open market orders): learned from the check's asks, per database (tests open many in one
 * process) and customer; bounded. A hint: the check asks again for anything missing.
 */
const heldInstruments = new WeakMap<Kysely<DB>, Map<number, Set<string>>>();
const HELD_MAX = 10_000;

/**
 * Runs a fixing (`run`, whose SQL calls marginCheckSql with `prices(its instrument)`): the live prices
 * of the fixing's instrument and of the customer's known holdings. When the check needs a price it was
 * not handed, it raised and nothing changed: the fixing runs again with it (the customer's first
 * fixing after a restart, or a holding new to this process). A refusal becomes the 409
 * `insufficient_margin` with its Chinese reason.
 */
export async function withMarginPrices<T>(
  db: Kysely<DB>,
  /** The customer; or a getter, when only the fixing's own transaction learns who (a 条件单 that fires). */
  who: { pricerId: number } | (() => { pricerId: number } | undefined),
  lastPrice: LastPriceOf,
  run: (prices: (symbol: string) => string) => Promise<T>,
): Promise<T> {
  let known = heldInstruments.get(db);
  if (!known) heldInstruments.set(db, (known = new Map()));
  const held = known;
  const pricerOf = () => (typeof who === 'function' ? who() : who)?.pricerId;
  const prices = (symbol: string) => {
    const pricerId = pricerOf();
    const symbols = new Set(pricerId === undefined ? [] : held.get(pricerId)).add(symbol);
    return JSON.stringify(Object.fromEntries([...symbols].map((s) => [s, lastPrice(s) ?? null])));
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(prices);
    } catch (err) {
      const missing = databaseError(err, 'PFM01') as string[] | undefined;
      const pricerId = pricerOf();
      if (!missing || pricerId === undefined || attempt >= 3) throw refusal(err) ?? err;
      if (held.size >= HELD_MAX && !held.has(pricerId)) held.delete(held.keys().next().value as number);
      held.set(pricerId, new Set([...(held.get(pricerId) ?? []), ...missing]));
    }
  }
}

/** The check's refusal (PFM02) in Chinese; undefined for any other error. */
function refusal(err: unknown): MarginRefusal | undefined {
  const r = databaseError(err, 'PFM02') as
    | { reason: 'call'; call: number }
    | { reason: 'short'; need: number; available: number }
    | { reason: 'no_market' }
    | undefined;
  if (!r) return undefined;
  if (r.reason === 'no_market') return new MarginRefusal(MARGIN_MESSAGES.noMarket, MARGIN_MESSAGES.noMarket);
  if (r.reason === 'call') {
    const text = MARGIN_MESSAGES.inCall(Number(r.call));
    return new MarginRefusal(text, text);
  }
  const need = Number(r.need);
  const available = Number(r.available);
  const shortfall = Math.round((need - available) * 100) / 100;
  return new MarginRefusal(
    MARGIN_MESSAGES.short(need, available, shortfall),
    MARGIN_MESSAGES.shortBy(need, available, shortfall),
  );
}

/** The JSON detail of a database error raised with `code` (both drivers carry code and detail). */
function databaseError(err: unknown, code: string): unknown {
  if (!err || typeof err !== 'object' || (err as { code?: unknown }).code !== code) return undefined;
  return JSON.parse(String((err as { detail?: unknown }).detail));
}
