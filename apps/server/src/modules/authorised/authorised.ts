import {
  notAuthorisedMessage,
  type addAuthorisedPricerInput,
  type setAuthorisedPricerActiveInput,
  type updateAuthorisedPricerInput,
} from '@pfp/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import { hashPassword } from '../../platform/auth/passwords';
import type { DB } from '../../platform/db/schema';
import { conflict, DomainError, notFound } from '../../platform/errors';
import { audit } from '../audit/audit';

/** 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): who may fix for a customer company. */

/** The person a fix is made by: their id and name (orders, 条件单, confirmations and audit name them). */
export type FixingPerson = { id: number; name: string };

/**
 * The gate before a fix, a 条件单 or a structure: the signed-in login must be an active 授权点价人 of
 * its customer, else 409 naming the login. No read: the session check read the person with the customer.
 */
export function assertAuthorisedPricer(login: {
  username: string;
  person: { id: number; name: string; active: boolean } | null;
}): FixingPerson {
  const { person } = login;
  if (!person?.active)
    throw new DomainError('conflict', notAuthorisedMessage(login.username), { code: 'not_authorised_pricer' });
  return { id: person.id, name: person.name };
}

/**
 * A new customer's first login becomes its first, active 授权点价人 (in the customer's transaction). A
 * person already holding the username refuses the customer (logins are unique across both).
 */
export async function addPrimaryPerson(
  tx: Transaction<DB>,
  p: { tenantId: number; pricerId: number; username: string; name: string; phone: string | null; actor: string },
) {
  const row = await tx
    .insertInto('authorised_pricers')
    .values({
      tenant_id: p.tenantId,
      pricer_id: p.pricerId,
      name: p.name,
      phone: p.phone,
      username: p.username,
      is_primary: true,
      created_by: p.actor,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'username']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw conflict(`用户名 ${p.username} 已存在`, 'username_taken');
  return row.id;
}

const PERSON_COLUMNS = [
  'ap.id',
  'ap.pricer_id as user_id',
  'ap.name',
  'ap.id_type',
  'ap.id_last4',
  'ap.phone',
  'ap.username',
  'ap.active',
  'ap.is_primary as primary',
  'ap.created_at',
  'ap.deactivated_at',
] as const;

/** A customer's persons (the primary first, then by creation), with their waiting 条件单. */
export async function listAuthorisedPricers(db: Kysely<DB>, tenantId: number, userId: number) {
  const customer = await db
    .selectFrom('pricer_users')
    .select('id')
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!customer) throw notFound('客户不存在');
  const persons = await personsQuery(db)
    .where('ap.pricer_id', '=', userId)
    .orderBy('ap.is_primary', 'desc')
    .orderBy('ap.id')
    .execute();
  return { user_id: userId, persons };
}

function personsQuery(db: Kysely<DB>) {
  return db
    .selectFrom('authorised_pricers as ap')
    .select(PERSON_COLUMNS)
    .select(
      sql<number>`(select count(*)::int from conditional_orders co
                    where co.authorised_pricer_id = ap.id and co.status = 'WAITING')`.as('live_conditionals'),
    );
}

const onePerson = async (db: Kysely<DB>, id: number) =>
  personsQuery(db).where('ap.id', '=', id).executeTakeFirstOrThrow();

/** add-authorised-pricer: a new person with their own login; audited (only the ID's last 4 are ever sent). */
export async function addAuthorisedPricer(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof addAuthorisedPricerInput>,
) {
  const hash = await hashPassword(input.password);
  return db.transaction().execute(async (tx) => {
    const customer = await tx
      .selectFrom('pricer_users')
      .select('id')
      .where('id', '=', input.user_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!customer) throw notFound('客户不存在');
    const row = await tx
      .insertInto('authorised_pricers')
      .values({
        tenant_id: tenantId,
        pricer_id: customer.id,
        name: input.name,
        id_type: input.id_type,
        id_last4: input.id_last4,
        phone: input.phone,
        username: input.username,
        password_hash: hash,
        created_by: actor,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'username']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) throw conflict(`用户名 ${input.username} 已存在`, 'username_taken');
    const { password: _password, ...shown } = input;
    await audit(tx, {
      tenantId,
      actor,
      action: 'add-authorised-pricer',
      payload: { ...shown, person_id: row.id },
    });
    return onePerson(tx, row.id);
  });
}

/** update-authorised-pricer: the fields given change; audited with before and after. */
export async function updateAuthorisedPricer(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof updateAuthorisedPricerInput>,
) {
  const { person_id, ...changes } = input;
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('authorised_pricers')
      .select(['id', 'pricer_id', 'name', 'id_type', 'id_last4', 'phone'])
      .where('id', '=', person_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('授权点价人不存在');
    await tx.updateTable('authorised_pricers').set(set).where('id', '=', before.id).execute();
    const was = Object.fromEntries(Object.keys(set).map((k) => [k, before[k as keyof typeof before]]));
    await audit(tx, {
      tenantId,
      actor,
      action: 'update-authorised-pricer',
      payload: { person_id, user_id: before.pricer_id, before: was, after: set },
    });
    return onePerson(tx, before.id);
  });
}

/**
 * set-authorised-pricer-active: 停用 ends the person's own sessions and refuses their next fix; their
 * waiting 条件单 are kept (they were made while authorised; docs/authorised-pricers.md). 恢复 lets them
 * fix again. Setting what is already so changes nothing and audits nothing.
 */
export async function setAuthorisedPricerActive(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof setAuthorisedPricerActiveInput>,
) {
  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('authorised_pricers')
      .select(['id', 'pricer_id', 'name', 'active'])
      .where('id', '=', input.person_id)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('授权点价人不存在');
    if (before.active !== input.active) {
      await tx
        .updateTable('authorised_pricers')
        .set((eb) => ({
          active: input.active,
          deactivated_at: input.active ? null : new Date(),
          token_version: eb('token_version', '+', input.active ? 0 : 1),
        }))
        .where('id', '=', before.id)
        .execute();
      const kept = await tx
        .selectFrom('conditional_orders')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('authorised_pricer_id', '=', before.id)
        .where('status', '=', 'WAITING')
        .executeTakeFirstOrThrow();
      await audit(tx, {
        tenantId,
        actor,
        action: input.active ? 'reactivate-authorised-pricer' : 'deactivate-authorised-pricer',
        payload: { person_id: before.id, user_id: before.pricer_id, name: before.name, live_conditionals: kept.n },
      });
    }
    return onePerson(tx, before.id);
  });
}

/**
 * An 授权点价人's new password (reset-authorised-pricer-password, customers/pricers.ts resets): their hash
 * and a new token version, so their own sessions end. The customer's first login has no password of its
 * own: it is left as it is, and the caller resets the customer's. Another company's person is 404.
 */
export async function setPersonPassword(tx: Transaction<DB>, tenantId: number, personId: number, hash: string) {
  const person = await tx
    .selectFrom('authorised_pricers')
    .select(['id', 'pricer_id', 'name', 'username', 'is_primary'])
    .where('id', '=', personId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!person) throw notFound('授权点价人不存在');
  if (!person.is_primary)
    await tx
      .updateTable('authorised_pricers')
      .set((eb) => ({ password_hash: hash, token_version: eb('token_version', '+', 1) }))
      .where('id', '=', person.id)
      .execute();
  return person;
}

/** An 授权点价人's own login (not a customer's primary one): what the login checks. */
export function personLogin(db: Kysely<DB>, tenantId: number, username: string) {
  return db
    .selectFrom('authorised_pricers')
    .select(['id', 'pricer_id', 'password_hash', 'active', 'token_version'])
    .where('tenant_id', '=', tenantId)
    .where('username', '=', username)
    .where('is_primary', '=', false)
    .executeTakeFirst();
}
