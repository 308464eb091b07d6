import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { exited, freePort, post, startServer, type RunningServer } from '../../test/server';
import { tempDir } from '../../test/tempDir';
import { openDatabase } from '../platform/db/database';

/**
 * The whole server, killed with SIGKILL in the middle of a flow of orders and started again on
 * the same database: every order is reconciled by its id, nothing lost or counted twice.
 */
const dataDir = tempDir('pfp-kill-');
const servers: RunningServer[] = [];
// Runs before the directory's removal (stacked after-hooks), and waits for the processes to be gone.
afterAll(async () => {
  servers.forEach((s) => s.child.kill('SIGKILL'));
  await Promise.all(servers.map((s) => exited(s.child)));
});

/** Started again on the same database and port after each kill. */
async function start(port: number) {
  const server = await startServer(
    { LOG_LEVEL: 'warn', MARKET_SEED: '11', LOGIN_RATE_LIMIT: '1000' },
    { dataDir, port },
  );
  servers.push(server);
  return server;
}

describe('SIGKILL in the middle of a flow of orders', () => {
  it('loses no order and counts no lot twice after a restart', { timeout: 240_000 }, async () => {
    const port = await freePort();
    let server = await start(port);
    const login = await post(server.base, '/api/pricer/rpc/pricer-login', {
      tenant_id: 1,
      username: 'pricer1',
      password: 'pricer123',
    });
    const token = login.body.data.jwt_token as string;
    const snap = (await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token)).body.data;
    const contracts = snap.contracts as { id: number; instrument_id: string; direction: string; price_tick: number }[];

    // A stream of marketable and resting orders on every contract, killed part-way.
    const accepted: number[] = [];
    const flow = (async () => {
      for (let i = 0; i < 400; i++) {
        const c = contracts[i % contracts.length]!;
        const last = snap.market_data[c.instrument_id].last_price as number;
        // Every third order rests far from the market (inside the day's limit band: outside it is refused).
        const away = i % 3 === 0 ? -0.03 : 0.02;
        const sign = c.direction === 'BUY' ? 1 : -1;
        const price = i % 5 === 4 ? 0 : Math.round((last * (1 + sign * away)) / c.price_tick) * c.price_tick;
        try {
          const r = await post(
            server.base,
            '/api/pricer/rpc/submit-order',
            { contract_id: c.id, quantity: 1 + (i % 2), price },
            token,
          );
          if (r.status === 200) accepted.push(r.body.data.id);
        } catch {
          return; // the server is gone
        }
      }
    })();
    // Killed once a few orders were taken, however fast this machine is (not after a fixed time).
    await vi.waitFor(() => expect(accepted.length).toBeGreaterThan(8), { timeout: 60_000, interval: 20 });
    server.child.kill('SIGKILL');
    await flow;
    await exited(server.child);
    expect(accepted.length).toBeGreaterThan(5);

    server = await start(port);
    // Let the router reconcile and the market fill what is marketable.
    await new Promise((r) => setTimeout(r, 6000));

    const after = (await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token)).body.data;
    const all = (await post(server.base, '/api/pricer/view/my-orders', {}, token)).body.data.items;
    const orders = new Map<
      number,
      { status: string; volume_orign: number; volume_traded: string; contract_id: number }
    >(all.map((o: { id: number }) => [o.id, o]));
    // Every order the server acknowledged before the kill still exists, in a coherent state.
    for (const id of accepted) {
      const o = orders.get(id);
      expect(o, `order ${id}`).toBeDefined();
      expect(['ALIVE', 'FINISHED', 'CANCELLED', 'PENDING']).toContain(o!.status);
      if (o!.status === 'FINISHED') expect(Number(o!.volume_traded)).toBe(o!.volume_orign);
    }
    const byStatus = [...orders.values()].reduce<Record<string, number>>(
      (m, o) => ({ ...m, [o.status]: (m[o.status] ?? 0) + 1 }),
      {},
    );
    console.log(`killed after ${accepted.length} acknowledged orders; after restart: ${JSON.stringify(byStatus)}`);
    expect(byStatus.FINISHED).toBeGreaterThan(0);
    // No order is stuck unsent after reconciliation.
    expect([...orders.values()].filter((o) => o.status === 'PENDING')).toEqual([]);
    for (const c of after.contracts) {
      expect(c.executed_quantity + c.frozen_quantity + c.remaining_quantity).toBe(c.total_quantity);
      const mine = [...orders.values()].filter((o) => o.contract_id === c.id);
      const traded = mine.reduce((s, o) => s + Number(o.volume_traded), 0);
      const live = mine
        .filter((o) => o.status === 'ALIVE')
        .reduce((s, o) => s + o.volume_orign - Number(o.volume_traded), 0);
      expect(traded, `contract ${c.id} executed`).toBe(c.executed_quantity);
      expect(live, `contract ${c.id} frozen`).toBe(c.frozen_quantity);
    }
    server.child.kill('SIGTERM');
    await exited(server.child);

    // The books agree with the exchange: one trades row per simulated fill, summing to each order's fills.
    // pricer1's orders, the flow's: the demo seeds pricer2 a fix of its own with no exchange behind it
    // (a customer close to a margin call, docs/margin.md).
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'db') });
    try {
      const perOrder = await sql<{ id: number; traded: number; from_trades: number; from_exchange: number }>`
        select o.id, o.volume_traded as traded,
               coalesce((select sum(t.volume) from trades t where t.order_id = o.id), 0)::int as from_trades,
               coalesce((select sum(s.volume) from sim_trades s where s.tenant_id = o.tenant_id and s.order_ref = o.id::text), 0)::int as from_exchange
          from orders o
         where o.pricer_id = (select id from pricer_users where tenant_id = 1 and username = 'pricer1')`.execute(db);
      expect(perOrder.rows.length).toBeGreaterThan(5);
      for (const r of perOrder.rows) {
        expect(r.from_trades, `order ${r.id}`).toBe(r.traded);
        expect(r.from_exchange, `order ${r.id}`).toBe(r.traded);
      }
    } finally {
      await db.destroy();
    }
  });
});
