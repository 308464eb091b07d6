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

    -- Left joins on NOT NULL foreign keys give the same rows, and let PostgreSQL drop the joins a
    -- query does not read (the counts and the stats need neither name).
    create or replace view v_orders as
      select o.id, o.tenant_id, o.contract_id, o.pricer_id, u.username as pricer_name, c.name as contract_name,
             o.instrument_id, o.direction, o.volume_orign, o.volume_traded::text as volume_traded,
             o.limit_price, o.trade_price, o.trade_price * o.volume_traded as trade_amount, o.status,
             case o.status when 'PENDING' then '待发送' when 'ALIVE' then '执行中' when 'FINISHED' then '已完成'
                           else '已撤销' end as status_str,
             o.last_msg, o.created_at
        from orders o
        left join pricer_users u on u.id = o.pricer_id
        left join contracts c on c.id = o.contract_id;
  `.execute(db);
}
