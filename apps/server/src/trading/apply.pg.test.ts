/**
 * Gateway events applied while another transaction books the same fill (the reconciliation of a
 * restarted server and the broker's own event, docs/performance.md): PostgreSQL only (two
 * connections at once).
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { submitOrder } from '../modules/orders/orders';
import { applyEvents, claimOrder } from './apply';
import { withTradingTestDb, seedContract, seedTenant, waitFor } from '../../test/trading/testSupport';

let db: Database;
withTradingTestDb((opened) => (db = opened));

it('a fill booked by the transaction a batch waited for is a duplicate there, not booked twice', async () => {
  const who = await seedTenant(db);
  const contractId = await seedContract(db, who, { symbol: 'SHFE.cu2601', direction: 'BUY', total: 10 });
  const order = await submitOrder(db, who, { contract_id: contractId, quantity: 2, price: 0 });
  await claimOrder(db, who.tenantId, order.id, 'sim');
  const fill = { tradeId: 'T-1', volume: 1, price: 80_010, at: new Date('2026-01-05T02:00:00Z') };

  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // Another transaction (a restarted server's reconciliation, say) locks the order and books the fill…
  const first = db.transaction().execute(async (tx) => {
    await tx.selectFrom('orders').select('id').where('id', '=', order.id).forUpdate().execute();
    await sql`insert into trades (tenant_id, order_id, trade_id, volume, price, created_at)
              values (${who.tenantId}, ${order.id}, ${fill.tradeId}, ${fill.volume}, ${fill.price}, ${fill.at})`.execute(
      tx,
    );
    await held;
  });
  // …while a batch with the same fill waits for that lock.
  const second = applyEvents(db, [{ tenantId: who.tenantId, orderId: order.id, event: { type: 'trade', ...fill } }]);
  await waitFor(
    async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
                                  where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
      ).rows[0]!.n > 0,
  );
  release();
  await first;
  expect(await second).toEqual([{ result: 'duplicate', status: 'ALIVE' }]);
  const trades = await db.selectFrom('trades').select('trade_id').where('order_id', '=', order.id).execute();
  expect(trades).toEqual([{ trade_id: 'T-1' }]);
});
