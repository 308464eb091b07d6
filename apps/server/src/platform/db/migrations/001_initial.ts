import { sql, type Kysely } from 'kysely';

/**
 * Tenants, pricers, catalogue, contracts, orders, trades and the audit log. Views, functions and triggers are
 * defined beside their capability (modules/<capability>/sql.ts, docs/architecture.md "SQL objects").
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table tenants (
      id serial primary key,
      owner_sub text not null unique,
      company_name text not null,
      is_sim boolean not null default true,
      broker_name text,
      futures_account text,
      futures_password_enc text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table pricer_users (
      id serial primary key,
      tenant_id integer not null references tenants(id),
      username text not null,
      password_hash text not null,
      phone text,
      status text not null default 'pending' check (status in ('active', 'inactive', 'pending')),
      created_at timestamptz not null default now(),
      last_login_at timestamptz,
      unique (tenant_id, username)
    );

    create table products (
      id serial primary key,
      exchange_id text not null,
      product_id text not null,
      name text not null unique,
      unique (exchange_id, product_id)
    );

    create table instruments (
      symbol text primary key,
      name text not null,
      exchange_id text not null,
      product_id text not null,
      product_name text not null references products(name),
      price_tick numeric(18, 6) not null,
      volume_multiple integer not null,
      expired boolean not null default false
    );
    create index instruments_product on instruments (product_name);

    create table contracts (
      id serial primary key,
      tenant_id integer not null references tenants(id),
      name text not null,
      pricer_id integer not null references pricer_users(id),
      product_name text not null,
      instrument_id text not null,
      direction text not null check (direction in ('BUY', 'SELL')),
      total_quantity integer not null check (total_quantity > 0),
      executed_quantity integer not null default 0 check (executed_quantity >= 0),
      frozen_quantity integer not null default 0 check (frozen_quantity >= 0),
      remaining_quantity integer not null check (remaining_quantity >= 0),
      avg_price numeric(18, 4) not null default 0,
      status text not null default 'active' check (status in ('active', 'paused', 'expired', 'completed')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- The invariant of every contract, enforced by the database itself.
      check (executed_quantity + frozen_quantity + remaining_quantity = total_quantity)
    );
    create index contracts_tenant on contracts (tenant_id, id desc);
    create index contracts_pricer on contracts (pricer_id);

    create table orders (
      id bigserial primary key,
      tenant_id integer not null references tenants(id),
      contract_id integer not null references contracts(id),
      pricer_id integer not null references pricer_users(id),
      instrument_id text not null,
      direction text not null check (direction in ('BUY', 'SELL')),
      volume_orign integer not null check (volume_orign > 0),
      volume_traded integer not null default 0 check (volume_traded >= 0 and volume_traded <= volume_orign),
      limit_price numeric(18, 4) not null default 0 check (limit_price >= 0),
      trade_price numeric(18, 4) not null default 0,
      status text not null default 'PENDING' check (status in ('PENDING', 'ALIVE', 'FINISHED', 'CANCELLED')),
      last_msg text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index orders_tenant_id on orders (tenant_id, id desc);
    create index orders_tenant_status on orders (tenant_id, status, id desc);
    create index orders_contract on orders (contract_id, id desc);
    create index orders_pricer on orders (pricer_id, id desc);
    create index orders_open on orders (tenant_id) where status in ('PENDING', 'ALIVE');

    create table trades (
      id bigserial primary key,
      tenant_id integer not null references tenants(id),
      order_id bigint not null references orders(id),
      trade_id text not null,
      volume integer not null check (volume > 0),
      price numeric(18, 4) not null,
      created_at timestamptz not null default now(),
      unique (order_id, trade_id)
    );

    create table audit_log (
      id bigserial primary key,
      tenant_id integer,
      actor text not null,
      action text not null,
      payload jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index audit_log_tenant on audit_log (tenant_id, id desc);
  `.execute(db);
}
