/**
 * Conditional orders with several server instances on one PostgreSQL (docs/conditional-orders.md):
 * only the instance that runs the tenant's gateway evaluates its conditions; a condition created
 * through another instance is forwarded to it; when the owner's lock goes, the next owner takes the
 * conditions over. PostgreSQL only (advisory locks and LISTEN/NOTIFY across connections).
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../platform/db/database';
import { createConditional } from '../modules/conditional/conditional';
import { pgCoordinator } from './coordinator';
import { createTradingService, type TradingService } from './service';
import { FakeQuotes, withTradingTestDb, seedContract, seedTenant, waitFor } from '../../test/trading/testSupport';
import { triggerConditional } from '../modules/conditional/conditional';

const CU = 'SHFE.cu2601';

let db: Database;
withTradingTestDb((opened) => (db = opened));

const book = (last: number) => ({
  last_price: last,
  bid_price1: last - 10,
  ask_price1: last + 10,
  bid_volume1: 50,
  ask_volume1: 50,
  upper_limit: 88_000,
  lower_limit: 72_000,
});

const services: TradingService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop();
});

/** One server instance on the shared market: its own trading service and coordination connection. */
function instance(quotes: FakeQuotes) {
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

const ordersOf = (contractId: number) =>
  db.selectFrom('orders').selectAll().where('contract_id', '=', contractId).execute();

describe('conditional orders on several instances', () => {
  it('only the owner evaluates; a condition created through another instance fires once, there', async () => {
    const quotes = new FakeQuotes({ [CU]: 10 });
    quotes.set(CU, book(80_000));
    const who = await seedTenant(db, { isSim: true });
    const c = await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 10 });
    const a = instance(quotes);
    await a.service.start();
    const b = instance(quotes);
    await b.service.start();
    expect(a.service.conditions.watches(who.tenantId)).toBe(true);
    expect(b.service.conditions.watches(who.tenantId)).toBe(false);

    // Created through B: B does not run the tenant and forwards it to A.
    const k = await createConditional(
      db,
      who,
      { contract_id: c, quantity: 2, trigger_op: '>=', trigger_price: 80_500, order_price: 0 },
      b.service.events,
    );
    await waitFor(() => a.service.conditions.size(who.tenantId) === 1);
    expect(b.service.conditions.size(who.tenantId)).toBe(0);

    quotes.set(CU, book(80_500)); // both instances hear the tick
    await waitFor(async () => (await ordersOf(c))[0]?.status === 'FINISHED');
    await a.service.idle();
    await b.service.idle();
    expect(await ordersOf(c)).toHaveLength(1);
    expect(a.service.conditions.attempts).toBe(1);
    expect(b.service.conditions.attempts).toBe(0);
    const row = await db.selectFrom('conditional_orders').selectAll().where('id', '=', k.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'TRIGGERED', order_id: (await ordersOf(c))[0]!.id });
  });

  it("when the owner's lock goes, the next owner watches the waiting conditions and fires them once", async () => {
    const quotes = new FakeQuotes({ [CU]: 10 });
    quotes.set(CU, book(80_000));
    const who = await seedTenant(db, { isSim: true });
    const c = await seedContract(db, who, { symbol: CU, direction: 'BUY', total: 10 });
    const a = instance(quotes);
    await a.service.start();
    const b = instance(quotes);
    await b.service.start();
    await createConditional(
      db,
      who,
      { contract_id: c, quantity: 2, trigger_op: '<=', trigger_price: 79_500, order_price: 0 },
      a.service.events,
    );
    await a.service.idle();
    expect(a.service.conditions.size(who.tenantId)).toBe(1);

    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = ${`pfp-trading ${a.coordinator.instance}`}`.execute(db);
    await waitFor(() => !a.service.conditions.watches(who.tenantId));
    expect(a.service.conditions.size(who.tenantId)).toBe(0);

    await b.service.sweep(); // takes the tenant over, and its conditions with it
    expect(b.service.conditions.size(who.tenantId)).toBe(1);
    quotes.set(CU, book(79_500));
    await waitFor(async () => (await ordersOf(c))[0]?.status === 'FINISHED');
    await b.service.idle();
    expect(await ordersOf(c)).toHaveLength(1);
    expect(a.service.conditions.attempts).toBe(0);
    expect(b.service.conditions.attempts).toBe(1);
  });
});
