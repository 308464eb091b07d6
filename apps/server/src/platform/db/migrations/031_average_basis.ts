import { sql, type Kysely } from 'kysely';

/**
 * 均价依据 (issue 43 item 2, docs/fixing.md):
 * - contracts.average_basis 'settlement' 结算价 | 'fills' 成交价: what an average contract averages. Every
 *   row gets 'fills' here — the contracts written before kept today's behaviour (the desk's own 14:50
 *   fills), a backfill; a point contract's value means nothing (the views show null). A new average
 *   contract takes 'settlement' unless the trader chooses 成交价 (modules/contracts).
 * - settlement_prices: the exchange's daily settlement price of a future, as published at the close
 *   (the simulated exchange's: the volume-weighted average of the day's simulated trades). One row per
 *   (instrument, trading day), never changed: the first published price stands.
 * - average_fixings_order: the confirmation finds the day (and so the basis) of an order.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts add column average_basis text not null default 'fills'
      check (average_basis in ('settlement', 'fills'));

    create table settlement_prices (
      instrument_id text not null,
      day date not null,
      price numeric(18, 4) not null check (price > 0),
      volume bigint not null default 0 check (volume >= 0),
      source text not null,
      published_at timestamptz not null default now(),
      primary key (instrument_id, day)
    );

    -- The confirmation reads an order's 均价依据 through its day's row.
    create index average_fixings_order on average_fixings (order_id);
  `.execute(db);
}
