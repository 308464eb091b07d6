import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, freePort, post, startServer, type RunningServer } from '../../../test/server';
import { tempDir } from '../../../test/tempDir';
import { tradingDayIn } from '../../../test/days';
import { openDatabase } from '../../platform/db/database';
import { tradingDaysIn } from '../../market/calendar';

/**
 * 均价依据 结算价 (docs/fixing.md) with the whole server, on PGlite and PostgreSQL: the close of a day
 * publishes the simulated exchange's settlement prices, the server is killed with SIGKILL before the
 * booking, and started again on the same database: the day is booked once, at the price published before
 * the kill (the new process's simulation has another), and neither a second close nor another kill and
 * restart books it again. The close is the job's own run through POST /api/test/settlement-close
 * (SIM_MARKET_HOOKS): the test picks its instant.
 */
const dataDir = tempDir('pfp-kill-settle-');
const servers: RunningServer[] = [];
afterAll(async () => {
  servers.forEach((s) => s.child.kill('SIGKILL'));
  await Promise.all(servers.map((s) => exited(s.child)));
});

async function start(port: number) {
  const server = await startServer(
    { LOG_LEVEL: 'warn', MARKET_SEED: String(20 + servers.length), SIM_MARKET_HOOKS: '1', LOGIN_RATE_LIMIT: '1000' },
    { dataDir, port, startTimeoutMs: 300_000 },
  );
  servers.push(server);
  return server;
}

async function kill(server: RunningServer) {
  server.child.kill('SIGKILL');
  await exited(server.child);
}

/** The database while no server holds it (PGlite has one process at a time). */
async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'db') });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

const START = tradingDayIn(2);
const DEADLINE = tradingDayIn(30);
const END = tradingDaysIn(START, DEADLINE)[4]!;
const AT = `${START}T15:05:00+08:00`;

describe('SIGKILL between the close and the 结算价 booking', () => {
  it(
    'books the day once after the restart, at the price published before the kill',
    { timeout: 1_500_000 },
    async () => {
      const port = await freePort();
      // The demo company, then a 结算价 average contract of pricer1 written while no server runs.
      const first = await start(port);
      await first.stop();
      const { contractId, symbol } = await withDb(async (db) => {
        const pricer = await db
          .selectFrom('pricer_users')
          .select(['id', 'tenant_id'])
          .where('username', '=', 'pricer1')
          .executeTakeFirstOrThrow();
        const instrument = await db
          .selectFrom('instruments')
          .select('symbol')
          .where('product_name', '=', '铜')
          .where('expired', '=', false)
          .orderBy('symbol')
          .executeTakeFirstOrThrow();
        const row = await db
          .insertInto('contracts')
          .values({
            tenant_id: pricer.tenant_id,
            name: '结算价均价-断电',
            pricer_id: pricer.id,
            product_name: '铜',
            instrument_id: instrument.symbol,
            direction: 'BUY',
            total_quantity: 10,
            remaining_quantity: 10,
            status: 'active',
            basis: 100,
            fixing_deadline: DEADLINE,
            margin_rate: 0,
            pricing_mode: 'average',
            average_start: START,
            average_end: END,
            average_basis: 'settlement',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { contractId: row.id, symbol: instrument.symbol };
      });

      // The close publishes the day's settlement prices; the server dies before booking.
      let server = await start(port);
      const closed = await post(server.base, '/api/test/settlement-close', { at: AT, book: false });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body.data ?? closed.body).toMatchObject({ day: START, bookings: [] });
      await kill(server);

      // Restarted: the close again books the day, once; a second close books nothing.
      server = await start(port);
      const booked = await post(server.base, '/api/test/settlement-close', { at: AT });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      const mine = (body: { bookings: { contract_id: number; outcome: string; lots: number }[] }) =>
        body.bookings.filter((b) => b.contract_id === contractId);
      expect(mine(booked.body.data ?? booked.body)).toEqual([expect.objectContaining({ outcome: 'fixed', lots: 2 })]);
      const again = await post(server.base, '/api/test/settlement-close', { at: AT });
      expect(mine(again.body.data ?? again.body)).toEqual([]);
      // Killed after the booking and started again: still one.
      await kill(server);
      server = await start(port);
      const third = await post(server.base, '/api/test/settlement-close', { at: AT });
      expect(mine(third.body.data ?? third.body)).toEqual([]);
      await server.stop();

      await withDb(async (db) => {
        const days = await db.selectFrom('average_fixings').selectAll().where('contract_id', '=', contractId).execute();
        expect(days.map((d) => [String(d.day), d.planned_lots])).toEqual([[START, 2]]);
        const orders = await db.selectFrom('orders').selectAll().where('contract_id', '=', contractId).execute();
        expect(orders).toHaveLength(1);
        const published = await db
          .selectFrom('settlement_prices')
          .selectAll()
          .where('instrument_id', '=', symbol)
          .where('day', '=', START)
          .execute();
        expect(published).toHaveLength(1);
        expect(Number(orders[0]!.trade_price)).toBe(Number(published[0]!.price));
        const trades = await db.selectFrom('trades').selectAll().where('order_id', '=', orders[0]!.id).execute();
        expect(trades.map((t) => [t.volume, Number(t.price)])).toEqual([[2, Number(published[0]!.price)]]);
        const contract = await db
          .selectFrom('contracts')
          .selectAll()
          .where('id', '=', contractId)
          .executeTakeFirstOrThrow();
        expect(contract).toMatchObject({ executed_quantity: 2, remaining_quantity: 8, frozen_quantity: 0 });
      });
    },
  );
});
