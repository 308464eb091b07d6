import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';
import { sql } from 'kysely';
import type { Database } from '../platform/db/database';

/** Seals private keys at rest, e.g. the app's SecretBox (AES-256-GCM). */
export interface KeyBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface SigningKeys {
  /** Private JWKs for the provider, newest first (it signs with the first). */
  privateJwks: JWK[];
  /** What `certs` publishes. */
  publicJwks: JSONWebKeySet;
}

const PUBLIC_MEMBERS = ['kty', 'kid', 'use', 'alg', 'n', 'e', 'crv', 'x', 'y'] as const;

export function toPublicJwk(jwk: JWK): JWK {
  const out: JWK = {};
  for (const member of PUBLIC_MEMBERS) if (jwk[member] !== undefined) out[member] = jwk[member];
  return out;
}

async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

/**
 * The RS256 signing keys, generated on first start and kept in `oidc_keys` so tokens and
 * sessions outlive restarts. An advisory lock makes concurrent first starts agree on one key.
 */
export async function loadSigningKeys(db: Database, keyBox?: KeyBox): Promise<SigningKeys> {
  const rows = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('pfp.oidc_keys'))`.execute(trx);
    const existing = await trx.selectFrom('oidc_keys').select(['kid', 'jwk']).orderBy('created_at', 'desc').execute();
    if (existing.length) return existing;
    const jwk = await generateSigningJwk();
    const stored = keyBox ? { kid: jwk.kid, enc: keyBox.encrypt(JSON.stringify(jwk)) } : jwk;
    await trx
      .insertInto('oidc_keys')
      .values({ kid: jwk.kid!, jwk: JSON.stringify(stored) })
      .execute();
    return [{ kid: jwk.kid!, jwk: stored as Record<string, unknown> }];
  });
  const privateJwks = rows.map(({ kid, jwk }) => {
    const value = typeof jwk === 'string' ? (JSON.parse(jwk) as Record<string, unknown>) : jwk;
    if (typeof value.enc === 'string') {
      if (!keyBox) throw new Error(`signing key ${kid} is sealed but no key box was given`);
      try {
        return JSON.parse(keyBox.decrypt(value.enc)) as JWK;
      } catch (err) {
        throw new Error(
          `signing key ${kid} cannot be opened with this SECRET_KEY: every instance on one database needs the same SECRET_KEY`,
          { cause: err },
        );
      }
    }
    return value as JWK;
  });
  return { privateJwks, publicJwks: { keys: privateJwks.map(toPublicJwk) } };
}
