import { afterAll, describe, expect, it, vi } from 'vitest';
import { exited, freePort, post, startServer, type RunningServer } from '../../../test/server';
import { tempDir } from '../../../test/tempDir';

/**
 * The whole server with waiting conditional orders (docs/conditional-orders.md), killed with SIGKILL
 * right after they were taken — some already met, so their triggers race the kill — and started
 * again on the same database: none is lost, none fires twice, every lot is accounted for.
 */
const dataDir = tempDir('pfp-kill-cond-');
const servers: RunningServer[] = [];
// Runs before the directory's removal (stacked after-hooks), and waits for the processes to be gone.
afterAll(async () => {
  servers.forEach((s) => s.child.kill('SIGKILL'));
  await Promise.all(servers.map((s) => exited(s.child)));
});

/** Started again on the same database and port after each kill. */
async function start(port: number) {
  const server = await startServer(
    { LOG_LEVEL: 'warn', MARKET_SEED: '13', LOGIN_RATE_LIMIT: '1000' },
    { dataDir, port },
  );
  servers.push(server);
  return server;
}

interface Snap {
  contracts: {
    id: number;
    instrument_id: string;
    price_tick: number;
    status: string;
    not_fixable_reason: string | null;
    remaining_quantity: number;
    frozen_quantity: number;
    executed_quantity: number;
    total_quantity: number;
  }[];
  market_data: Record<string, { last_price: number | null }>;
}

describe('SIGKILL with waiting conditional orders', () => {
  it('loses none and fires none twice after a restart', { timeout: 240_000 }, async () => {
    const port = await freePort();
    let server = await start(port);
    const login = await post(server.base, '/api/pricer/rpc/pricer-login', {
      tenant_id: 1,
      username: 'pricer1',
      password: 'pricer123',
    });
    const token = login.body.data.jwt_token as string;
    const snap = (await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token)).body.data as Snap;
    const contracts = snap.contracts
      .filter((c) => c.status === 'active' && !c.not_fixable_reason && c.remaining_quantity >= 4)
      .filter((c) => (snap.market_data[c.instrument_id]?.last_price ?? 0) > 0)
      .slice(0, 3);
    expect(contracts.length).toBeGreaterThan(0);
    const ordersBefore = new Map<number, number>();
    for (const c of contracts) {
      const page = (await post(server.base, '/api/pricer/view/my-orders', { contract_id: c.id }, token)).body.data;
      ordersBefore.set(c.id, page.total_count as number);
    }

    // Per contract: two conditions already met (they fire at the next tick) and one far away.
    const onTick = (p: number, tick: number) => Math.round(p / tick) * tick;
    const requests = contracts.flatMap((c) => {
      const last = snap.market_data[c.instrument_id]!.last_price!;
      const met = { contract_id: c.id, quantity: 1, trigger_op: '>=', trigger_price: onTick(last * 0.9, c.price_tick) };
      const far = { contract_id: c.id, quantity: 1, trigger_op: '<=', trigger_price: onTick(last * 0.7, c.price_tick) };
      return [
        { kind: 'met', body: met },
        { kind: 'met', body: met },
        { kind: 'far', body: far },
      ];
    });
    const created = await Promise.all(
      requests.map(async (r) => {
        const res = await post(server.base, '/api/pricer/rpc/create-conditional-order', r.body, token);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return { kind: r.kind, id: res.body.data.id as number, contractId: r.body.contract_id };
      }),
    );
    // Killed as soon as they are taken: the first triggers may be running, committed or not yet begun.
    server.child.kill('SIGKILL');
    await exited(server.child);

    server = await start(port);
    const list = async () =>
      (await post(server.base, '/api/pricer/view/my-conditional-orders', { slice_start: 0, slice_end: 1000 }, token))
        .body.data.items as { id: number; status: string; order_id: number | null; order_status: string | null }[];
    const mine = (rows: Awaited<ReturnType<typeof list>>) => rows.filter((r) => created.some((c) => c.id === r.id));
    // Every met condition fires (after the restart at the latest) and its order leaves PENDING.
    await vi.waitFor(
      async () => {
        const rows = mine(await list());
        for (const c of created.filter((x) => x.kind === 'met')) {
          const row = rows.find((r) => r.id === c.id);
          expect(row?.status).toBe('TRIGGERED');
          expect(['ALIVE', 'FINISHED', 'CANCELLED']).toContain(row?.order_status);
        }
      },
      { timeout: 60_000, interval: 250 },
    );
    const rows = mine(await list());
    const orderIds = rows.filter((r) => r.order_id !== null).map((r) => r.order_id!);
    expect(new Set(orderIds).size).toBe(orderIds.length); // one order per condition
    expect(orderIds).toHaveLength(created.filter((c) => c.kind === 'met').length);
    for (const c of created.filter((x) => x.kind === 'far')) {
      expect(rows.find((r) => r.id === c.id)).toMatchObject({ status: 'WAITING', order_id: null });
    }

    // Exactly the triggered orders were added to each contract, and every lot is accounted for.
    const after = (await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token)).body.data as Snap;
    for (const c of contracts) {
      const page = (await post(server.base, '/api/pricer/view/my-orders', { contract_id: c.id }, token)).body.data;
      const triggered = created.filter((x) => x.contractId === c.id && x.kind === 'met').length;
      expect(page.total_count, `contract ${c.id} orders`).toBe(ordersBefore.get(c.id)! + triggered);
      const now = after.contracts.find((x) => x.id === c.id)!;
      expect(now.executed_quantity + now.frozen_quantity + now.remaining_quantity).toBe(now.total_quantity);
    }
    console.log(
      `conditions after the kill and restart: ${JSON.stringify(rows.map((r) => [r.status, r.order_status]))}`,
    );
    server.child.kill('SIGTERM');
    await exited(server.child);
  });
});
