import { sql, type Kysely } from 'kysely';

/**
 * A contract's whole life (issue 32, docs/fixing.md): 转月 roll, 延期 extension, 均价点价 average pricing.
 *
 * - contracts.total_quantity may fall to 0: a roll takes unfixed lots out of the contract (total and
 *   remaining fall together, so executed + frozen + remaining = total still holds) and counts them in
 *   rolled_out_quantity; the new contract names the old one in rolled_from.
 * - contracts.fees: Σ of the roll and extension fees charged on the contract (元).
 * - contracts.pricing_mode 'point' | 'average' with the window average_start … average_end.
 * - contract_events: the rolls and extensions of a contract (the 转月确认单 is read from its row).
 * - average_fixings: one row per (contract, trading day) of an average contract, inserted in the same
 *   transaction as that day's order: the primary key is the guard of exactly once.
 * v_contracts (modules/contracts/sql.ts) shows the new columns.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts drop constraint contracts_total_quantity_check;
    alter table contracts add constraint contracts_total_quantity_check check (total_quantity >= 0);
    alter table contracts add column pricing_mode text not null default 'point'
      check (pricing_mode in ('point', 'average'));
    alter table contracts add column average_start date;
    alter table contracts add column average_end date;
    alter table contracts add column rolled_from integer references contracts (id);
    alter table contracts add column rolled_out_quantity integer not null default 0
      check (rolled_out_quantity >= 0);
    alter table contracts add column fees numeric(18, 2) not null default 0;
    alter table contracts add constraint contracts_average_window
      check (pricing_mode = 'point' or (average_start is not null and average_end is not null
                                        and average_start <= average_end));

    create table contract_events (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      contract_id integer not null references contracts (id),
      kind text not null check (kind in ('roll', 'extension')),
      actor text not null,
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index contract_events_contract on contract_events (contract_id, id);

    create table average_fixings (
      contract_id integer not null references contracts (id),
      day date not null,
      tenant_id integer not null references tenants (id),
      planned_lots integer not null check (planned_lots > 0),
      order_id integer not null references orders (id),
      created_at timestamptz not null default now(),
      primary key (contract_id, day)
    );
  `.execute(db);
}
