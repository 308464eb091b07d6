import { zh } from '@pfp/i18n';
import type { extendDeadlineInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { conflict, invalid } from '../../platform/errors';
import { round2 } from '../margin/arithmetic';
import { assertContractFees } from '../margin/bounds';
import { audit } from '../audit/audit';
import { assertDeadlineOpen, assertDeadlineTradingDay, isPastDeadline } from '../contracts/fixingTerms';
import { chargeFee } from './fees';
import { inTransaction } from '../../platform/db/transaction';
import { lockContract } from './roll';
import { assertBeforeExpiry } from './terms';

const E = zh.lifecycle.errors;

/**
 * 延期 (docs/fixing.md): the deadline moves later, never earlier and never past a week before the
 * future's last trading day; an expired contract with unfixed lots is re-opened (active). The fee is
 * added to the contract's fees and charged as a fee receivable (fees.ts), in the same transaction.
 */
export async function extendDeadline(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof extendDeadlineInput>,
  now: Date = new Date(),
) {
  assertDeadlineOpen(input.fixing_deadline, now);
  return inTransaction(db, async (tx) => {
    const c = await lockContract(tx, tenantId, input.contract_id);
    if (c.status === 'completed' || (c.remaining_quantity === 0 && c.frozen_quantity === 0))
      throw conflict(E.completed, 'contract_fully_executed');
    if (c.fixing_deadline && input.fixing_deadline <= c.fixing_deadline)
      throw invalid(E.deadlineNotLater(c.fixing_deadline), 'fixing_deadline');
    assertBeforeExpiry(input.fixing_deadline, c.instrument_id, now);
    assertDeadlineTradingDay(input.fixing_deadline, c.instrument_id);
    const fee = round2(input.fee);
    assertContractFees(Number(c.fees) + fee, 'fee');
    // An expired contract (its deadline passed) opens again; a paused one stays paused.
    const reopen = c.status === 'expired' && isPastDeadline(c.fixing_deadline, now);
    const row = await tx
      .updateTable('contracts')
      .set((eb) => ({
        fixing_deadline: input.fixing_deadline,
        fees: eb('fees', '+', fee),
        status: reopen ? 'active' : c.status,
        updated_at: now,
      }))
      .where('id', '=', c.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const feeId = await chargeFee(
      tx,
      { tenantId, pricerId: c.pricer_id },
      {
        contractId: c.id,
        kind: 'extension',
        fee,
        note: zh.lifecycle.ledgerNote.extension(c.id, input.fixing_deadline),
      },
      actor,
    );
    const payload = { from: c.fixing_deadline, to: input.fixing_deadline, fee, reopened: reopen };
    await tx
      .insertInto('contract_events')
      .values({ tenant_id: tenantId, contract_id: c.id, kind: 'extension', actor, payload: JSON.stringify(payload) })
      .execute();
    await audit(tx, {
      tenantId,
      actor,
      action: 'extend-deadline',
      payload: { ...input, ...payload, fee_id: feeId ?? null },
    });
    return row;
  });
}
