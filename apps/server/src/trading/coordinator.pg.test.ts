/**
 * Several server instances on one PostgreSQL (ARCHITECTURE §8): each tenant's gateway runs in
 * one instance, the others forward to it, and a tenant whose owner lost its lock connection is
 * taken over. PostgreSQL only (advisory locks and LISTEN/NOTIFY across connections).
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { submitOrder } from '../modules/orders/orders';
import { pgCoordinator } from './coordinator';
import { createTradingService, GATEWAY_MESSAGES, type TradingService } from './service';
import { FakeQuotes, withTradingTestDb, seedContract, seedTenant, waitFor } from '../../test/trading/testSupport';
import { triggerConditional } from '../modules/conditional/conditional';

const CU = 'SHFE.cu2601';

let db: Database;
withTradingTestDb((opened) => (db = opened));

const quotes = new FakeQuotes({ [CU]: 10 });
quotes.set(CU, {
  last_price: 80_000,
  bid_price1: 79_990,
  ask_price1: 80_010,
  bid_volume1: 50,
  ask_volume1: 50,
  upper_limit: 85_600,
  lower_limit: 74_400,
});

const services: TradingService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

/** One server instance: its own trading service and coordination connection. No timed sweeps. */
function instance() {
  const coordinator = pgCoordinator(process.env.DATABASE_URL!);
  const service = createTradingService({
    trigger: triggerConditional,
    db,
    quotes,
    coordinator,
    sweepMs: 60_000,
    simExpiryCheckMs: 0,
  });
  services.push(service);
  return { service, coordinator };
}

/**
 * Sessions that hold a trading advisory lock on the tenant in this file's database, by application name. Advisory
 * locks are per database, and the other files' databases share the cluster: a server started by a fault suite holds
 * its own tenant 1's lock there (seen in CI when the two ran at once).
 */
const lockHolders = async (tenantId: number) =>
  (
    await sql<{ app: string }>`
      select a.application_name as app from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where l.locktype = 'advisory' and l.objsubid = 2 and l.objid = ${tenantId} and l.granted
         and l.database = (select oid from pg_database where datname = current_database())`.execute(db)
  ).rows.map((r) => r.app);

const order = (id: number) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('several instances on one database', () => {
  it('one instance runs the tenant; an order taken by another is forwarded and fills there', async () => {
    const who = await seedTenant(db, { isSim: true });
    const c = await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 10 });
    const a = instance();
    await a.service.start();
    const b = instance();
    await b.service.start();
    expect(await lockHolders(who.tenantId)).toEqual([`pfp-trading ${a.coordinator.instance}`]);
    expect(a.service.status(who.tenantId)).toEqual({ status: 'ok' });
    // B has not heard from A yet; after A's sweep it shows A's status.
    expect(b.service.status(who.tenantId)).toEqual({ status: 'error', message: GATEWAY_MESSAGES.connecting });
    await a.service.sweep();
    await waitFor(() => b.service.status(who.tenantId).status === 'ok');

    // Through B (no sweep runs anywhere): forwarded to A at once.
    const o = await submitOrder(db, who, { contract_id: c, quantity: 3, price: 80_010 }, b.service.events);
    await waitFor(async () => (await order(o.id)).status === 'FINISHED');
    expect(await order(o.id)).toMatchObject({ volume_traded: 3, last_msg: '全部成交' });
    expect(await lockHolders(who.tenantId)).toEqual([`pfp-trading ${a.coordinator.instance}`]);
  });

  it("when the owner's lock connection dies, another instance takes the tenant over", async () => {
    const who = await seedTenant(db, { isSim: true });
    const c = await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 10 });
    const a = instance();
    // Heard after the service's own listener (registered when it was built) has given the tenants up.
    const aLost = new Promise<void>((resolve) => a.coordinator.onLost(resolve));
    await a.service.start();
    const b = instance();
    await b.service.start();
    const resting = await submitOrder(db, who, { contract_id: c, quantity: 2, price: 79_000 }, a.service.events);
    await waitFor(async () => (await order(resting.id)).status === 'ALIVE');

    // A's coordination session is killed (network cut, a restart of that backend…): from then on
    // A must not trade for the tenant — here, its broker must not fill the resting order.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = ${`pfp-trading ${a.coordinator.instance}`}`.execute(db);
    await waitFor(async () => (await lockHolders(who.tenantId)).length === 0);
    await aLost; // A hears of the loss (a fixed wait lost that race on a loaded machine)
    quotes.set(CU, { ask_price1: 79_000, ask_volume1: 5 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await order(resting.id)).status).toBe('ALIVE');

    await b.service.sweep(); // B's next sweep takes the tenant over and reopens its broker
    expect(await lockHolders(who.tenantId)).toEqual([`pfp-trading ${b.coordinator.instance}`]);
    // Its broker session connects on its own time (a loaded machine took longer than the sweep).
    await expect.poll(() => b.service.status(who.tenantId), { timeout: 20_000 }).toEqual({ status: 'ok' });
    await b.service.idle();
    quotes.tick([CU]);
    await waitFor(async () => (await order(resting.id)).status === 'FINISHED');

    // A's next sweep reconnects it (the tenant is B's now); it shows the status B publishes and
    // forwards what it takes to B.
    await a.service.sweep();
    expect(await lockHolders(who.tenantId)).toEqual([`pfp-trading ${b.coordinator.instance}`]);
    await waitFor(async () => {
      await b.service.sweep();
      return a.service.status(who.tenantId).status === 'ok';
    });
    const o = await submitOrder(db, who, { contract_id: c, quantity: 3, price: 80_010 }, a.service.events);
    await waitFor(async () => (await order(o.id)).status === 'FINISHED');
    expect(await lockHolders(who.tenantId)).toEqual([`pfp-trading ${b.coordinator.instance}`]);
  });
});
