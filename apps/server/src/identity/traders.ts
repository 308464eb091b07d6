import { sql } from 'kysely';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../platform/auth/passwords';
import type { Database } from '../platform/db/database';

export interface Trader {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
}

export interface AddTraderInput {
  username: string;
  password: string;
  name?: string | undefined;
  email?: string | undefined;
  /** The `sub` to use for a new trader (e.g. the id it had in Keycloak); a UUID by default. */
  id?: string | undefined;
}

export const MAX_USERNAME = 64;
export const MAX_PASSWORD = 256;

/** Usernames compare case-insensitively, as in Keycloak: stored trimmed and lower-cased. */
export const normalizeUsername = (username: string) => username.normalize('NFKC').trim().toLowerCase();

export function validateTraderInput(input: AddTraderInput): string | null {
  const username = normalizeUsername(input.username);
  if (!username) return 'username must not be empty';
  if (username.length > MAX_USERNAME) return `username must be at most ${MAX_USERNAME} characters`;
  if (/[\s\p{Cc}]/u.test(username)) return 'username must not contain spaces or control characters';
  if (!input.password) return 'password must not be empty';
  if (input.password.length > MAX_PASSWORD) return `password must be at most ${MAX_PASSWORD} characters`;
  if (input.id !== undefined && !/^[A-Za-z0-9._:@-]{1,128}$/.test(input.id)) return 'id has invalid characters';
  if (input.email !== undefined && input.email !== '' && !/^[^\s@]+@[^\s@]+$/.test(input.email))
    return 'email is not an e-mail address';
  return null;
}

/**
 * Creates the trader, or — when the username exists — sets its password (and name/email when
 * given). The id of an existing trader never changes: it is the `sub` of its tokens. A changed
 * password ends every sign-in of the trader: grants, sessions and refresh tokens are deleted and
 * access tokens issued before are refused (password_changed_at). The same password again (the
 * demo seed at every start) changes nothing.
 */
export async function addTrader(db: Database, input: AddTraderInput): Promise<Trader & { created: boolean }> {
  const problem = validateTraderInput(input);
  if (problem) throw new Error(problem);
  const idb = db;
  const username = normalizeUsername(input.username);
  const existing = await idb
    .selectFrom('traders')
    .select(['id', 'password_hash'])
    .where('username', '=', username)
    .executeTakeFirst();
  const same = existing ? await verifyPassword(input.password, existing.password_hash) : undefined;
  if (existing && same?.ok && !same.rehash) {
    const name = input.name?.trim();
    const email = input.email?.trim();
    const row =
      name || email
        ? await idb
            .updateTable('traders')
            .set({ ...(name ? { name } : {}), ...(email ? { email } : {}) })
            .where('id', '=', existing.id)
            .returning(['id', 'username', 'name', 'email'])
            .executeTakeFirstOrThrow()
        : await idb
            .selectFrom('traders')
            .select(['id', 'username', 'name', 'email'])
            .where('id', '=', existing.id)
            .executeTakeFirstOrThrow();
    return { ...row, created: false };
  }
  const passwordHash = await hashPassword(input.password);
  const changed = existing !== undefined && !same?.ok;
  const name = input.name?.trim() || null;
  const email = input.email?.trim() || null;
  const row = await idb
    .insertInto('traders')
    .values({
      ...(input.id ? { id: input.id } : {}),
      username,
      password_hash: passwordHash,
      name,
      email,
    })
    .onConflict((oc) =>
      oc.column('username').doUpdateSet((eb) => ({
        password_hash: eb.ref('excluded.password_hash'),
        name: name === null ? eb.ref('traders.name') : eb.ref('excluded.name'),
        email: email === null ? eb.ref('traders.email') : eb.ref('excluded.email'),
        updated_at: sql<Date>`now()`,
        ...(changed ? { password_changed_at: sql<Date>`now()` } : {}),
      })),
    )
    .returning(['id', 'username', 'name', 'email', sql<boolean>`(xmax = 0)`.as('created')])
    .executeTakeFirstOrThrow();
  if (changed) await revokeTraderSignIns(idb, row.id);
  return row;
}

/** Every grant, session and token of the embedded provider that belongs to the trader. */
export async function revokeTraderSignIns(db: Database, traderId: string) {
  const grants = db
    .selectFrom('oidc_payloads')
    .select('id')
    .where('type', '=', 'Grant')
    .where(sql<boolean>`payload->>'accountId' = ${traderId}`);
  await db
    .deleteFrom('oidc_payloads')
    .where((eb) => eb.or([eb(sql`payload->>'accountId'`, '=', traderId), eb('grant_id', 'in', grants)]))
    .execute();
}

/** When the trader's password last changed (ms since the epoch), for the API's token check. */
export async function passwordChangedAt(db: Database, traderId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('traders')
    .select('password_changed_at')
    .where('id', '=', traderId)
    .executeTakeFirst();
  return row?.password_changed_at ? new Date(row.password_changed_at).getTime() : undefined;
}

export async function findTraderById(db: Database, id: string): Promise<Trader | undefined> {
  return db.selectFrom('traders').select(['id', 'username', 'name', 'email']).where('id', '=', id).executeTakeFirst();
}

/**
 * The trader when the password is right; the same work is done for unknown usernames. An older
 * hash is upgraded to today's cost on the way (docs/security.md).
 */
export async function verifyTrader(db: Database, username: string, password: string): Promise<Trader | undefined> {
  const row = await db
    .selectFrom('traders')
    .select(['id', 'username', 'name', 'email', 'password_hash'])
    .where('username', '=', normalizeUsername(username))
    .executeTakeFirst();
  const { ok, rehash } = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
  if (!row || !ok) return undefined;
  if (rehash) {
    await db
      .updateTable('traders')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', row.id)
      .where('password_hash', '=', row.password_hash)
      .execute();
  }
  const { password_hash: _, ...trader } = row;
  return trader;
}
