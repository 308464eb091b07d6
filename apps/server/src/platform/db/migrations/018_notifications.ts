import { sql, type Kysely } from 'kysely';

/**
 * Notifications and outbound webhooks (issue 33, docs/notifications.md):
 * - notifications: one row per audience of an event — the customer's (`pricer`, with pricer_id) and
 *   the company's traders' (`trader`, pricer_id NULL: the trader desk's shared inbox). `ref` names the
 *   event (`deadline-t3:12`): unique per audience, so a producer run twice (two instances, a retry)
 *   writes it once;
 * - tenant_webhooks: one robot address per company, its secret (encrypted) and the kinds it wants;
 * - webhook_deliveries: the outbox, written in the notification's transaction; the worker claims a row
 *   (claimed_until) before it sends and marks it delivered after a 2xx;
 * The delivery log's view v_webhook_deliveries is in modules/notifications/sql.ts.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table notifications (
      id bigserial primary key,
      tenant_id integer not null references tenants (id),
      audience text not null check (audience in ('trader', 'pricer')),
      pricer_id integer references pricer_users (id),
      kind text not null,
      title text not null,
      body text not null,
      ref text,
      read_at timestamptz,
      created_at timestamptz not null default now(),
      check ((audience = 'pricer') = (pricer_id is not null))
    );
    create unique index notifications_ref on notifications (audience, ref) where ref is not null;
    create index notifications_pricer on notifications (pricer_id, id desc) where audience = 'pricer';
    create index notifications_trader on notifications (tenant_id, id desc) where audience = 'trader';
    create index notifications_unread on notifications (tenant_id, audience, pricer_id) where read_at is null;

    create table tenant_webhooks (
      tenant_id integer primary key references tenants (id),
      url text not null,
      secret_enc text not null,
      kinds text[] not null,
      updated_at timestamptz not null default now()
    );

    create table webhook_deliveries (
      id bigserial primary key,
      tenant_id integer not null references tenants (id),
      notification_id bigint not null unique references notifications (id),
      kind text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_at timestamptz not null default now(),
      claimed_until timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create index webhook_deliveries_due on webhook_deliveries (next_at) where status = 'pending';
    create index webhook_deliveries_tenant on webhook_deliveries (tenant_id, id desc);
  `.execute(db);
}
