/**
 * Backups that restore (issue 45 §5, docs/ha.md): a base backup of the HA cluster's primary and its WAL archive
 * (scripts/ha-local.sh), business before and after a named restore point, then a NEW cluster recovered to that
 * point: the same books as at the point, none of what came after.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHa } from '../../test/ha';
import { freePort, post, startServer, type RunningServer } from '../../test/server';

let ha: Awaited<ReturnType<typeof startHa>>;
let server: RunningServer;

beforeAll(async () => {
  ha = await startHa();
  server = await startServer({ DATABASE_URL: ha.url, LOG_LEVEL: 'warn', SEED_DEMO: '1' });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await ha?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

/** What the books say: every contract's lots, every order's state, every 条件单's state, every account's money. */
const BOOKS = {
  contracts: `select id, total_quantity, remaining_quantity, frozen_quantity, executed_quantity from contracts order by id`,
  orders: `select id, client_order_id, status, volume_traded from orders order by id`,
  conditionals: `select id, status, order_id from conditional_orders order by id`,
  accounts: `select pricer_id, balance::text, credit_line::text from pricer_accounts order by pricer_id`,
  ledger: `select id, pricer_id, amount::text, balance_after::text from funds_ledger order by id`,
};
async function books(c: pg.Client) {
  const out: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(BOOKS)) out[name] = (await c.query(text)).rows;
  return out;
}

it('restores a base backup and its WAL archive to a named point into a new cluster, with the same books', async () => {
  const login = await post(server.base, '/api/pricer/rpc/pricer-login', {
    tenant_id: 1,
    username: 'pricer1',
    password: 'pricer123',
  });
  const token = login.body.data.jwt_token as string;
  const snap = await post(server.base, '/api/pricer/view/my-data-snapshot', {}, token);
  const contract = snap.body.data.contracts.find((c: { remaining_quantity: number }) => c.remaining_quantity >= 20);
  const fix = async (key: string) => {
    const a = await post(
      server.base,
      '/api/pricer/rpc/submit-order',
      { contract_id: contract.id, quantity: 1, client_order_id: key },
      token,
    );
    expect(a.status, JSON.stringify(a.body)).toBe(200);
  };
  const settled = async () => {
    for (let i = 0; i < 150; i++) {
      const n = await withClient(ha.url, async (c) =>
        Number((await c.query(`select count(*) as n from orders where status in ('PENDING', 'ALIVE')`)).rows[0].n),
      );
      if (n === 0) return;
      await sleep(200);
    }
    throw new Error('orders did not settle');
  };

  for (let i = 0; i < 3; i++) await fix(`restore-a-${i}`);
  await settled();
  const backup = await ha.backup();

  // After the backup, before the point: replayed from the archive.
  for (let i = 0; i < 3; i++) await fix(`restore-b-${i}`);
  const last = snap.body.data.market_data[contract.instrument_id].last_price as number;
  const cond = await post(
    server.base,
    '/api/pricer/rpc/create-conditional-order',
    { contract_id: contract.id, quantity: 1, trigger_op: '>=', trigger_price: Math.round(last * 1.5), order_price: 0 },
    token,
  );
  expect(cond.status, JSON.stringify(cond.body)).toBe(200);
  await settled();
  const atPoint = await withClient(ha.url, async (c) => {
    await c.query('begin isolation level repeatable read');
    const b = await books(c);
    await c.query(`select pg_create_restore_point('pfp-restore-test')`);
    await c.query('commit');
    return b;
  });

  // After the point: must not be in the restored cluster.
  for (let i = 0; i < 3; i++) await fix(`restore-c-${i}`);
  const cancelled = await post(
    server.base,
    '/api/pricer/rpc/cancel-conditional-order',
    { id: cond.body.data.id },
    token,
  );
  expect(cancelled.status).toBe(200);
  await settled();
  const after = await withClient(ha.url, books);
  expect(after).not.toEqual(atPoint);

  // Every segment up to here in the archive.
  await withClient(ha.url, async (c) => {
    const wal = (await c.query(`select pg_walfile_name(pg_switch_wal()) as f`)).rows[0].f as string;
    for (let i = 0; i < 300; i++) {
      const done = (await c.query(`select last_archived_wal as w from pg_stat_archiver`)).rows[0].w as string | null;
      if (done && done >= wal) return;
      await sleep(100);
    }
    throw new Error(`${wal} was not archived`);
  });

  const restoredUrl = await ha.restore(backup, 'pfp-restore-test', await freePort());
  const restored = await withClient(restoredUrl, books);
  expect(restored).toEqual(atPoint);
  expect((restored.orders as { client_order_id: string }[]).map((o) => o.client_order_id)).toEqual(
    expect.arrayContaining(['restore-a-0', 'restore-b-2']),
  );
  expect((restored.conditionals as { status: string }[]).at(-1)?.status).toBe('WAITING');
}, 300_000);
