import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket, waitFor } from '../../../test/trading/testSupport';
import { tradingDayIn } from '../../../test/days';
import { silentLogger } from '../../platform/logger';
import type { TradingService } from '../../trading/service';
import { webhookWorker } from '../notifications/webhooks';
import { markAccounts, watchMarginCalls } from './watch';

/*
 * Calls on the tick; reads do not write (issue 41 item 3, docs/margin.md "Margin calls"). The accounts, the
 * snapshot, my-funds and the answers of record-funds, set-credit-line and settle-lots mark the account to the
 * market and write nothing; the margin watcher is the one writer of calls, woken by the ticks of the
 * instruments that move someone's margin and by the writes of money. Copper: tick 10, multiplier 5.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let t: Tenant;
const DEADLINE = tradingDayIn(30);
const market = (price: number) => setMarket(quotes, t.symbol, price, 100);
const lastPrice = (s: string) => quotes.getQuote(s)?.last_price;

/** What a call leaves behind for one customer: audit rows, notifications, webhook outbox rows, the recorded flag. */
async function traces(pricerId: number) {
  const { rows } = await sql<{ audits: number; notes: number; outbox: number; in_call: boolean | null }>`
    select (select count(*) from audit_log where tenant_id = ${t.tenantId}::integer
              and action in ('margin-call', 'margin-call-end') and (payload->>'pricer_id')::int = ${pricerId}::integer)::int as audits,
           (select count(*) from notifications where tenant_id = ${t.tenantId}::integer
              and kind in ('margin_call', 'margin_call_end'))::int as notes,
           (select count(*) from webhook_deliveries where tenant_id = ${t.tenantId}::integer
              and kind in ('margin_call', 'margin_call_end'))::int as outbox,
           (select in_call from pricer_accounts where pricer_id = ${pricerId}::integer) as in_call`.execute(h.db);
  const r = rows[0]!;
  return { audits: Number(r.audits), notes: Number(r.notes), outbox: Number(r.outbox), in_call: Boolean(r.in_call) };
}

/** A customer who fixed 1 lot at 80,000 (margin 40,075 at basis 150, 10 %) on 45,000: 4,925 to spare. */
async function fixedCustomer(name: string) {
  const id = t.pricers[name]!.id;
  const c = await createContract<{ id: number }>(h, t, name, DEADLINE, { margin_rate: 0.1, basis: 150 });
  await h.call('/api/trader/rpc/record-funds', { pricer_id: id, kind: 'deposit', amount: 45_000 }, t.token);
  market(80_000);
  await callOk(h, '/api/pricer/rpc/submit-order', { contract_id: c.id, quantity: 1, price: 0 }, t.pricers[name]!.jwt);
  await service.idle();
  return { id, contract: c.id };
}

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf }));
  t = await setupTenant(h, 'trader-calls-tick', '丙贸易', ['ann', 'ben']);
  quotes.addInstrument(t.symbol, 10);
  market(80_000);
});
afterAll(() => stop?.());

describe('reads do not write', () => {
  it('a read after a move into a call records nothing; the watcher records it once', async () => {
    const ann = await fixedCustomer('ann');
    const before = await traces(ann.id);
    // Copper falls 2,000: (78,000 − 80,000) × 5 = −10,000; available 45,000 − 40,075 − 10,000 = −5,075.
    market(78_000);
    const inCall = { margin_call: true, call_amount: 5_075 };
    const accounts = await h.call('/api/trader/view/pricer-accounts', {}, t.token);
    expect(accounts.body.data.items.find((a: { pricer_id: number }) => a.pricer_id === ann.id)).toMatchObject(inCall);
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, t.pricers.ann!.jwt);
    expect(snap.body.data.account).toMatchObject(inCall);
    const mine = await h.call('/api/pricer/view/my-funds', {}, t.pricers.ann!.jwt);
    expect(mine.body.data.account).toMatchObject(inCall);
    const dep = await h.call(
      '/api/trader/rpc/record-funds',
      { pricer_id: ann.id, kind: 'deposit', amount: 75 },
      t.token,
    );
    expect(dep.body.data.account).toMatchObject({ margin_call: true, call_amount: 5_000 });
    const credit = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: ann.id, credit_line: 0 }, t.token);
    expect(credit.body.data).toMatchObject({ margin_call: true, call_amount: 5_000 });
    // Every answer shows the call; none wrote it.
    expect(await traces(ann.id)).toEqual(before);

    expect(await markAccounts(h.db, lastPrice, [t.tenantId])).toContain(ann.id);
    const marked = await traces(ann.id);
    expect(marked).toMatchObject({ audits: before.audits + 1, notes: before.notes + 2, in_call: true });
    await markAccounts(h.db, lastPrice);
    expect(await traces(ann.id)).toEqual(marked);

    // Settling the lot ends the call in the answer; the end is recorded by the watcher alone.
    const settled = await h.call('/api/trader/rpc/settle-lots', { contract_id: ann.contract, quantity: 1 }, t.token);
    expect(settled.body.data.account).toMatchObject({ margin_call: false, margin_required: 0 });
    expect(await traces(ann.id)).toEqual(marked);
    await markAccounts(h.db, lastPrice, [t.tenantId]);
    expect(await traces(ann.id)).toMatchObject({ audits: marked.audits + 1, in_call: false });
  });
});

describe('calls on the tick', () => {
  it('a tick wakes the watcher: the call is recorded, told and sent to the webhook without any read', async () => {
    const received: { at: number; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ at: performance.now(), body });
        res.end('{"errcode":0}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const hook = await h.call(
      '/api/trader/rpc/set-webhook',
      { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, secret: '机器人密钥' },
      t.token,
    );
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const ben = await fixedCustomer('ben');
    const watch = watchMarginCalls({
      db: h.db,
      lastPrice,
      onTick: (listener) => quotes.onTick(listener),
      everyMs: 3_600_000,
      logger: silentLogger,
    });
    const worker = webhookWorker({ db: h.db, secrets: h.ctx.secrets, allowPrivate: true, logger: silentLogger });
    try {
      const before = await traces(ben.id);
      expect(before.in_call).toBe(false);
      // The market falls (a tick): nobody reads an account.
      const t0 = performance.now();
      market(78_000);
      await waitFor(() => received.some((r) => r.body.includes('追加保证金') && r.body.includes('ben')), 20_000);
      const took = received.find((r) => r.body.includes('ben'))!.at - t0;
      console.log(`tick → margin call at the webhook (${process.env.TEST_DB}): ${took.toFixed(0)} ms`);
      await watch.idle();
      expect(await traces(ben.id)).toMatchObject({
        audits: before.audits + 1,
        outbox: before.outbox + 1,
        in_call: true,
      });
      const bell = await h.call('/api/pricer/view/notifications', { limit: 5 }, t.pricers.ben!.jwt);
      expect(bell.body.data.items[0]).toMatchObject({ kind: 'margin_call', title: '追加保证金通知' });

      // A deposit that ends it wakes the watcher too: the end is recorded with no read of the accounts.
      const dep = await h.call(
        '/api/trader/rpc/record-funds',
        { pricer_id: ben.id, kind: 'deposit', amount: 20_000 },
        t.token,
      );
      expect(dep.body.data.account.margin_call).toBe(false);
      await waitFor(async () => !(await traces(ben.id)).in_call, 20_000);
      expect(await traces(ben.id)).toMatchObject({ audits: before.audits + 2 });
    } finally {
      await watch.stop();
      await worker.stop();
      server.close();
    }
  });
});
