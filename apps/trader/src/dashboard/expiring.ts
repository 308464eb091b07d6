import { tradingDaysUntil, type ContractRow } from '@pfp/contract';
import { beijingDay, DEADLINE_WARNING_DAYS } from '@pfp/i18n';

/** A contract whose fixing deadline is within 3 trading days, with its lots still to fix (remaining + frozen). */
export interface Expiring {
  contract: ContractRow;
  days: number;
  unfixed: number;
}

/** The contracts due within 3 trading days (today included), nearest first; past ones are the expiry job's. */
export function expiringWithin(contracts: readonly ContractRow[], now: Date | number = Date.now()): Expiring[] {
  return contracts
    .filter((c) => (c.status === 'active' || c.status === 'paused') && c.fixing_deadline)
    .map((c) => ({
      contract: c,
      days: tradingDaysUntil(c.instrument_id, c.fixing_deadline!, beijingDay(now)),
      unfixed: c.remaining_quantity + c.frozen_quantity,
    }))
    .filter((e) => e.days >= 0 && e.days <= DEADLINE_WARNING_DAYS)
    .sort((a, b) => a.days - b.days || a.contract.id - b.contract.id);
}
