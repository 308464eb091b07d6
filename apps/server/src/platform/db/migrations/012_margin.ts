import { sql, type Kysely } from 'kysely';

/**
 * Margin and credit (资金与保证金, docs/margin.md):
 * - tenants.default_margin_rate: the company's margin rate for contracts created without one (0 = none);
 * - contracts.margin_rate (immutable, like the basis) and contracts.settled_quantity (fixed lots
 *   delivered / settled, never more than executed);
 * - pricer_accounts: one row per customer — the cached balance (Σ of the ledger, written in the
 *   ledger entry's transaction), the credit line, whether the customer is in a margin call. A fixing
 *   locks this row (the submit's transaction) so that concurrent fixings of one customer are checked
 *   one after the other;
 * - funds_ledger: append-only (its trigger, modules/margin/sql.ts, refuses UPDATE and DELETE: a wrong entry
 *   is reversed by another);
 * - indexes for the margin a customer holds: open orders and waiting 条件单 per customer.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table tenants add column default_margin_rate numeric(6, 4) not null default 0
      check (default_margin_rate >= 0 and default_margin_rate <= 1);

    alter table contracts add column margin_rate numeric(6, 4) not null default 0
      check (margin_rate >= 0 and margin_rate <= 1);
    alter table contracts add column settled_quantity integer not null default 0
      check (settled_quantity >= 0 and settled_quantity <= executed_quantity);

    create table pricer_accounts (
      pricer_id integer primary key references pricer_users (id),
      tenant_id integer not null references tenants (id),
      balance numeric(18, 2) not null default 0,
      credit_line numeric(18, 2) not null default 0 check (credit_line >= 0),
      in_call boolean not null default false,
      updated_at timestamptz not null default now()
    );
    create index pricer_accounts_tenant on pricer_accounts (tenant_id);

    create table funds_ledger (
      id bigserial primary key,
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      kind text not null check (kind in ('deposit', 'withdraw', 'adjust')),
      amount numeric(18, 2) not null check (amount <> 0),
      balance_after numeric(18, 2) not null,
      note text not null default '',
      actor text not null,
      created_at timestamptz not null default now()
    );
    create index funds_ledger_pricer on funds_ledger (pricer_id, id desc);

    create index orders_pricer_open on orders (pricer_id) where status in ('PENDING', 'ALIVE');
    create index conditional_orders_pricer_waiting on conditional_orders (pricer_id) where status = 'WAITING';
  `.execute(db);
}
