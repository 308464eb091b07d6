import { sql, type Kysely } from 'kysely';

/**
 * Issue 30 (docs/security.md "Login protection"): the login failure counters in the database, so every
 * server instance on one PostgreSQL counts the same failures and the trader's unlock (or a password
 * reset) reaches all of them.
 *
 * One row per (account, address); address '' is the account from every address (the slower global
 * ceiling). Times are epoch milliseconds as the guard computes them.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table login_failures (
      account text not null,
      address text not null,
      failures integer not null,
      until_ms bigint not null,
      last_ms bigint not null,
      primary key (account, address)
    );
    create index login_failures_last on login_failures (last_ms);
  `.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table login_failures`.execute(db);
}
