/**
 * The desk's polls answered from memory while the customer's data version stands (domain/customerReads.ts,
 * migration 009): an unchanged customer is answered without reading its rows again, and every change to
 * its orders or contracts — through the API or straight in the database — is seen by the next poll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { tradingDayIn } from '../../../test/days';

let h: Harness;
let t: Tenant;
let jwt: string;
let contractId: number;

beforeAll(async () => {
  h = await startHarness();
  t = await setupTenant(h, 'trader-reads', '己贸易公司', ['gina']);
  jwt = t.pricers.gina!.jwt;
  const contract = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: t.pricers.gina!.id,
      product_name: '铜',
      instrument_id: t.symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 0,
      fixing_deadline: tradingDayIn(30),
    },
    t.token,
  );
  contractId = contract.body.data.id;
});
afterAll(() => h.close());

const snapshot = async () => (await h.call('/api/pricer/view/my-data-snapshot', {}, jwt)).body.data;
const myOrders = async () =>
  (await h.call('/api/pricer/view/my-orders', { contract_id: contractId, start: 0, end: 50 }, jwt)).body.data;

describe('customer polls between changes', () => {
  it('are answered without reading the rows again, and see the next change of the customer', async () => {
    const first = await snapshot();
    const contract = first.contracts.find((c: { id: number }) => c.id === contractId);
    const instrument = await h.db
      .selectFrom('instruments')
      .select('name')
      .where('symbol', '=', t.symbol)
      .executeTakeFirstOrThrow();
    expect(contract.instrument_name).toBe(instrument.name);
    // The instrument's name is read with the customer's rows but is not the customer's data: a
    // change of it alone does not move the version, so the next poll still has the name it read.
    await h.db.updateTable('instruments').set({ name: '测试改名' }).where('symbol', '=', t.symbol).execute();
    try {
      const second = await snapshot();
      expect(second.contracts.find((c: { id: number }) => c.id === contractId).instrument_name).toBe(instrument.name);
      expect(Date.parse(second.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.timestamp));
      // A fixing of the customer moves it: the next poll reads everything again.
      const placed = await h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 2 }, jwt);
      expect(placed.status).toBe(200);
      const third = await snapshot();
      expect(third.orders[0]).toMatchObject({ id: placed.body.data.id, volume_orign: 2 });
      expect(third.contracts.find((c: { id: number }) => c.id === contractId)).toMatchObject({
        instrument_name: '测试改名',
        frozen_quantity: 2,
      });
    } finally {
      await h.db.updateTable('instruments').set({ name: instrument.name }).where('symbol', '=', t.symbol).execute();
    }
  });

  it('see a change made straight in the database, by no code of ours', async () => {
    const placed = await h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 1 }, jwt);
    const id = placed.body.data.id as number;
    expect((await snapshot()).orders[0]).toMatchObject({ id, last_msg: '等待发送' });
    expect((await myOrders()).items[0]).toMatchObject({ id, last_msg: '等待发送' });
    await h.db.updateTable('orders').set({ last_msg: '柜台已受理' }).where('id', '=', id).execute();
    expect((await snapshot()).orders[0]).toMatchObject({ id, last_msg: '柜台已受理' });
    expect((await myOrders()).items[0]).toMatchObject({ id, last_msg: '柜台已受理' });
    await h.db.updateTable('contracts').set({ status: 'paused' }).where('id', '=', contractId).execute();
    const paused = (await snapshot()).contracts.find((c: { id: number }) => c.id === contractId);
    expect(paused.status).toBe('paused');
    await h.db.updateTable('contracts').set({ status: 'active' }).where('id', '=', contractId).execute();
  });

  it('are not shared between customers', async () => {
    const other = await setupTenant(h, 'trader-reads-2', '庚贸易公司', ['hank']);
    const theirs = (await h.call('/api/pricer/view/my-data-snapshot', {}, other.pricers.hank!.jwt)).body.data;
    expect(theirs.contracts).toEqual([]);
    expect(theirs.orders).toEqual([]);
    expect((await snapshot()).contracts.map((c: { id: number }) => c.id)).toEqual([contractId]);
  });
});
