import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { lockAccount } from '../margin/accounts';
import { round2 } from '../margin/arithmetic';
import { assertBalance } from '../margin/bounds';

/**
 * A roll or extension fee charged to the customer: an 调整 of −fee on their funds ledger (append-only,
 * docs/margin.md), in the caller's transaction, with the account row locked like any ledger entry.
 * A balance the ledger cannot hold is a 400 naming `field`, the input the fee came from.
 */
export async function chargeFee(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  fee: number,
  note: string,
  actor: string,
  field: string,
): Promise<number | undefined> {
  if (fee <= 0) return undefined;
  const account = await lockAccount(tx, who);
  const balance = round2(account.balance - fee);
  assertBalance(balance, field);
  await tx
    .updateTable('pricer_accounts')
    .set({ balance, updated_at: new Date() })
    .where('pricer_id', '=', who.pricerId)
    .execute();
  const entry = await tx
    .insertInto('funds_ledger')
    .values({
      tenant_id: who.tenantId,
      pricer_id: who.pricerId,
      kind: 'adjust',
      amount: -round2(fee),
      balance_after: balance,
      note,
      actor,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(entry.id);
}
