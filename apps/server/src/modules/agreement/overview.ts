import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { currentTemplate } from './agreement';

/**
 * The console's 点价协议 page: every version (newest first) and every customer's standing: their
 * latest acceptance and the latest signed record.
 */
export async function agreementsOverview(db: Kysely<DB>, tenantId: number) {
  // Reads (and, the first time, writes) the current version as the desk does.
  const { required_version } = await currentTemplate(db, tenantId);
  // Who published a version, by name where the embedded provider knows the trader (else the subject).
  const templates = await db
    .selectFrom('agreement_templates as t')
    .leftJoin('traders as tr', 'tr.id', 't.created_by')
    .select(['t.version', 't.title', 't.body as text', 't.required', 't.created_at'])
    .select(sql<string>`coalesce(tr.name, tr.username, t.created_by)`.as('created_by'))
    .where('t.tenant_id', '=', tenantId)
    .orderBy('t.version', 'desc')
    .execute();
  const customers = await db
    .selectFrom('pricer_users as p')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('agreement_acceptances as a')
          .select(['a.version', 'a.accepted_at', 'a.ip', 'a.user_agent'])
          .whereRef('a.pricer_id', '=', 'p.id')
          .orderBy('a.version', 'desc')
          .limit(1)
          .as('a'),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('agreement_signatures as s')
          .selectAll('s')
          .whereRef('s.pricer_id', '=', 'p.id')
          .orderBy('s.version', 'desc')
          .limit(1)
          .as('s'),
      (join) => join.onTrue(),
    )
    .select([
      'p.id as user_id',
      'p.username',
      'p.full_name',
      'a.version as a_version',
      'a.accepted_at',
      'a.ip',
      'a.user_agent',
      's.version as s_version',
      's.reference',
      's.signed_on',
      's.file_name',
      's.recorded_by',
      's.recorded_at',
    ])
    .where('p.tenant_id', '=', tenantId)
    .orderBy(sql`p.id`)
    .execute();
  return {
    templates,
    required_version,
    customers: customers.map((c) => ({
      user_id: c.user_id,
      username: c.username,
      full_name: c.full_name,
      accepted: c.a_version !== null && c.a_version >= required_version,
      acceptance:
        c.a_version !== null && c.accepted_at !== null
          ? { version: c.a_version, accepted_at: c.accepted_at, ip: c.ip, user_agent: c.user_agent }
          : null,
      signed:
        c.s_version !== null && c.reference !== null && c.signed_on !== null && c.recorded_at !== null
          ? {
              user_id: c.user_id,
              version: c.s_version,
              reference: c.reference,
              signed_on: c.signed_on,
              file_name: c.file_name,
              recorded_by: c.recorded_by ?? '',
              recorded_at: c.recorded_at,
            }
          : null,
    })),
  };
}
