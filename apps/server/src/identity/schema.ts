import type { ColumnType, Generated, Kysely } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/database';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Tables of migration 002_identity, kept here so the identity module stays self-contained. */
export interface TraderTable {
  /** The `sub` of the trader's tokens. */
  id: Generated<string>;
  /** Stored lower-case (as Keycloak does); sign-in is case-insensitive. */
  username: string;
  password_hash: string;
  name: string | null;
  email: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface OidcPayloadTable {
  id: string;
  /** The oidc-provider model name: Session, Grant, AuthorizationCode, RefreshToken, Interaction… */
  type: string;
  payload: ColumnType<AdapterPayload, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface OidcKeyTable {
  kid: string;
  /** The private JWK, or `{ enc }` when sealed with the caller's key box. */
  jwk: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Timestamp>;
}

export type IdentityTables = {
  traders: TraderTable;
  oidc_payloads: OidcPayloadTable;
  oidc_keys: OidcKeyTable;
};

export type IdentityDb = Kysely<IdentityTables>;

/** The application database seen with the identity tables (which src/db/schema.ts does not list). */
export const identityDb = (db: Database | IdentityDb): IdentityDb => db as unknown as IdentityDb;
