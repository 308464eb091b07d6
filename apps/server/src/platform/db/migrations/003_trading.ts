import { sql, type Kysely } from 'kysely';

/**
 * Trading: the simulated broker's own book (it is "the exchange", so it persists its orders and
 * fills before it reports them) and the router's dispatch log (which gateway an order was sent to).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    -- The simulated exchange's orders, keyed by the account (tenant) and the client order
    -- reference (our orders.id as text). Deliberately no foreign key into our own tables: the
    -- exchange does not know them.
    create table sim_orders (
      tenant_id integer not null,
      order_ref text not null,
      symbol text not null,
      direction text not null check (direction in ('BUY', 'SELL')),
      offset_flag text not null default 'OPEN' check (offset_flag in ('OPEN', 'CLOSE')),
      price_type text not null check (price_type in ('LIMIT', 'MARKET')),
      limit_price numeric(18, 4) not null default 0,
      volume_orign integer not null,
      volume_traded integer not null default 0 check (volume_traded >= 0 and volume_traded <= volume_orign),
      status text not null check (status in ('ALIVE', 'FILLED', 'CANCELLED', 'REJECTED')),
      last_msg text not null default '',
      seq bigserial not null,
      expires_at timestamptz not null,
      inserted_at timestamptz not null,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, order_ref),
      -- a rejected order may be nonsense (e.g. volume 0); anything accepted is not
      check (volume_orign > 0 or status = 'REJECTED'),
      check (status <> 'FILLED' or volume_traded = volume_orign)
    );
    create index sim_orders_alive on sim_orders (tenant_id, seq) where status = 'ALIVE';

    create table sim_trades (
      trade_id text primary key,
      tenant_id integer not null,
      order_ref text not null,
      volume integer not null check (volume > 0),
      price numeric(18, 4) not null,
      traded_at timestamptz not null,
      foreign key (tenant_id, order_ref) references sim_orders (tenant_id, order_ref)
    );
    create index sim_trades_order on sim_trades (tenant_id, order_ref);

    -- Written by the order router in the transaction that takes a PENDING order (→ ALIVE), BEFORE it
    -- hands the order to a gateway, so that after a crash or a sim/real switch every open order is
    -- looked up at the broker it went to. accepted_at: the broker confirmed it; cancel_requested_at:
    -- a cancel is owed to the broker (kept so that a crash cannot lose it).
    create table order_dispatch (
      order_id bigint primary key references orders(id),
      tenant_id integer not null references tenants(id),
      gateway_key text not null,
      sent_at timestamptz not null default now(),
      accepted_at timestamptz,
      cancel_requested_at timestamptz
    );
    create index order_dispatch_tenant on order_dispatch (tenant_id, gateway_key);
  `.execute(db);
}
