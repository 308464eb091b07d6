import { sql, type Kysely } from 'kysely';

/**
 * The business terms of a price-fixing contract (docs/fixing.md): the basis (基差) added to the futures
 * price, the fixing deadline (点价截止日), and what follows from them on orders and in the views.
 *
 * - contracts.basis / orders.basis: yuan per unit of the futures price, may be negative, on the
 *   instrument's tick grid. An order copies its contract's basis when it is submitted, so a fixed price
 *   never changes after the fact. Rows from before this migration get 0.
 * - contracts.fixing_deadline: the last calendar day (Asia/Shanghai) the contract can be fixed. NULL only
 *   for contracts created before this migration (no deadline); create-contract requires one.
 * - order_dispatch.cancel_reason: why a cancel was sent to the broker on our own initiative (the deadline),
 *   so that the order ends with that message instead of the broker's generic '已撤单'.
 * - what follows in the views (fixed_price, avg_fixed_price), v_confirmations and v_audit_log: the
 *   capabilities' sql.ts (modules/orders, contracts, fixing, audit).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts add column basis numeric(18, 4) not null default 0;
    alter table contracts add column fixing_deadline date;
    alter table orders add column basis numeric(18, 4) not null default 0;
    alter table order_dispatch add column cancel_reason text;

    -- The expiry job looks for contracts still open past their deadline (a handful per day).
    create index contracts_fixing_deadline on contracts (fixing_deadline) where status in ('active', 'paused');
    -- Statements and confirmations: one tenant's (or customer's) fills by time.
    create index trades_tenant_created on trades (tenant_id, created_at);
  `.execute(db);
}
