import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the trader's orders view at scale (bench/views.bench.ts: 1,000,000 orders, 100 tenants).
 *
 * A tenant's orders are spread over the whole table (every tenant inserts all the time), so any plan that visits
 * the heap row by row touches about one 8 kB page per order: ~10,000 pages for a tenant with 10,000 orders,
 * ~20 ms per query even fully cached.
 *
 * - orders_tenant_created: the page sorted by created_at (newest first, the list's usual order) walks this index
 *   and stops after the page instead of reading and sorting every matching row (later sort keys are finished by
 *   an incremental sort).
 * - orders_tenant_status_cover: answers COUNT(*) of a filtered page (total_count) and the group-by-status stats
 *   from the index alone (index-only scan, once vacuum has marked the pages all-visible): the filter and group
 *   column, the join keys of v_orders (pricer_id, contract_id) and what the aggregates read (id, trade_price,
 *   volume_traded).
 *
 * Plain CREATE INDEX (migrations run in a transaction, CONCURRENTLY cannot): on a large live table this blocks
 * writes to orders while it builds (about 1–2 s per million rows).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create index orders_tenant_created on orders (tenant_id, created_at desc);
    create index orders_tenant_status_cover on orders (tenant_id, status, pricer_id)
      include (contract_id, id, trade_price, volume_traded);
  `.execute(db);
}
