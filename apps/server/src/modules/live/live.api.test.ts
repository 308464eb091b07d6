import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHarness, type Harness } from '../../../test/harness';
import { SimExchange } from '../../market';
import type { Quote } from '../../platform/quote';
import { WsRegistry } from '../../platform/ws/registry';
import { attachViewServer } from '../../platform/ws/server';
import { rememberedTenantIds } from '../tenants/tenantIds';
import { LiveHub, liveCaller } from './hub';
import { tradingDayIn } from '../../../test/days';

let h: Harness;
let hub: LiveHub;
let ws: ReturnType<typeof Fastify>;
let url: string;
const market = new SimExchange({ seed: 7 });
const tickListeners = new Set<(q: readonly Quote[], at: number) => void>();
const tick = (symbol: string) => {
  const q = { ...market.getQuote(symbol)!, last_price: 70_000 + Math.round(Math.random() * 100) * 10 };
  for (const l of tickListeners) l([q], Date.now());
  return q;
};

interface Customer {
  trader: string;
  jwt: string;
  userId: number;
  contractId: number;
  symbol: string;
}

async function customer(sub: string, company: string): Promise<Customer> {
  const trader = await h.idp.sign({}, { sub });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: company, tq_account_config: { is_sim: true } },
    trader,
  );
  const tenant = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id as number;
  // Written for trading without margin: the new company's 10 % default (issue 41) set to 0.
  await h.db.updateTable('tenants').set({ default_margin_rate: 0 }).where('id', '=', tenant).execute();
  const created = await h.call('/api/trader/rpc/create-pricer-user', { username: 'dora', password: 'pw123' }, trader);
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const user = created.body.data;
  const symbol = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, trader)).body.data.items[1]
    .symbol as string;
  const contract = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: user.id,
      product_name: '铜',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 0,
      fixing_deadline: tradingDayIn(30),
    },
    trader,
  );
  const login = await h.call('/api/pricer/rpc/pricer-login', {
    tenant_id: tenant,
    username: 'dora',
    password: 'pw123',
  });
  return { trader, jwt: login.body.data.jwt_token, userId: user.id, contractId: contract.body.data.id, symbol };
}

/** A raw protocol client: requests by req_id, and a peek loop collecting the pushed patches. */
async function client(token: string) {
  const sock = new WebSocket(`${url}/ws?token=${token}`);
  const replies = new Map<string, (m: any) => void>();
  const patches: { at: number; data: any }[] = [];
  let n = 0;
  const request = (msg: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const req_id = `r${++n}`;
      replies.set(req_id, resolve);
      sock.send(JSON.stringify({ ...msg, req_id }));
    });
  const peek = () => void request({ aid: 'peek_message' }).then(onPeek);
  const onPeek = (m: any) => {
    if (m.data) for (const v of Object.values(m.data)) patches.push({ at: Date.now(), data: v });
    if (sock.readyState === sock.OPEN) peek();
  };
  sock.on('message', (d) => {
    const m = JSON.parse(d.toString());
    replies.get(m.req_id)?.(m);
    replies.delete(m.req_id);
  });
  await new Promise<void>((resolve, reject) => {
    sock.once('open', () => resolve());
    sock.once('error', reject);
  });
  return {
    subscribe: (view: string, params: Record<string, unknown> = {}) =>
      request({ aid: 'subscribe_view', view_id: 'v', view_name: view, params }),
    startPeeking: peek,
    patches,
    /** The first pushed patch (from `from` on) that `pred` accepts, within `ms`. */
    async next(pred: (p: any) => boolean, ms = 1000, from = 0) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const hit = patches.slice(from).find((p) => pred(p.data));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no such patch within ${ms} ms: ${JSON.stringify(patches.map((p) => p.data))}`);
    },
    close: () => sock.close(),
  };
}

beforeAll(async () => {
  h = await startHarness({ quote: (symbol) => market.getQuote(symbol) });
  hub = new LiveHub({
    db: h.db,
    quote: (s) => market.getQuote(s),
    onTick: (l) => (tickListeners.add(l), () => tickListeners.delete(l)),
    tenantOf: rememberedTenantIds(h.db),
    logger: h.app.log,
  });
  const registry = new WsRegistry();
  for (const [name, source] of hub.sources()) registry.source(name, source);
  ws = Fastify();
  attachViewServer(ws, registry, (token) => liveCaller(h.ctx, token));
  await ws.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(ws.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ws.close();
  await hub.close();
  await h.close();
});

/** The desk's read of the open contract's orders (apps/pricer contractOrders). */
const deskPage = (contractId: number) => ({
  contract_id: contractId,
  sort_fields: [{ field: 'id', ascending: false }],
  slice_start: 0,
  slice_end: 50,
});

describe('the live desk', () => {
  it('pushes the instrument quotes per tick and an order within a second, and resumes by version', async () => {
    const c = await customer('live-a', '实时甲公司');
    const desk = await client(c.jwt);
    const sub = await desk.subscribe('pricer_desk', { user_id: c.userId, contract_id: c.contractId });
    expect(sub.result).toBe('ok');
    expect(sub.data.snapshot.contracts.map((x: any) => x.id)).toEqual([c.contractId]);
    expect(Object.keys(sub.data.quotes)).toEqual([c.symbol]);
    expect(sub.data.orders).toEqual({ items: [], total_count: 0 });
    const v0 = sub.data.version as string;
    desk.startPeeking();

    const q = tick(c.symbol);
    const quote = await desk.next((p) => p.quotes?.[c.symbol]?.last_price === q.last_price);
    expect(quote.data.quotes[c.symbol].price_tick).toBe(10);

    const sent = Date.now();
    const order = await h.call('/api/pricer/rpc/submit-order', { contract_id: c.contractId, quantity: 2 }, c.jwt);
    expect(order.status).toBe(200);
    const pushed = await desk.next((p) => p.orders?.items?.some((o: any) => o.id === order.body.data.id));
    expect(pushed.at - sent).toBeLessThan(1000);
    expect(pushed.data.version).not.toBe(v0);
    // The open contract's rows in the same wire form as the desk's HTTP read (dates as ISO strings); the
    // snapshot without the orders no desk reads.
    const http = (await h.call('/api/pricer/view/my-orders', deskPage(c.contractId), c.jwt)).body.data;
    expect(pushed.data.orders.items[0]).toEqual(http.items[0]);
    expect(pushed.data.snapshot.orders).toBeUndefined();
    expect(pushed.data.snapshot.contracts[0].remaining_quantity).toBe(18);

    // Resume: a client holding the latest version is sent no snapshot; one holding an older one, the state.
    const again = await client(c.jwt);
    const resumed = await again.subscribe('pricer_desk', { since: pushed.data.version });
    expect(resumed.data.version).toBe(pushed.data.version);
    expect(resumed.data.snapshot).toBeUndefined();
    const behind = await client(c.jwt);
    const caughtUp = await behind.subscribe('pricer_desk', { since: v0, contract_id: c.contractId });
    expect(caughtUp.data.snapshot.contracts[0].remaining_quantity).toBe(18);
    expect(caughtUp.data.orders.items).toHaveLength(1);
    for (const x of [desk, again, behind]) x.close();
  });

  it('marks the desk’s account to every tick that moves it: margin and available move with the quotes (issue 41)', async () => {
    const c = await customer('live-m', '实时保证金公司');
    const margined = await h.call(
      '/api/trader/rpc/create-contract',
      {
        pricer_id: c.userId,
        product_name: '铜',
        instrument_id: c.symbol,
        direction: 'BUY',
        total_quantity: 20,
        basis: 0,
        fixing_deadline: tradingDayIn(30),
        margin_rate: 0.1,
      },
      c.trader,
    );
    await h.call('/api/trader/rpc/record-funds', { pricer_id: c.userId, kind: 'deposit', amount: 500_000 }, c.trader);
    // 2 lots at the market, open (no broker here): held at the live price × 2 × 5 × 10 % = the price itself.
    const order = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: margined.body.data.id, quantity: 2 },
      c.jwt,
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const desk = await client(c.jwt);
    await desk.subscribe('pricer_desk', { user_id: c.userId });
    desk.startPeeking();
    const at = (last_price: number) => {
      const q = { ...market.getQuote(c.symbol)!, last_price };
      for (const l of tickListeners) l([q], Date.now());
    };
    for (const p of [71_000, 69_500]) {
      at(p);
      const pushed = await desk.next((x) => x.account?.margin_required === p, 2000);
      expect(pushed.data.account).toMatchObject({ pricer_id: c.userId, balance: 500_000, available: 500_000 - p });
    }
    desk.close();
  });

  it('carries a deposit and a credit line to an open desk: a ledger write raises the customer’s data version', async () => {
    const c = await customer('live-f', '实时入金公司');
    const desk = await client(c.jwt);
    await desk.subscribe('pricer_desk', { user_id: c.userId });
    desk.startPeeking();
    await h.call('/api/trader/rpc/record-funds', { pricer_id: c.userId, kind: 'deposit', amount: 120_000 }, c.trader);
    const deposited = await desk.next((x) => x.account?.balance === 120_000, 2000);
    expect(deposited.data.account).toMatchObject({ pricer_id: c.userId, balance: 120_000, available: 120_000 });
    await h.call('/api/trader/rpc/set-credit-line', { pricer_id: c.userId, credit_line: 30_000 }, c.trader);
    const raised = await desk.next((x) => x.account?.credit_line === 30_000, 2000);
    expect(raised.data.account).toMatchObject({ balance: 120_000, credit_line: 30_000, available: 150_000 });
    desk.close();
  });

  it('carries a fix to the desk as the rows it shows: the order, 条件单, bell and account, no HTTP re-read', async () => {
    const c = await customer('live-d', '实时丁公司');
    // A history the desk does not show: 120 orders on a second contract.
    const other = await h.call(
      '/api/trader/rpc/create-contract',
      {
        pricer_id: c.userId,
        product_name: '铜',
        instrument_id: c.symbol,
        direction: 'SELL',
        total_quantity: 500,
        basis: 0,
        fixing_deadline: tradingDayIn(30),
      },
      c.trader,
    );
    for (let i = 0; i < 120; i++)
      await h.call('/api/pricer/rpc/submit-order', { contract_id: other.body.data.id, quantity: 1 }, c.jwt);
    const desk = await client(c.jwt);
    await desk.subscribe('pricer_desk', { user_id: c.userId, contract_id: c.contractId });
    desk.startPeeking();
    await new Promise((r) => setTimeout(r, 500));
    const from = desk.patches.length;
    const order = await h.call('/api/pricer/rpc/submit-order', { contract_id: c.contractId, quantity: 1 }, c.jwt);
    const id = order.body.data.id as number;
    const last = await desk.next((p) => p.orders?.items?.some((o: any) => o.id === id), 3000);
    await new Promise((r) => setTimeout(r, 1000)); // the fill's pushes, if the broker fills it
    const pushes = desk.patches.slice(from).filter((p) => p.data.version !== undefined);
    const bytes = pushes.reduce((n, p) => n + JSON.stringify(p.data).length, 0);
    console.log(`pushes per fix: ${pushes.length}, bytes: ${bytes} (${Math.round(bytes / pushes.length)} per push)`);
    // Each push carries what the desk shows of the change: no read needed to show it.
    for (const p of pushes) {
      expect(p.data.snapshot.orders).toBeUndefined();
      expect(p.data.orders.items.every((o: any) => o.contract_id === c.contractId)).toBe(true);
      expect(p.data.conditionals).toEqual({ items: [], total_count: 0 });
      expect(p.data.notifications.unread_count).toBeGreaterThanOrEqual(0);
    }
    const final = pushes.at(-1)!.data;
    const http = (await h.call('/api/pricer/view/my-orders', deskPage(c.contractId), c.jwt)).body.data;
    expect(final.orders).toEqual(http);
    expect(final.notifications).toEqual(
      (await h.call('/api/pricer/view/notifications', { limit: 50 }, c.jwt)).body.data,
    );
    expect(last.data.snapshot.account).toBeDefined();
    desk.close();
  });

  it('refuses another customer’s desk and a trader on a customer desk, delivering nothing', async () => {
    const c = await customer('live-b', '实时乙公司');
    const desk = await client(c.jwt);
    const other = await desk.subscribe('pricer_desk', { user_id: c.userId + 1000 });
    expect(other).toMatchObject({
      result: 'error',
      error: { code: 'UNAUTHORIZED', message: '无权订阅其他客户的数据' },
    });
    expect(other.data).toBeUndefined();
    desk.startPeeking();
    tick(c.symbol);
    await new Promise((r) => setTimeout(r, 300));
    expect(desk.patches).toEqual([]);
    const trader = await client(c.trader);
    expect((await trader.subscribe('pricer_desk')).error.code).toBe('UNAUTHORIZED');
    expect((await desk.subscribe('pricer_desk', { since: 'x' })).error).toMatchObject({ code: 'BAD_PARAMS' });
    desk.close();
    trader.close();
  });

  it('tells the trader console that its company’s data moved, and ends a deactivated customer’s desk', async () => {
    const c = await customer('live-c', '实时丙公司');
    const trader = await client(c.trader);
    const first = await trader.subscribe('trader_desk');
    expect(first.result).toBe('ok');
    trader.startPeeking();
    const desk = await client(c.jwt);
    await desk.subscribe('pricer_desk');
    desk.startPeeking();
    await h.call('/api/pricer/rpc/submit-order', { contract_id: c.contractId, quantity: 1 }, c.jwt);
    await trader.next((p) => p.version !== undefined && p.version !== first.data.version);
    await h.call('/api/trader/rpc/update-pricer-status', { user_id: c.userId, new_status: 'inactive' }, c.trader);
    await desk.next((p) => p.ended === true);
    desk.close();
    trader.close();
  });

  it("ends a 授权点价人's desk when the trader switches them off or resets their password; the customer's stays", async () => {
    const c = await customer('live-p', '实时授权公司');
    const tenant = (await h.call('/api/trader/view/my-self', {}, c.trader)).body.data.tenant_id as number;
    const person = (username: string, phone: string) =>
      h.call(
        '/api/trader/rpc/add-authorised-pricer',
        {
          user_id: c.userId,
          name: username,
          id_type: 'id_card',
          id_last4: '123X',
          phone,
          username,
          password: 'pw123456',
        },
        c.trader,
      );
    const signIn = async (username: string, password = 'pw123456') =>
      (await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username, password })).body.data
        .jwt_token as string;
    const zhao = (await person('dora-zhao', '13800138000')).body.data.id as number;
    const qian = (await person('dora-qian', '13800138001')).body.data.id as number;
    const desks = await Promise.all([c.jwt, await signIn('dora-zhao'), await signIn('dora-qian')].map(client));
    for (const d of desks) {
      expect((await d.subscribe('pricer_desk')).result).toBe('ok');
      d.startPeeking();
    }
    const [own, zhaoDesk, qianDesk] = desks as [(typeof desks)[0], (typeof desks)[0], (typeof desks)[0]];

    const off = await h.call(
      '/api/trader/rpc/set-authorised-pricer-active',
      { person_id: zhao, active: false },
      c.trader,
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await zhaoDesk.next((p) => p.ended === true);
    const reset = await h.call(
      '/api/trader/rpc/reset-authorised-pricer-password',
      { person_id: qian, new_password: 'pw654321' },
      c.trader,
    );
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await qianDesk.next((p) => p.ended === true);
    // The customer's own desk is still live: its next fix is pushed to it.
    const from = own.patches.length;
    await h.call('/api/pricer/rpc/submit-order', { contract_id: c.contractId, quantity: 1 }, c.jwt);
    await own.next((p) => p.snapshot !== undefined, 2000, from);
    expect(own.patches.some((p) => p.data.ended)).toBe(false);
    for (const d of desks) d.close();
  });
});
