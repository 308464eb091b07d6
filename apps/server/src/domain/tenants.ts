import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { SecretBox } from '../auth/secrets';
import type { DB } from '../db/schema';
import { forbidden, notFound } from '../http/errors';
import { audit } from './audit';

export interface TraderProfile {
  tenant_id: number;
  company_name: string;
  tq_account_config: { is_sim: boolean; broker_name: string; futures_account: string };
}

export async function findTenantByOwner(db: Kysely<DB>, sub: string) {
  return db.selectFrom('tenants').selectAll().where('owner_sub', '=', sub).executeTakeFirst();
}

/** The trader's tenant id, or 403: every tenant-scoped trader call needs a saved profile. */
export async function requireTenantId(db: Kysely<DB>, sub: string): Promise<number> {
  const t = await db.selectFrom('tenants').select('id').where('owner_sub', '=', sub).executeTakeFirst();
  if (!t) throw forbidden('请先在系统配置中保存公司信息');
  return t.id;
}

export async function getProfile(db: Kysely<DB>, sub: string): Promise<TraderProfile> {
  const t = await findTenantByOwner(db, sub);
  if (!t) throw notFound('尚未配置公司信息');
  return {
    tenant_id: t.id,
    company_name: t.company_name,
    tq_account_config: {
      is_sim: t.is_sim,
      broker_name: t.broker_name ?? '',
      futures_account: t.futures_account ?? '',
    },
  };
}

export const profileSchema = (brokers: readonly string[]) =>
  z
    .object({
      company_name: z
        .string({ message: '请输入公司名称' })
        .trim()
        .min(1, { message: '请输入公司名称' })
        .max(100, { message: '公司名称不能超过 100 个字符' }),
      tq_account_config: z.object(
        {
          is_sim: z.boolean({ message: 'is_sim 必须是布尔值' }),
          broker_name: z.string().trim().max(100).optional().default(''),
          futures_account: z.string().trim().max(64).optional().default(''),
          futures_password: z.string().max(128).optional(),
        },
        { message: '缺少参数 tq_account_config' },
      ),
    })
    .superRefine((v, ctx) => {
      const c = v.tq_account_config;
      if (c.is_sim) return;
      if (!c.broker_name)
        ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'broker_name'], message: '请输入期货公司' });
      else if (!brokers.includes(c.broker_name))
        ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'broker_name'], message: '期货公司不在支持列表中' });
      if (!c.futures_account)
        ctx.addIssue({ code: 'custom', path: ['tq_account_config', 'futures_account'], message: '请输入期货账户' });
    });

export type ProfileInput = z.infer<ReturnType<typeof profileSchema>>;

/**
 * The settings dialog's save. The first save creates the tenant. A blank password keeps the
 * stored one; the password is stored encrypted and never returned.
 */
export async function saveProfile(db: Kysely<DB>, box: SecretBox, sub: string, input: ProfileInput) {
  const c = input.tq_account_config;
  const password = c.futures_password?.trim() ? box.encrypt(c.futures_password) : undefined;
  return db.transaction().execute(async (tx) => {
    const values = {
      company_name: input.company_name,
      is_sim: c.is_sim,
      broker_name: c.is_sim ? null : c.broker_name,
      futures_account: c.is_sim ? null : c.futures_account,
      ...(password ? { futures_password_enc: password } : {}),
    };
    const row = await tx
      .insertInto('tenants')
      .values({ owner_sub: sub, ...values })
      .onConflict((oc) => oc.column('owner_sub').doUpdateSet({ ...values, updated_at: new Date() }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(tx, { tenantId: row.id, actor: sub, action: 'trader-profile', payload: input });
    return row.id;
  });
}
