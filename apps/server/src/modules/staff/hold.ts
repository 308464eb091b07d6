import type { ApprovalAction } from '@pfp/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';
import { hasChecker, readPolicy } from './policy';
import { subjectOf } from './subjects';

/** Whether the policy holds this call: its action is listed and, for funds and contracts, it passes the threshold. */
function heldByPolicy(
  policy: Awaited<ReturnType<typeof readPolicy>>,
  action: ApprovalAction,
  body: Record<string, unknown>,
) {
  if (!policy.actions.includes(action)) return false;
  if (action === 'record-funds') return Math.abs(Number(body.amount)) > policy.thresholds.funds_amount;
  if (action === 'create-contract') return Number(body.total_quantity) > policy.thresholds.contract_quantity;
  // Only re-activation is held: 停用 stops a customer's trading and must never wait.
  if (action === 'update-pricer-status') return body.new_status === 'active';
  // Only a waiver gives money away: collecting or offsetting a fee settles what the customer owes.
  if (action === 'settle-fee') return body.method === 'waive';
  return true;
}

/** Thrown to roll a dry run back (validateNow). */
class DryRun extends Error {}

/**
 * A held call is validated when it is made, not only when approved (issue 42): the call runs through its
 * own rules in a transaction that is then rolled back, so bad input is its Chinese 4xx naming the field
 * and no request is created. Its effects outside the database are the caller's to leave out of `check`.
 */
async function validateNow(db: Kysely<DB>, check: (tx: Transaction<DB>) => Promise<unknown>) {
  try {
    await db.transaction().execute(async (tx) => {
      await check(tx);
      throw new DryRun();
    });
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
}

/**
 * Maker-checker (docs/roles.md): when the company's policy holds this call and a second person who may
 * approve it exists, the call is recorded as a pending request — what (action and body), who, when, its
 * subject's state, before and after — and changes nothing else. Before that, `check` (the call itself, in
 * the given transaction) is run and rolled back: a call its rules refuse now is refused now. Answers the
 * request's id, or undefined when the call goes ahead at once.
 */
export async function holdForApproval(
  db: Kysely<DB>,
  call: {
    tenantId: number;
    maker: string;
    action: ApprovalAction;
    body: Record<string, unknown>;
    check: (tx: Transaction<DB>) => Promise<unknown>;
  },
): Promise<number | undefined> {
  const { tenantId, maker, action, body } = call;
  if (!heldByPolicy(await readPolicy(db, tenantId), action, body)) return undefined;
  if (!(await hasChecker(db, tenantId, maker))) return undefined;
  await validateNow(db, call.check);
  const subject = await subjectOf(db, tenantId, action, body);
  if (!subject) return undefined;
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('approval_requests')
      .values({
        tenant_id: tenantId,
        action,
        body: JSON.stringify(body),
        subject: subject.key,
        subject_state: subject.state,
        subject_label: subject.label,
        before: subject.before && JSON.stringify(subject.before),
        after: subject.after && JSON.stringify(subject.after),
        maker,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await audit(tx, {
      tenantId,
      actor: maker,
      action: 'approval-requested',
      payload: { request_id: id, action, ...body },
    });
    return id;
  });
}
