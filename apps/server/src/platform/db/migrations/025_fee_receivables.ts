import { sql, type Kysely } from 'kysely';

/**
 * Issue 41 items 4 and 5 (docs/statements.md): fees are receivables, and a statement the customer answers.
 *
 * - fee_receivables: a roll or extension fee owed by the customer. It no longer touches the funds
 *   ledger when charged, so it never holds margin or refuses a fix; the trader settles it later —
 *   collected from the customer's funds (an 调整 the trader confirms: ledger_entry_id), offset against
 *   something outside the platform (the goods' payment), or waived — each with a note.
 *   Fees charged before this migration were posted to the ledger as 调整 −fee: they are carried over
 *   as collected (the money already left the balance), so every contract's fees have a receivable.
 * - statement_responses: the customer's answer to a statement of a period (对账确认 / 有异议 with a
 *   note); one per customer, period and statement content (digest): answering the same content again
 *   records nothing more; a statement that changed afterwards can be answered again.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table fee_receivables (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      contract_id integer not null references contracts (id),
      kind text not null check (kind in ('roll', 'extension')),
      amount numeric(18, 2) not null check (amount > 0),
      note text not null default '',
      actor text not null,
      created_at timestamptz not null default now(),
      status text not null default 'open' check (status in ('open', 'collected', 'offset', 'waived')),
      settled_at timestamptz,
      settled_by text,
      settle_note text not null default '',
      ledger_entry_id integer references funds_ledger (id),
      check ((status = 'open') = (settled_at is null))
    );
    create index fee_receivables_pricer on fee_receivables (pricer_id, id);
    create index fee_receivables_contract on fee_receivables (contract_id);

    insert into fee_receivables (tenant_id, pricer_id, contract_id, kind, amount, note, actor, created_at,
                                 status, settled_at, settled_by, settle_note)
    select e.tenant_id, c.pricer_id, e.contract_id, e.kind, (e.payload->>'fee')::numeric, '', e.actor, e.created_at,
           'collected', e.created_at, e.actor, '升级前已从资金扣收'
      from contract_events e
      join contracts c on c.id = e.contract_id
     where (e.payload->>'fee')::numeric > 0
       and (e.kind = 'extension' or (e.payload->>'to_contract_id')::integer = e.contract_id);

    create table statement_responses (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      start_date date not null,
      end_date date not null,
      digest text not null,
      response text not null check (response in ('confirmed', 'disputed')),
      note text not null default '',
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      unique (pricer_id, start_date, end_date, digest)
    );
  `.execute(db);
}
