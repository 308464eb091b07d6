import { sql, type Kysely } from 'kysely';

/**
 * Production hardening (docs/security.md):
 * - orders.client_order_id: the desk's idempotency key. One order per (customer, key): a submit
 *   retried after a timeout finds the first order instead of fixing twice.
 * - pricer_users.token_version: in every customer token; a password reset bumps it, so tokens
 *   issued before stop working at once.
 * - traders.password_changed_at: access tokens issued before a password change are refused.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table orders add column client_order_id text
      check (client_order_id is null or length(client_order_id) between 1 and 64);
    create unique index orders_client_order_id on orders (tenant_id, pricer_id, client_order_id)
      where client_order_id is not null;

    alter table pricer_users add column token_version integer not null default 0;

    alter table traders add column password_changed_at timestamptz;
  `.execute(db);
}
