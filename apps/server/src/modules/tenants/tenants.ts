import {
  NEW_COMPANY_MARGIN_RATE,
  STAFF_ROLES,
  type profileInput,
  type TenantInfo,
  type TraderProfile,
} from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SecretBox } from '../../platform/auth/secrets';
import type { DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';
import { forbidden, notFound } from '../../platform/errors';

export type ProfileInput = z.output<typeof profileInput>;

/** The trader's company: the one it is staff of (issue 42), else the one it owns. */
export async function findTenantByOwner(db: Kysely<DB>, sub: string) {
  const id = await findTenantId(db, sub);
  return id === undefined ? undefined : db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The trader's tenant id; forbidden before the first save: every tenant-scoped trader call needs it. */
export async function requireTenantId(db: Kysely<DB>, sub: string): Promise<number> {
  const id = await findTenantId(db, sub);
  if (id === undefined) throw forbidden('请先在系统配置中保存公司信息');
  return id;
}

export async function getProfile(db: Kysely<DB>, sub: string, roles?: readonly string[]): Promise<TraderProfile> {
  const t = await findTenantByOwner(db, sub);
  if (!t) throw notFound('尚未配置公司信息');
  return {
    ...(roles ? { roles: [...roles] as TraderProfile['roles'] } : {}),
    user_id: sub,
    tenant_id: t.id,
    company_name: t.company_name,
    tq_account_config: {
      is_sim: t.is_sim,
      broker_name: t.broker_name ?? '',
      futures_account: t.futures_account ?? '',
    },
  };
}

/**
 * The settings dialog's save. The first save creates the tenant. A blank password keeps the
 * stored one; the password is stored encrypted and never returned.
 */
export async function saveProfile(db: Kysely<DB>, box: SecretBox, sub: string, input: ProfileInput) {
  const c = input.tq_account_config;
  const password = c.futures_password?.trim() ? box.encrypt(c.futures_password) : undefined;
  const member = await findTenantId(db, sub);
  return db.transaction().execute(async (tx) => {
    const values = {
      company_name: input.company_name,
      is_sim: c.is_sim,
      broker_name: c.is_sim ? null : c.broker_name,
      futures_account: c.is_sim ? null : c.futures_account,
      ...(password ? { futures_password_enc: password } : {}),
    };
    // A staff member's save changes their company (issue 42); a trader with none creates one and holds every role.
    const row =
      member !== undefined
        ? await tx
            .updateTable('tenants')
            .set({ ...values, updated_at: new Date() })
            .where('id', '=', member)
            .returning('id')
            .executeTakeFirstOrThrow()
        : await tx
            .insertInto('tenants')
            // A new company starts with margin on (issue 41); a later save keeps whatever it set.
            .values({ owner_sub: sub, default_margin_rate: NEW_COMPANY_MARGIN_RATE, ...values })
            .onConflict((oc) => oc.column('owner_sub').doUpdateSet({ ...values, updated_at: new Date() }))
            .returning('id')
            .executeTakeFirstOrThrow();
    await tx
      .insertInto('staff')
      .values({ tenant_id: row.id, trader_sub: sub, roles: [...STAFF_ROLES] })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await audit(tx, { tenantId: row.id, actor: sub, action: 'trader-profile', payload: input });
    return row.id;
  });
}

/** The company name a customer's login page shows (public: the company code is in the URL). */
export async function tenantInfo(db: Kysely<DB>, tenantId: number): Promise<TenantInfo> {
  const t = await db.selectFrom('tenants').select(['id', 'company_name']).where('id', '=', tenantId).executeTakeFirst();
  if (!t) throw notFound('公司代码不存在');
  return { tenant_id: t.id, company_name: t.company_name };
}

/** The trader's tenant id, or undefined before the first save of the settings. */
export async function findTenantId(db: Kysely<DB>, sub: string): Promise<number | undefined> {
  const staff = await db.selectFrom('staff').select('tenant_id').where('trader_sub', '=', sub).executeTakeFirst();
  if (staff) return Number(staff.tenant_id);
  const t = await db.selectFrom('tenants').select('id').where('owner_sub', '=', sub).executeTakeFirst();
  return t?.id;
}
