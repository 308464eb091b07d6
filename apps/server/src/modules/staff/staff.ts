import {
  STAFF_ROLES,
  type createStaffInput,
  type staffMember,
  type StaffRole,
  type updateStaffInput,
} from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { hashPassword } from '../../platform/auth/passwords';
import { inTransaction } from '../../platform/db/transaction';
import type { DB } from '../../platform/db/schema';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { normalizeUsername, revokeTraderSignIns } from '../../identity/traders';
import { audit } from '../audit/audit';

const T = zh.roles.staff;

/** A trader's staff membership: its company, roles and status; undefined before it has a company. */
export interface StaffAccess {
  tenantId: number;
  roles: readonly StaffRole[];
  status: 'active' | 'disabled';
}

/**
 * Read per request (a change applies at once). A company's owner without a staff row (a company made before
 * staff existed and not migrated, the demo seed) holds every role: a single-trader company keeps working.
 */
export async function staffAccess(db: Kysely<DB>, sub: string): Promise<StaffAccess | undefined> {
  const row = await db
    .selectFrom('staff')
    .select(['tenant_id', 'roles', 'status'])
    .where('trader_sub', '=', sub)
    .executeTakeFirst();
  if (row) return { tenantId: Number(row.tenant_id), roles: row.roles as StaffRole[], status: row.status };
  const owner = await db.selectFrom('tenants').select('id').where('owner_sub', '=', sub).executeTakeFirst();
  return owner ? { tenantId: owner.id, roles: STAFF_ROLES, status: 'active' } : undefined;
}

type Row = {
  trader_sub: string;
  username: string | null;
  full_name: string;
  roles: string[];
  status: string;
  created_at: Date;
};
type Member = z.output<typeof staffMember>;
const member = (r: Row): Member => ({
  user_id: r.trader_sub,
  username: r.username,
  full_name: r.full_name,
  roles: STAFF_ROLES.filter((x) => r.roles.includes(x)),
  status: r.status === 'disabled' ? 'disabled' : 'active',
  created_at: r.created_at,
});

const rows = (db: Kysely<DB>, tenantId: number) =>
  db
    .selectFrom('staff as s')
    .leftJoin('traders as t', 't.id', 's.trader_sub')
    .select(['s.trader_sub', 't.username', 's.full_name', 's.roles', 's.status', 's.created_at'])
    .where('s.tenant_id', '=', tenantId);

/**
 * A company's owner without a staff row (the demo seed, a company saved before its row was written) is
 * written as its staff member holding every role before staff are listed or changed: the admin check and
 * the list see the owner as every other member.
 */
async function ensureOwnerRow(db: Kysely<DB>, tenantId: number) {
  await db
    .insertInto('staff')
    .columns(['tenant_id', 'trader_sub', 'roles'])
    .expression((eb) =>
      eb
        .selectFrom('tenants')
        .select((s) => [
          s.ref('id').as('tenant_id'),
          s.ref('owner_sub').as('trader_sub'),
          sql<string[]>`array[${sql.join(STAFF_ROLES.map((r) => sql.lit(r)))}]::text[]`.as('roles'),
        ])
        .where('id', '=', tenantId),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function listStaff(db: Kysely<DB>, tenantId: number) {
  await ensureOwnerRow(db, tenantId);
  const items = (await rows(db, tenantId).orderBy('s.created_at').orderBy('s.trader_sub').execute()).map(member);
  return { items, total_count: items.length };
}

/**
 * A new staff member: a sign-in of the identity provider (a username no one has) and its roles in the
 * admin's company, in one transaction, audited (the password never).
 */
export async function createStaff(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof createStaffInput>,
): Promise<Member> {
  const username = normalizeUsername(input.username);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (tx) => {
    await ensureOwnerRow(tx, tenantId);
    const trader = await tx
      .insertInto('traders')
      .values({ username, password_hash: passwordHash, name: input.full_name })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!trader) throw conflict(T.usernameTaken, 'username_taken');
    await tx
      .insertInto('staff')
      .values({
        tenant_id: tenantId,
        trader_sub: trader.id,
        full_name: input.full_name,
        roles: input.roles,
        created_by: actor,
      })
      .execute();
    await audit(tx, {
      tenantId,
      actor,
      action: 'create-staff',
      payload: { user_id: trader.id, username, full_name: input.full_name, roles: input.roles },
    });
    return member((await rows(tx, tenantId).where('s.trader_sub', '=', trader.id).executeTakeFirstOrThrow()) as Row);
  });
}

/**
 * Roles and status of a staff member of the admin's company. The company keeps an active admin (the last
 * one cannot lose the role or be disabled), and no one disables themselves. A disabled member's sign-ins
 * end at once; the role guard refuses them from the next call.
 */
export async function updateStaff(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updateStaffInput>,
): Promise<Member> {
  if (input.user_id === actor && input.status === 'disabled') throw forbidden(T.self);
  const updated = await inTransaction(db, async (tx) => {
    await ensureOwnerRow(tx, tenantId);
    // Every admin row of the company locked in one order: two admins demoting each other cannot both pass.
    const all = await tx
      .selectFrom('staff')
      .select(['trader_sub', 'roles', 'status'])
      .where('tenant_id', '=', tenantId)
      .orderBy('trader_sub')
      .forUpdate()
      .execute();
    const before = all.find((r) => r.trader_sub === input.user_id);
    if (!before) throw notFound(T.notFound);
    const roles = input.roles ?? before.roles;
    const status = input.status ?? before.status;
    const admins = all.filter((r) =>
      r.trader_sub === input.user_id
        ? roles.includes('admin') && status === 'active'
        : r.roles.includes('admin') && r.status === 'active',
    );
    if (!admins.length) throw conflict(T.lastAdmin);
    await tx
      .updateTable('staff')
      .set({ roles: [...roles], status, updated_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('trader_sub', '=', input.user_id)
      .execute();
    await audit(tx, {
      tenantId,
      actor,
      action: 'update-staff',
      // Named as the log shows it (the user_id is the sign-in's opaque id, kept for scripts, not shown).
      payload: {
        user_id: input.user_id,
        ...(await tx
          .selectFrom('traders')
          .select(['username', 'name as full_name'])
          .where('id', '=', input.user_id)
          .executeTakeFirst()),
        from: { roles: before.roles, status: before.status },
        roles,
        status,
      },
    });
    return { disabled: status === 'disabled' && before.status !== 'disabled' };
  });
  if (updated.disabled) await revokeTraderSignIns(db, input.user_id);
  return member((await rows(db, tenantId).where('s.trader_sub', '=', input.user_id).executeTakeFirstOrThrow()) as Row);
}
