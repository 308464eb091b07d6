import { sql, type Kysely } from 'kysely';

/**
 * 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): who may fix for a customer company.
 * - authorised_pricers: one row per person, under a customer (pricer_users). Every login of a
 *   tenant has a row here, so (tenant_id, username) unique keeps logins unique across customers and
 *   persons. The customer's first login is its `primary` person (no password here: the customer's);
 *   every other person has their own password and token version. Only the ID's last 4 are kept.
 * - orders.authorised_pricer_id, conditional_orders.authorised_pricer_id: who fixed (or made the 条件单).
 * Backfill: every existing customer's login becomes its first, active authorised person (named by
 * its 联系人, else 客户全称, else the username), so every customer keeps fixing.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table authorised_pricers (
      id serial primary key,
      tenant_id integer not null references tenants (id),
      pricer_id integer not null references pricer_users (id),
      name text not null,
      id_type text check (id_type in ('id_card', 'passport', 'hk_macau_permit', 'taiwan_permit', 'other')),
      id_last4 text check (id_last4 ~ '^[0-9A-Za-z]{4}$'),
      phone text,
      username text not null,
      password_hash text,
      token_version integer not null default 0,
      is_primary boolean not null default false,
      active boolean not null default true,
      created_by text not null,
      created_at timestamptz not null default now(),
      deactivated_at timestamptz,
      last_login_at timestamptz,
      check (is_primary or password_hash is not null)
    );
    create unique index authorised_pricers_login on authorised_pricers (tenant_id, username);
    create unique index authorised_pricers_primary on authorised_pricers (pricer_id) where is_primary;
    create index authorised_pricers_pricer on authorised_pricers (pricer_id);

    alter table orders add column authorised_pricer_id integer references authorised_pricers (id);
    alter table conditional_orders add column authorised_pricer_id integer references authorised_pricers (id);

    insert into authorised_pricers (tenant_id, pricer_id, name, phone, username, is_primary, created_by)
    select u.tenant_id, u.id,
           coalesce(nullif(btrim(u.contact_name), ''), nullif(btrim(u.full_name), ''), u.username),
           u.phone, u.username, true, 'system:migration-030'
      from pricer_users u
     order by u.id;

    update orders o set authorised_pricer_id = a.id
      from authorised_pricers a where a.pricer_id = o.pricer_id and a.is_primary;
    update conditional_orders o set authorised_pricer_id = a.id
      from authorised_pricers a where a.pricer_id = o.pricer_id and a.is_primary;
  `.execute(db);
}
