import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { DomainError } from '../../platform/errors';
import { lockAccount, marginRows } from './accounts';
import { accountFigures, marginFor, round2, yuan } from './arithmetic';
import type { LastPriceOf } from './market';

/** The Chinese refusals of a fixing the customer's money does not back (409 insufficient_margin). */
export const MARGIN_MESSAGES = {
  inCall: (call: number) => `账户处于追加保证金状态，需追加 ${yuan(call)} 元后才能点价`,
  short: (need: number, available: number, shortfall: number) =>
    `可用保证金不足：本次点价需保证金 ${yuan(need)} 元，可用 ${yuan(available)} 元，还差 ${yuan(shortfall)} 元`,
  noMarket: '暂无行情，无法计算市价点价所需的保证金，请以限价点价',
} as const;

const refuse = (message: string) => new DomainError('conflict', message, { code: 'insufficient_margin' });

/**
 * Before a fixing (an order, or a 条件单 from its creation) goes out: inside its transaction, after its
 * lots are frozen and before its row is written. On a contract with a margin rate it locks the
 * customer's account row (concurrent fixings of one customer are checked one after the other, each
 * seeing what the one before it holds) and refuses, 409 `insufficient_margin`, when the margin it needs
 * — (price, or the live price for a market order, + basis) × lots × multiplier × rate — is more than
 * available, or when the customer is in a margin call. The refusal rolls the transaction back: nothing
 * changes. On a contract with rate 0 nothing is locked and only a recorded margin call refuses.
 * `lastPrice` is the caller's market (its capability context's quote source). Answers whether the
 * contract carries a margin rate (immutable: the submit remembers it and skips the one-statement try).
 */
export async function assertMargin(
  tx: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  contract: { id: number; instrument_id: string; basis: number },
  order: { quantity: number; price: number },
  lastPrice: LastPriceOf,
): Promise<{ margined: boolean }> {
  const account = await lockAccount(tx, who, contract.id);
  if (!(account.margin_rate > 0)) {
    // No margin on this contract; but a customer in a recorded margin call fixes nothing until it ends.
    if (!account.in_call) return { margined: false };
    const now = accountFigures(account, await marginRows(tx, who), lastPrice);
    if (now.margin_call) throw refuse(MARGIN_MESSAGES.inCall(now.call_amount));
    return { margined: false };
  }
  const price = order.price > 0 ? order.price : lastPrice(contract.instrument_id);
  if (price === undefined) throw refuse(MARGIN_MESSAGES.noMarket);
  const need = marginFor(account.margin_rate, price, Number(contract.basis), order.quantity, account.multiplier);
  const now = accountFigures(account, await marginRows(tx, who), lastPrice);
  if (now.margin_call) throw refuse(MARGIN_MESSAGES.inCall(now.call_amount));
  if (need > now.available) throw refuse(MARGIN_MESSAGES.short(need, now.available, round2(need - now.available)));
  return { margined: true };
}
