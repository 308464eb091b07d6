import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { PricerClaims, PricerTokens } from './pricerTokens';

/**
 * A customer token is valid while its signature is AND its customer still may sign in with what
 * issued it: the row exists, is not inactive and has the token's version (a password reset bumps
 * it). An 授权点价人's own login (docs/authorised-pricers.md) also needs the person active with the
 * token's person version. Checked on every call, by primary key — one indexed read, no cache, so
 * the trader's reset or deactivation ends the session at once on every server instance.
 */
export async function verifyPricerSession(db: Kysely<DB>, tokens: PricerTokens, token: string): Promise<PricerSession> {
  const claims = await tokens.verify(token);
  const row = await customerState(db, claims);
  if (row?.status === 'inactive') throw new AccountDisabledError();
  if (!row || row.token_version !== claims.version) throw new Error('session ended');
  if (claims.personId !== undefined) {
    if (row.person_id === null) throw new Error('session ended');
    if (!row.person_active) throw new AccountDisabledError();
    if (row.person_version !== claims.personVersion) throw new Error('session ended');
  }
  const person =
    row.person_id === null ? null : { id: row.person_id, name: row.person_name!, active: !!row.person_active };
  return { ...claims, dataVersion: String(row.data_version ?? 0), person };
}

/** A checked customer session, with the version of the customer's data read in the same query (migration 009). */
export interface PricerSession extends PricerClaims {
  dataVersion: string;
  /** The signed-in 授权点价人 (the customer's primary one for its own login); null: none on file. */
  person: { id: number; name: string; active: boolean } | null;
}

/** The trader switched this customer off (停用): their live tokens end with that reason. */
export class AccountDisabledError extends Error {
  constructor() {
    super('account disabled');
  }
}

type CustomerState =
  | {
      status: string;
      token_version: number;
      data_version: string | null;
      person_id: number | null;
      person_name: string | null;
      person_active: boolean | null;
      person_version: number | null;
    }
  | undefined;
const reading = new WeakMap<Kysely<DB>, Map<string, Promise<CustomerState>>>();

/**
 * The customer's row and the signed-in person's, read once for all calls that ask while the read is under way (the
 * desk sends its snapshot and its orders poll together; docs/performance.md). Nothing is kept after the read
 * answers: a call that arrives later reads again, so a reset or deactivation still ends the session with the next call.
 */
function customerState(db: Kysely<DB>, claims: PricerClaims): Promise<CustomerState> {
  const { tenantId, userId, personId } = claims;
  let byKey = reading.get(db);
  if (!byKey) reading.set(db, (byKey = new Map()));
  const key = `${tenantId}:${userId}:${personId ?? ''}`;
  const under = byKey.get(key);
  if (under) return under;
  const read = db
    .selectFrom('pricer_users')
    .leftJoin('authorised_pricers as ap', (join) =>
      join
        .onRef('ap.pricer_id', '=', 'pricer_users.id')
        .on((eb) => (personId === undefined ? eb('ap.is_primary', '=', true) : eb('ap.id', '=', personId))),
    )
    .select((eb) => [
      'pricer_users.status',
      'pricer_users.token_version',
      'ap.id as person_id',
      'ap.name as person_name',
      'ap.active as person_active',
      'ap.token_version as person_version',
      eb
        .selectFrom('pricer_data_versions')
        .select((v) => v.fn.sum<string>('version').as('v'))
        .whereRef('pricer_data_versions.pricer_id', '=', 'pricer_users.id')
        .as('data_version'),
    ])
    .where('pricer_users.id', '=', userId)
    .where('pricer_users.tenant_id', '=', tenantId)
    .executeTakeFirst()
    .finally(() => byKey.delete(key));
  byKey.set(key, read);
  return read;
}
