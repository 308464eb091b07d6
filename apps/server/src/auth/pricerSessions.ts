import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { PricerClaims, PricerTokens } from './pricerTokens';

/**
 * A customer token is valid while its signature is AND its customer still may sign in with what
 * issued it: the row exists, is not inactive and has the token's version (a password reset bumps
 * it). Checked on every call, by primary key — one indexed read, no cache, so the trader's reset
 * or deactivation ends the session at once on every server instance.
 */
export async function verifyPricerSession(db: Kysely<DB>, tokens: PricerTokens, token: string): Promise<PricerClaims> {
  const claims = await tokens.verify(token);
  const row = await db
    .selectFrom('pricer_users')
    .select(['status', 'token_version'])
    .where('id', '=', claims.userId)
    .where('tenant_id', '=', claims.tenantId)
    .executeTakeFirst();
  if (row?.status === 'inactive') throw new AccountDisabledError();
  if (!row || row.token_version !== claims.version) throw new Error('session ended');
  return claims;
}

/** The trader switched this customer off (停用): their live tokens end with that reason. */
export class AccountDisabledError extends Error {
  constructor() {
    super('account disabled');
  }
}
