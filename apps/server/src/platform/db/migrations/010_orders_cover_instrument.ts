import { sql, type Kysely } from 'kysely';

/**
 * orders_tenant_status_cover (004) again, now with instrument_id.
 *
 * 006 joined instruments into v_orders (the multiplier). PostgreSQL 15 still drops the joins a query does not
 * read, but keeps their keys among the columns the scan of orders must produce, so since 006 the page's
 * total_count and the group-by-status stats needed o.instrument_id, which the covering index lacked: they went
 * from an index-only scan to a bitmap heap scan over one heap page per order — for a tenant of 10,000 orders
 * 23–35 ms instead of 2.7 ms (bench/views.bench.ts, docs/performance.md "The covering index lost"). Every key
 * v_orders joins on is in the index again; `views/coverIndex.pg.test.ts` fails when one is missing.
 *
 * Built under the old one's name; plain CREATE INDEX (see 004: migrations run in a transaction).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    drop index orders_tenant_status_cover;
    create index orders_tenant_status_cover on orders (tenant_id, status, pricer_id)
      include (contract_id, instrument_id, id, trade_price, volume_traded);
  `.execute(db);
}
