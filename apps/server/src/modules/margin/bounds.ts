import { AMOUNT_MAX, BALANCE_MAX, MONEY_BOUND_MESSAGES } from '@pfp/contract';
import { invalid } from '../../platform/errors';

/*
 * The bounds of what the ledger's numeric columns hold (docs/margin.md), for amounts the schemas cannot
 * see whole: a product (fee × lots × multiplier) or a running sum (a balance after an entry). Each is a
 * Chinese 400 naming the field that asked for it — it used to be a numeric overflow answered 500.
 */

/** A computed amount one ledger entry takes: |value| ≤ AMOUNT_MAX. */
export function assertAmount(value: number, field: string, label: string): void {
  if (!(Math.abs(value) <= AMOUNT_MAX)) throw invalid(MONEY_BOUND_MESSAGES.total(label), field);
}

/** A balance after an entry: |value| ≤ BALANCE_MAX. */
export function assertBalance(value: number, field: string): void {
  if (!(Math.abs(value) <= BALANCE_MAX)) throw invalid(MONEY_BOUND_MESSAGES.balance, field);
}

/** A contract's fees after one more: ≤ BALANCE_MAX. */
export function assertContractFees(value: number, field: string): void {
  if (!(Math.abs(value) <= BALANCE_MAX)) throw invalid(MONEY_BOUND_MESSAGES.contractFees, field);
}
