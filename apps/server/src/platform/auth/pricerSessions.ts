import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { PricerClaims, PricerTokens } from './pricerTokens';

/**
 * A customer token is valid while its signature is AND its customer still may sign in with what
 * issued it: the row exists, is not inactive and has the token's version (a password reset bumps
 * it). Checked on every call, by primary key — one indexed read, no cache, so the trader's reset
 * or deactivation ends the session at once on every server instance.
 */
export async function verifyPricerSession(db: Kysely<DB>, tokens: PricerTokens, token: string): Promise<PricerSession> {
  const claims = await tokens.verify(token);
  const row = await customerState(db, claims.tenantId, claims.userId);
  if (row?.status === 'inactive') throw new AccountDisabledError();
  if (!row || row.token_version !== claims.version) throw new Error('session ended');
  return { ...claims, dataVersion: String(row.data_version ?? 0) };
}

/** A checked customer session, with the version of the customer's data read in the same query (migration 009). */
export interface PricerSession extends PricerClaims {
  dataVersion: string;
}

/** The trader switched this customer off (停用): their live tokens end with that reason. */
export class AccountDisabledError extends Error {
  constructor() {
    super('account disabled');
  }
}

type CustomerState = { status: string; token_version: number; data_version: string | null } | undefined;
const reading = new WeakMap<Kysely<DB>, Map<string, Promise<CustomerState>>>();

/**
 * The customer's row, read once for all calls that ask while the read is under way (the desk sends its snapshot
 * and its orders poll together; docs/performance.md). Nothing is kept after the read answers: a call that
 * arrives later reads again, so a reset or deactivation still ends the session with the next call.
 */
function customerState(db: Kysely<DB>, tenantId: number, userId: number): Promise<CustomerState> {
  let byKey = reading.get(db);
  if (!byKey) reading.set(db, (byKey = new Map()));
  const key = `${tenantId}:${userId}`;
  const under = byKey.get(key);
  if (under) return under;
  const read = db
    .selectFrom('pricer_users')
    .select((eb) => [
      'status',
      'token_version',
      eb
        .selectFrom('pricer_data_versions')
        .select((v) => v.fn.sum<string>('version').as('v'))
        .whereRef('pricer_data_versions.pricer_id', '=', 'pricer_users.id')
        .as('data_version'),
    ])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
    .finally(() => byKey.delete(key));
  byKey.set(key, read);
  return read;
}
