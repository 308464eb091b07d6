import type { Kysely } from 'kysely';
import { z } from 'zod';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/passwords';
import type { DB } from '../db/schema';
import { ApiError, conflict, notFound, unauthorized } from '../http/errors';
import { idSchema } from '../http/validate';
import { audit } from './audit';

const username = z
  .string({ message: '用户名不能为空' })
  .trim()
  .min(1, { message: '用户名不能为空' })
  .min(2, { message: '用户名至少 2 个字符' })
  .max(32, { message: '用户名不能超过 32 个字符' })
  .regex(/^[\p{L}\p{N}_.@-]+$/u, { message: '用户名只能包含文字、数字和 _ . @ -' });
const password = z
  .string({ message: '密码不能为空' })
  .min(1, { message: '密码不能为空' })
  .min(2, { message: '密码至少 2 个字符' })
  .max(128, { message: '密码不能超过 128 个字符' });

export const createPricerSchema = z.object({
  username,
  password,
  phone: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^1[3-9]\d{9}$/.test(v), { message: '手机号格式不正确' }),
});

export const resetPasswordSchema = z.object({
  user_id: idSchema('user_id'),
  new_password: z
    .string({ message: '请输入新密码' })
    .min(1, { message: '请输入新密码' })
    .min(2, { message: '密码至少 2 个字符' })
    .max(128, { message: '密码不能超过 128 个字符' }),
});

export const loginSchema = z.object({
  tenant_id: z.coerce
    .number({ message: '公司代码无效' })
    .int({ message: '公司代码无效' })
    .positive({ message: '公司代码无效' }),
  username: z.string({ message: '请输入用户名' }).trim().min(1, { message: '请输入用户名' }).max(64),
  password: z.string({ message: '请输入密码' }).min(1, { message: '请输入密码' }).max(128),
});

export async function createPricer(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.infer<typeof createPricerSchema>,
) {
  const hash = await hashPassword(input.password);
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('pricer_users')
      .values({
        tenant_id: tenantId,
        username: input.username,
        password_hash: hash,
        phone: input.phone ?? null,
        status: 'pending',
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'username']).doNothing())
      .returning(['id', 'username', 'status', 'created_at', 'phone'])
      .executeTakeFirst();
    if (!row) throw conflict(`用户名 ${input.username} 已存在`, 'USERNAME_TAKEN');
    await audit(tx, { tenantId, actor, action: 'create-pricer-user', payload: { ...input, id: row.id } });
    return row;
  });
}

export async function resetPricerPassword(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.infer<typeof resetPasswordSchema>,
) {
  const hash = await hashPassword(input.new_password);
  await db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('pricer_users')
      .set({ password_hash: hash })
      .where('id', '=', input.user_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw notFound('客户不存在');
    await audit(tx, { tenantId, actor, action: 'reset-pricer-password', payload: { user_id: input.user_id } });
  });
}

/**
 * Pricer login. Unknown company → 404; wrong user or password → 401 (same message and the same
 * hashing work, so usernames cannot be probed); inactive → 403; the first success activates a
 * pending user.
 */
export async function loginPricer(db: Kysely<DB>, input: z.infer<typeof loginSchema>) {
  const tenant = await db
    .selectFrom('tenants')
    .select(['id', 'company_name'])
    .where('id', '=', input.tenant_id)
    .executeTakeFirst();
  if (!tenant) throw notFound('公司代码不存在');
  const user = await db
    .selectFrom('pricer_users')
    .select(['id', 'username', 'password_hash', 'status'])
    .where('tenant_id', '=', tenant.id)
    .where('username', '=', input.username)
    .executeTakeFirst();
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) throw unauthorized('用户名或密码错误');
  if (user.status === 'inactive') throw new ApiError(403, 'ACCOUNT_DISABLED', '账户已停用，请联系贸易商');
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('pricer_users')
      .set({ last_login_at: new Date(), ...(user.status === 'pending' ? { status: 'active' as const } : {}) })
      .where('id', '=', user.id)
      .execute();
    await audit(tx, { tenantId: tenant.id, actor: `pricer:${user.id}`, action: 'pricer-login', payload: {} });
  });
  return { tenantId: tenant.id, companyName: tenant.company_name, userId: user.id, username: user.username };
}
