import { sql, type Kysely } from 'kysely';

/**
 * Conditional fixing orders (条件单, docs/conditional-orders.md).
 *
 * - A WAITING row holds `quantity` lots of its contract: they are in contracts.frozen_quantity from
 *   creation until the row triggers (the lots then belong to the order it created), is cancelled or
 *   expires (the lots go back to remaining).
 * - WAITING → TRIGGERED | CANCELLED | EXPIRED, each by a conditional UPDATE ... WHERE status =
 *   'WAITING': that one guard makes a trigger and a cancel (or a second trigger) exclude each other.
 * - order_id is the order the trigger inserted in the same transaction (unique: one order per row).
 * - conditional_orders_waiting: the engine loads the waiting rows of the tenants it runs; the expiry
 *   job finds due rows by expires_at.
 * The consoles' view v_conditional_orders is in modules/conditional/sql.ts.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table conditional_orders (
      id serial primary key,
      tenant_id integer not null references tenants(id),
      contract_id integer not null references contracts(id),
      pricer_id integer not null references pricer_users(id),
      instrument_id text not null,
      direction text not null check (direction in ('BUY', 'SELL')),
      quantity integer not null check (quantity > 0),
      trigger_op text not null check (trigger_op in ('>=', '<=')),
      trigger_price numeric(18, 4) not null check (trigger_price > 0),
      order_price numeric(18, 4) not null default 0 check (order_price >= 0),
      expires_at timestamptz not null,
      status text not null default 'WAITING' check (status in ('WAITING', 'TRIGGERED', 'CANCELLED', 'EXPIRED')),
      order_id bigint unique references orders(id),
      trigger_last_price numeric(18, 4),
      triggered_at timestamptz,
      last_msg text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((status = 'TRIGGERED') = (order_id is not null))
    );
    create index conditional_orders_waiting on conditional_orders (tenant_id, instrument_id) where status = 'WAITING';
    create index conditional_orders_due on conditional_orders (expires_at) where status = 'WAITING';
    create index conditional_orders_tenant on conditional_orders (tenant_id, id desc);
    create index conditional_orders_contract on conditional_orders (contract_id, id desc);
  `.execute(db);
}
