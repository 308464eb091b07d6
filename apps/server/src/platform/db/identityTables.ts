import type { ColumnType, Generated } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import type { DefaultTimestamp } from './columns';

/** The identity tables' rows (part of schema.ts's DB): the embedded provider's and the login guard's. */

// ---- Identity (migration 002): the embedded OpenID provider's traders, sessions and keys ----------

export interface TraderTable {
  /** The `sub` of the trader's tokens. */
  id: Generated<string>;
  /** Stored lower-case (as Keycloak does); sign-in is case-insensitive. */
  username: string;
  password_hash: string;
  name: string | null;
  email: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** Access tokens issued before this are refused (migration 006). */
  password_changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface OidcPayloadTable {
  id: string;
  /** The oidc-provider model name: Session, Grant, AuthorizationCode, RefreshToken, Interaction… */
  type: string;
  payload: ColumnType<AdapterPayload, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: ColumnType<Date, Date | string | undefined, Date | string> | null;
  consumed_at: ColumnType<Date, Date | string | undefined, Date | string> | null;
}

export interface OidcKeyTable {
  kid: string;
  /** The private JWK, or `{ enc }` when sealed with the caller's key box. */
  jwk: ColumnType<Record<string, unknown>, string, string>;
  created_at: DefaultTimestamp;
}

/** Login failures per (account, address); address '' = the account from every address (015, auth/loginGuard.ts). */
export interface LoginFailureTable {
  account: string;
  address: string;
  failures: number;
  until_ms: number;
  last_ms: number;
}
