import type { ApprovalAction } from '@pfp/contract';
import type { Kysely } from 'kysely';
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
  return true;
}

/**
 * Maker-checker (docs/roles.md): when the company's policy holds this call and a second person who may
 * approve it exists, the call is recorded as a pending request — what (action and body), who, when, its
 * subject's state, before and after — and changes nothing else. Answers its id, or undefined when the call
 * goes ahead at once.
 */
export async function holdForApproval(
  db: Kysely<DB>,
  call: { tenantId: number; maker: string; action: ApprovalAction; body: Record<string, unknown> },
): Promise<number | undefined> {
  const { tenantId, maker, action, body } = call;
  if (!heldByPolicy(await readPolicy(db, tenantId), action, body)) return undefined;
  if (!(await hasChecker(db, tenantId, maker))) return undefined;
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
