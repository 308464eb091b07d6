import { APPROVAL_ACTIONS, type ApprovalAction, type approvalRequest } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import { inTransaction } from '../../platform/db/transaction';
import type { DB } from '../../platform/db/schema';
import { conflict, DomainError, forbidden, notFound } from '../../platform/errors';
import { audit } from '../audit/audit';
import { notify } from '../notifications/notify';
import { CHECKER_ROLE } from '../staff/policy';
import { subjectOf } from '../staff/subjects';

const T = zh.roles.approvals;
const actionLabel = (a: string) =>
  zh.roles.policy.actions[a]?.replace(/（.*）$/, '') ?? zh.fixing.audit.actions[a] ?? a;

/** Applies an approved call in the approval's transaction, as its maker, recording its checker; answers its result. */
export type Apply = (
  tx: Transaction<DB>,
  call: { tenantId: number; maker: string; checker: string; body: Record<string, unknown> },
) => Promise<unknown>;
export type Appliers = Record<ApprovalAction, Apply>;

/**
 * 复核通过 (docs/roles.md). In one transaction: the request row locked, then refused unless it is the
 * company's, still pending, not the checker's own (the maker never approves their own, whatever the
 * console shows) and its subject unchanged since it was made (stale); then the call applied as its maker
 * and the request marked approved. Two approvers at once: the second waits on the row lock and finds it
 * decided — the call applies exactly once. A stale request, or one whose call is refused now (a withdrawal
 * larger than what is withdrawable today), is marked failed with the reason and changes nothing.
 */
export async function approveRequest(
  db: Kysely<DB>,
  tenantId: number,
  checker: string,
  requestId: number,
  appliers: Appliers,
): Promise<{ request_id: number; status: 'approved'; result: unknown }> {
  try {
    return await inTransaction(db, async (tx) => {
      const r = await lockPending(tx, tenantId, checker, requestId);
      const action = r.action as ApprovalAction;
      const body = r.body as Record<string, unknown>;
      const now = await subjectOf(tx, tenantId, action, body);
      if (!now || now.key !== r.subject || now.state !== r.subject_state)
        throw new DomainError('conflict', T.stale, { code: 'request_stale' });
      const result = await appliers[action](tx, { tenantId, maker: r.maker, checker, body });
      await tx
        .updateTable('approval_requests')
        .set({ status: 'approved', checker, decided_at: new Date(), result: JSON.stringify(result ?? null) })
        .where('id', '=', requestId)
        .execute();
      await audit(tx, {
        tenantId,
        actor: checker,
        action: 'approve-request',
        payload: { request_id: requestId, action },
      });
      await tellMaker(tx, tenantId, requestId, T.noticeApproved(actionLabel(action), r.subject_label));
      return { request_id: requestId, status: 'approved' as const, result };
    });
  } catch (e) {
    // Refused now (stale, or the call's own rule): the request is closed as failed, with why.
    if (e instanceof DomainError && !isDecisionError(e)) {
      await db
        .updateTable('approval_requests')
        .set({ status: 'failed', checker, decided_at: new Date(), reason: e.message })
        .where('id', '=', requestId)
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'pending')
        .where('maker', '<>', checker)
        .execute();
    }
    throw e;
  }
}

/** The refusals about the decision itself (who, which, already decided): the request stays as it was. */
function isDecisionError(e: DomainError) {
  return e.code === 'self_approval' || e.code === 'request_decided' || e.kind === 'not_found' || e.kind === 'forbidden';
}

/** 驳回: same rules as approving (not one's own, still pending); the maker is told why. */
export async function rejectRequest(
  db: Kysely<DB>,
  tenantId: number,
  checker: string,
  requestId: number,
  reason: string,
) {
  return inTransaction(db, async (tx) => {
    const r = await lockPending(tx, tenantId, checker, requestId);
    await tx
      .updateTable('approval_requests')
      .set({ status: 'rejected', checker, reason, decided_at: new Date() })
      .where('id', '=', requestId)
      .execute();
    await audit(tx, {
      tenantId,
      actor: checker,
      action: 'reject-request',
      payload: { request_id: requestId, action: r.action, reason },
    });
    await tellMaker(tx, tenantId, requestId, T.noticeRejected(actionLabel(r.action), r.subject_label, reason));
    return { request_id: requestId, status: 'rejected' as const };
  });
}

async function lockPending(tx: Transaction<DB>, tenantId: number, checker: string, requestId: number) {
  const r = await tx
    .selectFrom('approval_requests')
    .selectAll()
    .where('id', '=', requestId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!r) throw notFound(T.notFound);
  if (r.maker === checker) throw forbidden(T.selfApproval, 'self_approval');
  if (r.status !== 'pending') throw conflict(T.decided, 'request_decided');
  const me = await tx
    .selectFrom('staff')
    .select('roles')
    .where('tenant_id', '=', tenantId)
    .where('trader_sub', '=', checker)
    .where('status', '=', 'active')
    .executeTakeFirst();
  const owner = await tx.selectFrom('tenants').select('owner_sub').where('id', '=', tenantId).executeTakeFirst();
  const mayCheck = me ? me.roles.includes(CHECKER_ROLE) : owner?.owner_sub === checker;
  if (!mayCheck) throw forbidden(zh.roles.refused([CHECKER_ROLE], me?.roles ?? []), 'role_refused');
  return r;
}

/** The maker's notification of the decision (the console's 通知; one per request). */
async function tellMaker(tx: Transaction<DB>, tenantId: number, requestId: number, text: string) {
  await notify(tx, {
    tenantId,
    kind: 'approval_decided',
    desk: { title: zh.notifications.kinds.approval_decided ?? '', body: text },
    ref: `approval:${requestId}`,
  });
}

type Request = z.output<typeof approvalRequest>;

/** The company's requests, newest first, with names; `pending_for_me` counts what this caller may decide. */
export async function listRequests(
  db: Kysely<DB>,
  tenantId: number,
  viewer: string,
  viewerRoles: readonly string[],
  status?: Request['status'],
) {
  let q = db
    .selectFrom('approval_requests as r')
    .leftJoin('staff as m', (j) => j.onRef('m.trader_sub', '=', 'r.maker').onRef('m.tenant_id', '=', 'r.tenant_id'))
    .leftJoin('staff as c', (j) => j.onRef('c.trader_sub', '=', 'r.checker').onRef('c.tenant_id', '=', 'r.tenant_id'))
    // The company's owner has a staff row without a name (written for it): its sign-in's name, never its id.
    .leftJoin('traders as mt', 'mt.id', 'r.maker')
    .leftJoin('traders as ct', 'ct.id', 'r.checker')
    .select([
      'r.id',
      'r.action',
      'r.body',
      'r.before',
      'r.after',
      'r.maker',
      'r.status',
      'r.checker',
      'r.reason',
      'r.created_at',
      'r.decided_at',
      'r.subject_label',
      'm.full_name as maker_name',
      'c.full_name as checker_name',
      'mt.name as maker_login_name',
      'mt.username as maker_username',
      'ct.name as checker_login_name',
      'ct.username as checker_username',
    ])
    .where('r.tenant_id', '=', tenantId);
  if (status) q = q.where('r.status', '=', status);
  const rows = await q.orderBy('r.id', 'desc').limit(200).execute();
  const items: Request[] = [];
  for (const r of rows) {
    const action = APPROVAL_ACTIONS.find((a) => a === r.action);
    if (!action) continue;
    items.push({
      id: Number(r.id),
      action,
      body: r.body as Record<string, unknown>,
      subject_label: r.subject_label,
      before: (r.before as Record<string, unknown> | null) ?? null,
      after: (r.after as Record<string, unknown> | null) ?? null,
      maker: r.maker,
      maker_name: r.maker_name || r.maker_login_name || r.maker_username || r.maker,
      status: r.status,
      checker: r.checker,
      checker_name: r.checker ? r.checker_name || r.checker_login_name || r.checker_username || r.checker : null,
      reason: r.reason,
      created_at: r.created_at,
      decided_at: r.decided_at,
    });
  }
  const mayCheck = viewerRoles.includes(CHECKER_ROLE);
  const pending_for_me = mayCheck ? items.filter((i) => i.status === 'pending' && i.maker !== viewer).length : 0;
  return { items, total_count: items.length, pending_for_me };
}
