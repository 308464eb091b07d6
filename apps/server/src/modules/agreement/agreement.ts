import {
  AGREEMENT_REQUIRED_MESSAGE,
  pricerPaths,
  type recordSignedAgreementInput,
  type saveAgreementInput,
} from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { DomainError, invalid, notFound } from '../../platform/errors';
import { inTransaction } from '../../platform/db/transaction';
import { requestOrigin } from '../../platform/requestOrigin';
import { audit } from '../audit/audit';
import { DEFAULT_AGREEMENT } from './defaultAgreement';

/** 点价协议 (issue 43, docs/agreement.md): the versions, the customers' acceptance, the gate. */

type Who = { tenantId: number; pricerId: number };

/**
 * The version a customer must have accepted (or a later one) to fix: the newest version saved as
 * required. The first version is always required, so a company's first agreement switches the gate
 * on; with no version at all (before the built-in one is written) it is 1, and nobody has accepted it.
 */
const requiredVersion = (tenantId: number) =>
  sql<number>`coalesce((select max(version) from agreement_templates where tenant_id = ${tenantId} and required), 1)`;

/**
 * The gate before a fix, a 条件单 or a structure: refused 409 "请先签署点价协议", its link the call that
 * shows the agreement to accept. One indexed read (the primary keys of both tables).
 */
export async function assertAgreement(db: Kysely<DB>, who: Who): Promise<void> {
  const row = await db
    .selectNoFrom(
      sql<boolean>`exists (select 1 from agreement_acceptances where pricer_id = ${who.pricerId}
        and version >= ${requiredVersion(who.tenantId)})`.as('ok'),
    )
    .executeTakeFirstOrThrow();
  if (!row.ok)
    throw new DomainError('conflict', AGREEMENT_REQUIRED_MESSAGE, {
      code: 'agreement_required',
      link: pricerPaths.agreement.path,
    });
}

/** Writes the built-in agreement as version 1 of a company that has none (racing callers write it once). */
export async function ensureAgreement(db: Kysely<DB>, tenantId: number) {
  await sql`
    insert into agreement_templates (tenant_id, version, title, body, required, created_by)
    select ${tenantId}, 1, ${DEFAULT_AGREEMENT.title}, ${DEFAULT_AGREEMENT.text}, true, 'system'
    where not exists (select 1 from agreement_templates where tenant_id = ${tenantId})
    on conflict (tenant_id, version) do nothing`.execute(db);
}

/** The company's newest version, and the version a customer must have accepted to fix. */
export async function currentTemplate(db: Kysely<DB>, tenantId: number) {
  await ensureAgreement(db, tenantId);
  return db
    .selectFrom('agreement_templates')
    .selectAll()
    .select(requiredVersion(tenantId).as('required_version'))
    .where('tenant_id', '=', tenantId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

const latestAcceptance = (db: Kysely<DB>, pricerId: number) =>
  db
    .selectFrom('agreement_acceptances')
    .select(['version', 'accepted_at', 'ip', 'user_agent'])
    .where('pricer_id', '=', pricerId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The desk's view: the current version and text, and whether this customer may fix. */
export async function pricerAgreement(db: Kysely<DB>, who: Who) {
  const t = await currentTemplate(db, who.tenantId);
  const acceptance = (await latestAcceptance(db, who.pricerId)) ?? null;
  return {
    version: t.version,
    title: t.title,
    text: t.body,
    required_version: t.required_version,
    accepted: acceptance !== null && acceptance.version >= t.required_version,
    acceptance,
  };
}

/**
 * The customer accepts the current version, as read on the desk: the time, address and browser are
 * recorded once (a second press keeps the first). A version that is no longer current is refused
 * (a new one was saved while the customer read): they must read the new one.
 */
export async function acceptAgreement(db: Kysely<DB>, who: Who & { actor: string }, version: number) {
  const t = await currentTemplate(db, who.tenantId);
  if (version !== t.version)
    throw new DomainError('conflict', `点价协议已更新为第 ${t.version} 版，请阅读新版本后再同意`, {
      code: 'conflict',
      field: 'version',
    });
  const origin = requestOrigin();
  await inTransaction(db, async (tx) => {
    const added = await tx
      .insertInto('agreement_acceptances')
      .values({
        pricer_id: who.pricerId,
        tenant_id: who.tenantId,
        version,
        ip: origin?.ip ?? null,
        user_agent: origin?.userAgent || null,
      })
      .onConflict((oc) => oc.columns(['pricer_id', 'version']).doNothing())
      .returning('version')
      .executeTakeFirst();
    if (added)
      await audit(tx, { tenantId: who.tenantId, actor: who.actor, action: 'accept-agreement', payload: { version } });
  });
  return pricerAgreement(db, who);
}

/**
 * A new version of the company's agreement. `required`: every customer must accept it before their
 * next fix (their orders already working and their 条件单 stay; docs/agreement.md). The company's row
 * is locked so two saves at once get two versions.
 */
export async function saveAgreement(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof saveAgreementInput>,
) {
  return inTransaction(db, async (tx) => {
    await tx.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirstOrThrow();
    const last = await tx
      .selectFrom('agreement_templates')
      .select((eb) => eb.fn.max('version').as('v'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    const version = (last?.v ?? 0) + 1;
    const row = await tx
      .insertInto('agreement_templates')
      .values({
        tenant_id: tenantId,
        version,
        title: input.title,
        body: input.text,
        // The first version is always required: it switches the gate on.
        required: version === 1 || input.required,
        created_by: actor,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId,
      actor,
      action: 'save-agreement',
      payload: { version, title: input.title, required: row.required },
    });
    const { body, tenant_id: _, ...rest } = row;
    return { ...rest, text: body };
  });
}

/** The signed paper's or e-signature's reference, recorded against a customer's version (again: replaced). */
export async function recordSignedAgreement(
  db: Kysely<DB>,
  tenantId: number,
  actor: string,
  input: z.output<typeof recordSignedAgreementInput>,
) {
  return inTransaction(db, async (tx) => {
    const pricer = await tx
      .selectFrom('pricer_users')
      .select('id')
      .where('id', '=', input.user_id)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!pricer) throw notFound('客户不存在');
    const template = await tx
      .selectFrom('agreement_templates')
      .select('version')
      .where('tenant_id', '=', tenantId)
      .where('version', '=', input.version)
      .executeTakeFirst();
    if (!template) throw invalid(`点价协议第 ${input.version} 版不存在`, 'version');
    const values = {
      reference: input.reference,
      signed_on: input.signed_on,
      file_name: input.file_name || null,
      recorded_by: actor,
      recorded_at: new Date(),
    };
    const row = await tx
      .insertInto('agreement_signatures')
      .values({ pricer_id: input.user_id, tenant_id: tenantId, version: input.version, ...values })
      .onConflict((oc) => oc.columns(['pricer_id', 'version']).doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      tenantId,
      actor,
      action: 'record-signed-agreement',
      payload: {
        user_id: input.user_id,
        version: input.version,
        reference: input.reference,
        signed_on: input.signed_on,
      },
    });
    const { pricer_id, tenant_id: _, ...rest } = row;
    return { user_id: pricer_id, ...rest };
  });
}
