import { sql, type Kysely } from 'kysely';

/**
 * The customer's legal identity and their confirm-sheet setting (issue 29, docs/fixing.md).
 *
 * - pricer_users.full_name (客户全称, the legal name a confirmation and a statement print) and
 *   contact_name (联系人); NULL until the trader fills them in (prints fall back to the username).
 * - pricer_users.confirm_before_fix: the desk shows the confirm sheet before every fix; the trader may
 *   switch it off for an experienced customer. Default on, so no existing customer loses the sheet.
 * v_confirmations (modules/fixing/sql.ts) prints pricer_full_name: full_name, or the username when empty.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table pricer_users add column full_name text;
    alter table pricer_users add column contact_name text;
    alter table pricer_users add column confirm_before_fix boolean not null default true;
  `.execute(db);
}
