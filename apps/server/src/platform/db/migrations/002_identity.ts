import { sql, type Kysely } from 'kysely';

/** The embedded OpenID provider: traders, its persisted protocol state and its signing keys. */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table traders (
      id text primary key default gen_random_uuid()::text,
      username text not null unique,
      password_hash text not null,
      name text,
      email text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table oidc_payloads (
      id text not null,
      type text not null,
      payload jsonb not null,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      primary key (type, id)
    );
    create index oidc_payloads_grant_id on oidc_payloads (grant_id) where grant_id is not null;
    create index oidc_payloads_uid on oidc_payloads (uid) where uid is not null;
    create index oidc_payloads_user_code on oidc_payloads (user_code) where user_code is not null;
    create index oidc_payloads_expires_at on oidc_payloads (expires_at) where expires_at is not null;

    create table oidc_keys (
      kid text primary key,
      jwk jsonb not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
