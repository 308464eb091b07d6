import { sql, type Kysely } from 'kysely';

/**
 * The customer's acknowledgement of a 点价确认单 (issue 29), and the money of an order in units.
 *
 * - confirmation_acks: one row per acknowledged order (the first acknowledgement wins: the key is the
 *   order), with the address and the browser it came from — evidence in a dispute.
 * - instruments.unit: what lots × multiplier count in (吨, 克, 桶 …; the catalogue writes it at each
 *   start), NULL for index and bond futures.
 * The views show both (modules/orders, contracts and fixing sql.ts).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table instruments add column unit text;

    create table confirmation_acks (
      order_id integer primary key references orders (id),
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      acknowledged_at timestamptz not null default now(),
      ip text,
      user_agent text
    );
  `.execute(db);
}
