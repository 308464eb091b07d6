import { APPROVAL_ACTIONS, type ApprovalAction, type approvalPolicy, type setApprovalPolicyInput } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';

/**
 * The default of a company that never set its policy (docs/roles.md): credit lines, settlement, funds over
 * 100,000 元, unlocking a customer, re-activating one, the trader's direct 转月 and a fee waiver need a
 * second person. It holds a call only when the
 * company has a second person who may approve it (hasChecker), so a one-person company keeps working.
 */
export const DEFAULT_POLICY = {
  actions: [
    'record-funds',
    'set-credit-line',
    'settle-lots',
    'unlock-pricer',
    'update-pricer-status',
    'roll-contract',
    'settle-fee',
  ] as ApprovalAction[],
  thresholds: { funds_amount: 100_000, contract_quantity: 1_000 },
};
/** The role that approves (风控). */
export const CHECKER_ROLE = 'risk';

type Policy = typeof DEFAULT_POLICY;

function policyOf(stored: unknown): Policy {
  if (!stored || typeof stored !== 'object') return DEFAULT_POLICY;
  const p = stored as { actions?: unknown; thresholds?: Record<string, unknown> };
  const actions = Array.isArray(p.actions) ? APPROVAL_ACTIONS.filter((a) => (p.actions as unknown[]).includes(a)) : [];
  const num = (k: keyof Policy['thresholds']) =>
    typeof p.thresholds?.[k] === 'number' ? (p.thresholds[k] as number) : DEFAULT_POLICY.thresholds[k];
  return { actions, thresholds: { funds_amount: num('funds_amount'), contract_quantity: num('contract_quantity') } };
}

export async function readPolicy(db: Kysely<DB>, tenantId: number): Promise<Policy> {
  const row = await db.selectFrom('tenants').select('approval_policy').where('id', '=', tenantId).executeTakeFirst();
  return policyOf(row?.approval_policy);
}

/** An active staff member other than `maker` who holds the checker's role. */
export async function hasChecker(db: Kysely<DB>, tenantId: number, maker?: string): Promise<boolean> {
  let q = db
    .selectFrom('staff')
    .select('trader_sub')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'active')
    .where((eb) => eb(eb.val(CHECKER_ROLE), '=', eb.fn.any('roles')));
  if (maker) q = q.where('trader_sub', '<>', maker);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export async function policyView(
  db: Kysely<DB>,
  tenantId: number,
  viewer: string,
): Promise<z.output<typeof approvalPolicy>> {
  return { ...(await readPolicy(db, tenantId)), has_checker: await hasChecker(db, tenantId, viewer) };
}

export async function setPolicy(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof setApprovalPolicyInput>,
) {
  const before = await readPolicy(db, tenantId);
  const policy: Policy = { actions: input.actions, thresholds: { ...before.thresholds, ...input.thresholds } };
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('tenants')
      .set({ approval_policy: JSON.stringify(policy) })
      .where('id', '=', tenantId)
      .execute();
    await audit(tx, { tenantId, actor, action: 'set-approval-policy', payload: { ...policy } });
  });
  return policyView(db, tenantId, actor);
}
