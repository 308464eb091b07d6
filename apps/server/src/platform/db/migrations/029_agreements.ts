import { sql, type Kysely } from 'kysely';

/**
 * 点价协议 (issue 43 item 3, docs/agreement.md):
 * - agreement_templates: a company's agreement texts, one row per version (1, 2, …; never edited);
 *   `required`: every customer must accept this version (or a later one) before fixing again;
 * - agreement_acceptances: a customer's acceptance on the desk, one per version: when, from which
 *   address and device;
 * - agreement_signatures: the signed paper or e-signature the trader records against a version
 *   (number, date, file name); recording it again replaces it.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table agreement_templates (
      tenant_id integer not null references tenants (id),
      version integer not null check (version > 0),
      title text not null,
      body text not null,
      required boolean not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, version)
    );

    create table agreement_acceptances (
      pricer_id integer not null references pricer_users (id),
      tenant_id integer not null,
      version integer not null,
      accepted_at timestamptz not null default now(),
      ip text,
      user_agent text,
      primary key (pricer_id, version),
      foreign key (tenant_id, version) references agreement_templates (tenant_id, version)
    );

    create table agreement_signatures (
      pricer_id integer not null references pricer_users (id),
      tenant_id integer not null,
      version integer not null,
      reference text not null,
      signed_on date not null,
      file_name text,
      recorded_by text not null,
      recorded_at timestamptz not null default now(),
      primary key (pricer_id, version),
      foreign key (tenant_id, version) references agreement_templates (tenant_id, version)
    );
  `.execute(db);
}
