import { sql, type Kysely } from 'kysely';

/**
 * Issue 42 item 3 (docs/fixing.md "转月 as the customer's application"):
 *
 * - contracts keep their agreed total: a roll no longer takes its lots out of total_quantity, it moves
 *   them from remaining to rolled_out_quantity, so the invariant becomes
 *   executed + frozen + remaining + rolled_out = total. The rolls made before are put back into their
 *   old contracts' totals (total + rolled_out), in the same statement as the new check.
 * - roll_applications: the customer's application (contract, lots, target month), the trader's offer
 *   (spread, fee per unit, valid_until) and its acceptance (to_contract_id: the roll it ran, once).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts drop constraint contracts_check;
    update contracts set total_quantity = total_quantity + rolled_out_quantity where rolled_out_quantity > 0;
    alter table contracts add constraint contracts_lots_check
      check (executed_quantity + frozen_quantity + remaining_quantity + rolled_out_quantity = total_quantity);

    create table roll_applications (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      contract_id integer not null references contracts (id),
      to_instrument_id text not null,
      quantity integer not null check (quantity > 0),
      status text not null default 'pending' check (status in ('pending', 'priced', 'accepted')),
      spread numeric(18, 4),
      fee_per_unit numeric(18, 2),
      valid_until timestamptz,
      priced_by text,
      priced_at timestamptz,
      accepted_at timestamptz,
      to_contract_id integer references contracts (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (status = 'pending' or (spread is not null and fee_per_unit is not null and valid_until is not null)),
      check ((status = 'accepted') = (to_contract_id is not null))
    );
    create index roll_applications_tenant on roll_applications (tenant_id, id desc);
    create index roll_applications_pricer on roll_applications (pricer_id, id desc);
    create index roll_applications_contract on roll_applications (contract_id);
  `.execute(db);
}
