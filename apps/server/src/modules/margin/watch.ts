import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { every, type Periodic } from '../../platform/every';
import { consoleLogger, type Logger } from '../../platform/logger';
import { readAccounts } from './accounts';
import type { LastPriceOf } from './market';

/**
 * Marks every account that can be in a margin call to the market (companies with an account row or
 * fixed, not yet settled lots): a call that began or ended since the last read is recorded and audited
 * (accounts.ts). Returns the customers in a call.
 */
export async function markAccounts(db: Kysely<DB>, lastPrice: LastPriceOf): Promise<number[]> {
  const { rows } = await sql<{ tenant_id: number }>`
    select tenant_id from pricer_accounts
    union
    select tenant_id from contracts where executed_quantity > settled_quantity`.execute(db);
  const inCall: number[] = [];
  for (const { tenant_id } of rows) {
    const items = await readAccounts(db, { tenantId: Number(tenant_id) }, lastPrice);
    for (const it of items) if (it.margin_call) inCall.push(it.pricer_id);
  }
  return inCall;
}

/** markAccounts every minute (docs/margin.md), one run at a time; stopped by the server's onClose. */
export function watchMarginCalls(opts: {
  db: Kysely<DB>;
  lastPrice: LastPriceOf;
  everyMs?: number;
  logger?: Logger;
}): Periodic {
  const lastPrice: LastPriceOf = (symbol) => {
    const v = opts.lastPrice(symbol);
    return v !== undefined && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  const job = async () => void (await markAccounts(opts.db, lastPrice));
  return every('margin calls', opts.everyMs ?? 60_000, job, opts.logger ?? consoleLogger);
}
