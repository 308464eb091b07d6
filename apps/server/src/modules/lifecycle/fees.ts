import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { round2 } from '../margin/arithmetic';

/**
 * A roll or extension fee charged to the customer: a fee receivable (应收费用, docs/statements.md),
 * open until the trader collects, offsets or waives it. It never touches the funds ledger, so it holds
 * no margin, puts no one in a margin call and refuses no fix (issue 41: a 125 元 转月费 used to post
 * −125 to the ledger and block a customer with no deposit). Written in the caller's transaction.
 */
export async function chargeFee(
  tx: Transaction<DB>,
  who: { tenantId: number; pricerId: number },
  charge: { contractId: number; kind: 'roll' | 'extension'; fee: number; note: string },
  actor: string,
): Promise<number | undefined> {
  if (charge.fee <= 0) return undefined;
  const row = await tx
    .insertInto('fee_receivables')
    .values({
      tenant_id: who.tenantId,
      pricer_id: who.pricerId,
      contract_id: charge.contractId,
      kind: charge.kind,
      amount: round2(charge.fee),
      note: charge.note,
      actor,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
