import { sql, type Kysely } from 'kysely';

/**
 * tenants.roll_auto_pricing (issue 42, docs/roles.md): the auto rule with a spread band that prices a
 * customer's 转月 application at the live 月差 — {enabled, max_spread_deviation, fee_per_unit,
 * valid_seconds}; null: off (the trader prices every application).
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table tenants add column roll_auto_pricing jsonb`.execute(db);
}
