import type {
  createCustomerInput,
  pricerLoginInput,
  resetAuthorisedPricerPasswordInput,
  resetPricerPasswordInput,
  updatePricerProfileInput,
} from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../platform/auth/passwords';
import type { DB } from '../../platform/db/schema';
import { audit } from '../audit/audit';
import { addPrimaryPerson, personLogin, setPersonPassword } from '../authorised/authorised';
import { conflict, forbidden, notFound, unauthorized } from '../../platform/errors';

export async function createPricer(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof createCustomerInput>,
) {
  const hash = await hashPassword(input.password);
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('pricer_users')
      .values({
        tenant_id: tenantId,
        username: input.username,
        password_hash: hash,
        phone: input.phone || null,
        full_name: input.full_name || null,
        contact_name: input.contact_name || null,
        margin_rate: input.margin_rate ?? null,
        status: 'pending',
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'username']).doNothing())
      .returning([
        'id',
        'username',
        'status',
        'created_at',
        'phone',
        'full_name',
        'contact_name',
        'confirm_before_fix',
        'margin_rate',
      ])
      .executeTakeFirst();
    if (!row) throw conflict(`用户名 ${input.username} 已存在`, 'username_taken');
    // The first login is the company's first 授权点价人 (docs/authorised-pricers.md).
    await addPrimaryPerson(tx, {
      tenantId,
      pricerId: row.id,
      username: row.username,
      name: row.contact_name || row.full_name || row.username,
      phone: row.phone,
      actor,
    });
    await audit(tx, {
      tenantId,
      actor,
      action: 'create-pricer-user',
      payload: {
        ...input,
        phone: input.phone || undefined,
        full_name: input.full_name || undefined,
        contact_name: input.contact_name || undefined,
        id: row.id,
      },
    });
    return row;
  });
}

/**
 * The trader edits a customer's identity (客户全称, 联系人, 手机号) and desk setting (点价前确认): the
 * fields given change (blank clears a text), the others stay; audited with what changed, before and
 * after. Another tenant's id is 404.
 */
export async function updatePricerProfile(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updatePricerProfileInput>,
) {
  const blankIsNull = (v: string | null | undefined) => (v === undefined ? undefined : v || null);
  const changes = {
    full_name: blankIsNull(input.full_name),
    contact_name: blankIsNull(input.contact_name),
    phone: blankIsNull(input.phone),
    confirm_before_fix: input.confirm_before_fix,
    margin_rate: input.margin_rate,
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const fields = ['id', 'full_name', 'contact_name', 'phone', 'confirm_before_fix', 'margin_rate'] as const;
  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('pricer_users')
      .select(fields)
      .where('id', '=', input.user_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('客户不存在');
    const after = await tx
      .updateTable('pricer_users')
      .set(set)
      .where('id', '=', before.id)
      .returning(fields)
      .executeTakeFirstOrThrow();
    const was = Object.fromEntries(Object.keys(set).map((k) => [k, before[k as keyof typeof before]]));
    await audit(tx, {
      tenantId,
      actor,
      action: 'update-pricer-profile',
      payload: { user_id: before.id, before: was, after: set },
    });
    return {
      user_id: after.id,
      full_name: after.full_name,
      contact_name: after.contact_name,
      phone: after.phone,
      confirm_before_fix: after.confirm_before_fix,
      margin_rate: after.margin_rate === null ? null : Number(after.margin_rate),
    };
  });
}

/**
 * A login's new password: a customer's (reset-pricer-password) or an 授权点价人's
 * (reset-authorised-pricer-password; the customer's first login signs in with the customer's password, so
 * that one is reset). A new token version: every token issued with the old password stops working at once
 * (the customer's ends every session of the company, persons' included). Audited without the password.
 * Answers the username the login guard unlocks. Another company's customer or person is 404.
 */
export async function resetPricerPassword(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof resetPricerPasswordInput> | z.output<typeof resetAuthorisedPricerPasswordInput>,
) {
  const hash = await hashPassword(input.new_password);
  return db.transaction().execute(async (tx) => {
    const person = 'person_id' in input ? await setPersonPassword(tx, tenantId, input.person_id, hash) : undefined;
    const userId = 'user_id' in input ? input.user_id : person!.pricer_id;
    const customer =
      person && !person.is_primary
        ? undefined
        : await tx
            .updateTable('pricer_users')
            .set((eb) => ({ password_hash: hash, token_version: eb('token_version', '+', 1) }))
            .where('id', '=', userId)
            .where('tenant_id', '=', tenantId)
            .returning('username')
            .executeTakeFirst();
    if (!person && !customer) throw notFound('客户不存在');
    if (person)
      await audit(tx, {
        tenantId,
        actor,
        action: 'reset-authorised-pricer-password',
        payload: { person_id: person.id, user_id: userId, name: person.name, username: person.username },
      });
    else await audit(tx, { tenantId, actor, action: 'reset-pricer-password', payload: { user_id: userId } });
    return { user_id: userId, username: person?.username ?? customer!.username };
  });
}

/**
 * The trader unlocks a customer's login (issue 30): every failure counted against the account is
 * forgotten (`forget`, the login guard's unlock), audited. Another tenant's id is 404.
 */
export async function unlockPricer(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  userId: number,
  forget: (tenantId: number, username: string) => Promise<void>,
) {
  const user = await db
    .selectFrom('pricer_users')
    .select(['id', 'username'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!user) throw notFound('客户不存在');
  await forget(tenantId, user.username);
  await audit(db, { tenantId, actor, action: 'unlock-pricer', payload: { user_id: user.id } });
  return { user_id: user.id };
}

/**
 * Pricer login. Unknown company → 404; wrong user or password → 401 (same message and the same
 * hashing work, so usernames cannot be probed); inactive → 403; the first success activates a
 * pending user.
 */
export async function loginPricer(db: Kysely<DB>, input: z.output<typeof pricerLoginInput>) {
  const tenant = await db
    .selectFrom('tenants')
    .select(['id', 'company_name'])
    .where('id', '=', input.tenant_id)
    .executeTakeFirst();
  if (!tenant) throw notFound('公司代码不存在');
  const own = await db
    .selectFrom('pricer_users')
    .select(['id', 'username', 'password_hash', 'status', 'token_version'])
    .where('tenant_id', '=', tenant.id)
    .where('username', '=', input.username)
    .executeTakeFirst();
  // Not a customer's own login: maybe an 授权点价人's (their password, the customer's account).
  const person = own ? undefined : await personLogin(db, tenant.id, input.username);
  const user =
    own ??
    (person &&
      (await db
        .selectFrom('pricer_users')
        .select(['id', 'username', 'status', 'token_version'])
        .where('id', '=', person.pricer_id)
        .executeTakeFirst()
        .then((u) => u && { ...u, username: input.username, password_hash: person.password_hash! })));
  const { ok, rehash } = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) {
    // A wrong password for a real account is audited with its address and browser (issue 30); an unknown
    // name is not (it may be a mistyped password: the log keeps only a tag of it).
    if (user)
      await audit(db, { tenantId: tenant.id, actor: `pricer:${user.id}`, action: 'pricer-login-failed', payload: {} });
    throw unauthorized('用户名或密码错误');
  }
  if (user.status === 'inactive') throw forbidden('账户已停用，请联系贸易商', 'account_disabled');
  if (person && !person.active) throw forbidden('该授权点价人已停用，请联系贸易商', 'account_disabled');
  // An older, cheaper hash is replaced now that the password is known (docs/security.md).
  const upgraded = rehash ? await hashPassword(input.password) : undefined;
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('pricer_users')
      .set({
        last_login_at: new Date(),
        ...(user.status === 'pending' ? { status: 'active' as const } : {}),
        ...(upgraded && !person ? { password_hash: upgraded } : {}),
      })
      .where('id', '=', user.id)
      // Only the hash that was verified is replaced (a reset in between wins).
      .$if(!!upgraded && !person, (q) => q.where('password_hash', '=', user.password_hash))
      .execute();
    if (person)
      await tx
        .updateTable('authorised_pricers')
        .set({ last_login_at: new Date(), ...(upgraded ? { password_hash: upgraded } : {}) })
        .where('id', '=', person.id)
        .$if(!!upgraded, (q) => q.where('password_hash', '=', person.password_hash))
        .execute();
    await audit(tx, {
      tenantId: tenant.id,
      actor: `pricer:${user.id}`,
      action: 'pricer-login',
      payload: person ? { person_id: person.id, username: input.username } : {},
    });
  });
  return {
    tenantId: tenant.id,
    companyName: tenant.company_name,
    userId: user.id,
    username: user.username,
    tokenVersion: user.token_version,
    ...(person ? { personId: person.id, personVersion: person.token_version } : {}),
  };
}
