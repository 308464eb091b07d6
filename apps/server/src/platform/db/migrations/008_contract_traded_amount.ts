import { sql, type Kysely } from 'kysely';

/**
 * contracts.traded_amount: Σ price × volume over the contract's fills, kept beside executed_quantity so
 * that avg_price (= traded_amount / executed_quantity) is updated from the contract row itself, in the
 * statement that books the fills. It used to be recomputed from every fill of the contract, which needed
 * the row locked in a statement of its own before reading them (docs/performance.md, "Trading at 1,000
 * fixings per second"): two round trips with the row locked, and a read that grows with the contract.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table contracts add column traded_amount numeric not null default 0;
    update contracts c
       set traded_amount = f.amount
      from (select o.contract_id, sum(t.price * t.volume) as amount
              from trades t join orders o on o.id = t.order_id
             group by o.contract_id) f
     where f.contract_id = c.id;
  `.execute(db);
}
