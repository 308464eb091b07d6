import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/platform/db/schema';

/**
 * A company's book for the accounts view: `customers` customers, each with an account (500,000 deposited,
 * 100,000 of credit), a contract on `symbol` at a 10 % margin rate with 5 lots fixed at 80,000 (basis 150)
 * and a working 1-lot limit order at 79,000; the first 100 contracts a waiting 条件单 at 70,000 too. The
 * accounts test and bench/accounts.bench.ts read the same book. The instrument must exist.
 */
export async function seedMarginBook(db: Kysely<DB>, tenantId: number, symbol: string, customers = 1000) {
  for (const statement of [
    sql`insert into pricer_users (tenant_id, username, password_hash, phone, status)
        select ${tenantId}::integer, 'p' || g, 'x', null, 'active' from generate_series(1, ${customers}::integer) g`,
    sql`insert into pricer_accounts (pricer_id, tenant_id, balance, credit_line)
        select id, tenant_id, 500000, 100000 from pricer_users where tenant_id = ${tenantId}::integer`,
    sql`insert into contracts (tenant_id, name, pricer_id, product_name, instrument_id, direction, total_quantity,
                               executed_quantity, frozen_quantity, remaining_quantity, avg_price, traded_amount,
                               status, basis, margin_rate)
        select tenant_id, 'c' || id, id, i.product_name, ${symbol}, 'BUY', 20, 5, 1, 14, 80000, 400000, 'active', 150, 0.1
          from pricer_users, instruments i where tenant_id = ${tenantId}::integer and i.symbol = ${symbol}`,
    sql`insert into orders (tenant_id, contract_id, pricer_id, instrument_id, direction, volume_orign, limit_price,
                            basis, status, last_msg)
        select tenant_id, id, pricer_id, instrument_id, direction, 1, 79000, 150, 'ALIVE', ''
          from contracts where tenant_id = ${tenantId}::integer`,
    sql`insert into conditional_orders (tenant_id, contract_id, pricer_id, instrument_id, direction, quantity,
                                        trigger_op, trigger_price, order_price, expires_at, status)
        select tenant_id, id, pricer_id, instrument_id, direction, 1, '<=', 70000, 0, now() + interval '1 day', 'WAITING'
          from contracts where tenant_id = ${tenantId}::integer order by id limit 100`,
    sql`analyze`,
  ])
    await statement.execute(db);
}
