import { sql, type Kysely } from 'kysely';

/**
 * Issue 41 §1 (docs/margin.md "Which rate a contract gets"): margin on by default.
 * - product_margin_rates: a company's margin rate for one product (品种, by the contracts' product_name),
 *   over the company's default (tenants.default_margin_rate) for that product's new contracts;
 * - pricer_users.margin_rate: a customer's own rate over the company's (null: the company's).
 * The rate is resolved when a contract is created and stored in contracts.margin_rate, so the margin
 * check (margin_check, v_margin_sums) reads it as before. Existing contracts keep their rates; the
 * companies' defaults are kept too (a new company starts at 10 %, set where it is created).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table product_margin_rates (
      tenant_id integer not null references tenants (id),
      product_name text not null,
      margin_rate numeric(6, 4) not null check (margin_rate >= 0 and margin_rate <= 1),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, product_name)
    );
    alter table pricer_users add column margin_rate numeric(6, 4)
      check (margin_rate >= 0 and margin_rate <= 1);
  `.execute(db);
}
