import type { respondStatementInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { inTransaction } from '../../platform/db/transaction';
import { conflict } from '../../platform/errors';
import { audit } from '../audit/audit';
import { buildStatement, type Statement, type Who } from './statement';

export const RESPOND_MESSAGES = {
  changed: '对账单已有变动，请刷新后核对再确认',
} as const;

/**
 * 对账确认 / 有异议 (docs/statements.md): the customer answers the statement they read (its digest).
 * A statement that changed since is refused 409 (they answer what they saw); the same content
 * answered again records nothing more and answers the statement with the first response. Audited
 * as confirm-statement / dispute-statement by the customer.
 */
export async function respondStatement(
  db: Kysely<DB>,
  who: Who,
  input: z.output<typeof respondStatementInput>,
  source: { ip: string | null; userAgent: string | null },
): Promise<Statement> {
  const period = { start_date: input.start_date, end_date: input.end_date };
  return inTransaction(db, async (tx) => {
    const current = await buildStatement(tx, who, period);
    if (current.digest !== input.digest) throw conflict(RESPOND_MESSAGES.changed);
    const inserted = await tx
      .insertInto('statement_responses')
      .values({
        tenant_id: who.tenantId,
        pricer_id: who.pricerId,
        ...period,
        digest: input.digest,
        response: input.response,
        note: input.note,
        ip: source.ip?.slice(0, 100) ?? null,
        user_agent: source.userAgent?.slice(0, 500) ?? null,
      })
      .onConflict((oc) => oc.columns(['pricer_id', 'start_date', 'end_date', 'digest']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted)
      await audit(tx, {
        tenantId: who.tenantId,
        actor: `pricer:${who.pricerId}`,
        action: input.response === 'confirmed' ? 'confirm-statement' : 'dispute-statement',
        payload: { ...period, ...(input.note ? { note: input.note } : {}), response_id: Number(inserted.id) },
      });
    return buildStatement(tx, who, period);
  });
}
