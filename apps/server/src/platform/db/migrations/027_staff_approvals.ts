import { sql, type Kysely } from 'kysely';

/**
 * Issue 42 (docs/roles.md): staff roles and maker-checker approvals.
 *
 * - staff: who works for a company and with which roles (admin, trader, risk, finance, viewer). Every
 *   existing company's owner becomes its staff member holding every role, so a single-trader company
 *   keeps working until an admin changes it.
 * - tenants.approval_policy: which calls need a second person, and their thresholds (null: the default).
 * - approval_requests: a call held for a second person — what (action, body), who, when, the subject it
 *   acts on and its state when made (stale check), before and after, and the decision.
 * - funds_ledger: the bank reference (银行流水号) of a deposit or withdrawal, and the checker who approved it.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table staff (
      tenant_id bigint not null references tenants(id),
      trader_sub text not null,
      full_name text not null default '',
      roles text[] not null,
      status text not null default 'active' check (status in ('active', 'disabled')),
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, trader_sub)
    );
    create unique index staff_one_company on staff (trader_sub);
    insert into staff (tenant_id, trader_sub, full_name, roles)
      select t.id, t.owner_sub, coalesce(tr.name, ''), array['admin', 'trader', 'risk', 'finance', 'viewer']
      from tenants t left join traders tr on tr.id = t.owner_sub;

    alter table tenants add column approval_policy jsonb;

    create table approval_requests (
      id bigserial primary key,
      tenant_id bigint not null references tenants(id),
      action text not null,
      body jsonb not null,
      subject text not null,
      subject_state text not null,
      subject_label text not null default '',
      before jsonb,
      after jsonb,
      maker text not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'failed')),
      checker text,
      reason text,
      result jsonb,
      created_at timestamptz not null default now(),
      decided_at timestamptz
    );
    create index approval_requests_pending on approval_requests (tenant_id, status, id);

    alter table funds_ledger add column bank_ref text;
    alter table funds_ledger add column checker text;
  `.execute(db);
}
