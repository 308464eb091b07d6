import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_WS_LIMITS, TRY_AGAIN_LATER, WS_LIMIT_MESSAGES } from './limits';
import { WsRegistry } from './registry';
import { attachViewServer } from './server';
import { counterSource } from '../../../test/ws/testSources';

/**
 * The per-server budget of anonymous WebSocket connections (issue 30), with the production defaults:
 * 12 addresses (127.0.0.1–12, all loopback on Linux) each opening 20 anonymous connections — what slowed
 * the desks to 3 s — then one more from the 12th: the server holds anonymous connections within its
 * budget, split evenly (the first addresses give up slots to the late ones), the 241st is refused and
 * closed with a Chinese reason, and a signed-in desk from the flooding address still connects and is served.
 */
let app: ReturnType<typeof Fastify>;
let port: number;
let server: ReturnType<typeof attachViewServer>;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  app = Fastify();
  const registry = new WsRegistry()
    .source('counter', counterSource(true).source)
    .source('private', counterSource(false).source)
    // A chain per future, as the volatility curves: what a view keeps computed is its futures.
    .source('chains', {
      public: true,
      resources: (p) => (p.items as string[]) ?? [],
      subscribe: async (p) => ({ initial: { items: p.items }, close() {} }),
    });
  server = attachViewServer(app, registry, async (token) => token === 'desk');
  await app.listen({ port: 0, host: '0.0.0.0' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await app.close();
});

type Outcome = { open: boolean; closeCode?: number; error?: string; ws: WebSocket };

/** Connects from `from`; open = still open 100 ms after the handshake (a refusal is sent and closed at once). */
function connect(from: string, token?: string): Promise<Outcome> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/volatility${token ? `?token=${token}` : ''}`, {
    localAddress: from,
  });
  sockets.push(ws);
  return new Promise((resolve, reject) => {
    let error: string | undefined;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { aid?: string; error?: { code: string; message: string } };
      if (m.aid === 'error') error = m.error?.message;
    });
    ws.once('close', (code) => resolve({ open: false, closeCode: code, ...(error ? { error } : {}), ws }));
    ws.once('error', reject);
    ws.once('open', () => setTimeout(() => ws.readyState === WebSocket.OPEN && resolve({ open: true, ws }), 100));
  });
}

describe('WebSocket budget per server (issue 30)', () => {
  it('refuses the 241st anonymous connection from a 12th address, keeps each address its share, and lets a desk in', async () => {
    const budget = DEFAULT_WS_LIMITS.maxAnonymousConnections;
    const byAddress: Outcome[][] = [];
    for (let a = 1; a <= 12; a++)
      byAddress.push(await Promise.all(Array.from({ length: 20 }, () => connect(`127.0.0.${a}`))));
    const last = await connect('127.0.0.12');
    expect(last.open).toBe(false);
    expect(last.closeCode).toBe(TRY_AGAIN_LATER);
    expect(last.error).toBe(WS_LIMIT_MESSAGES.busy);

    await new Promise((r) => setTimeout(r, 200));
    const perAddress = byAddress.map((list) => list.filter((o) => o.ws.readyState === WebSocket.OPEN).length);
    const open = perAddress.reduce((s, n) => s + n, 0);
    expect(open).toBeLessThanOrEqual(budget);
    expect(server.anonymousConnections()).toBe(open);
    // Every address, the late ones too, has its fair share: no address takes the room of the others.
    expect(perAddress).toEqual(Array.from({ length: 12 }, () => budget / 12));

    // A desk (signed in) from the flooding address connects and reads its private view.
    const desk = await connect('127.0.0.12', 'desk');
    expect(desk.open).toBe(true);
    const reply = await new Promise<{ result: string }>((resolve) => {
      desk.ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { req_id?: string; result: string };
        if (m.req_id === 'd1') resolve(m);
      });
      desk.ws.send(
        JSON.stringify({
          aid: 'subscribe_view',
          req_id: 'd1',
          view_id: 'v',
          view_name: 'private',
          params: { items: [1] },
        }),
      );
    });
    expect(reply.result).toBe('ok');
  });

  it('keeps the futures anonymous views hold within the server budget; shared futures and desks are not refused', async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    await new Promise((r) => setTimeout(r, 200));
    const max = DEFAULT_WS_LIMITS.maxAnonymousFutures;
    const subscribe = (o: Outcome, id: string, items: string[]) =>
      new Promise<{ result: string; error?: { code: string; message: string } }>((resolve) => {
        o.ws.on('message', (d) => {
          const m = JSON.parse(d.toString()) as { req_id?: string; result: string };
          if (m.req_id === id) resolve(m);
        });
        o.ws.send(
          JSON.stringify({ aid: 'subscribe_view', req_id: id, view_id: id, view_name: 'chains', params: { items } }),
        );
      });
    // Anonymous clients from many addresses, two futures each, until the budget is full.
    const clients = await Promise.all(Array.from({ length: max / 2 + 1 }, (_, i) => connect(`127.0.1.${i + 1}`)));
    for (const [i, c] of clients.slice(0, max / 2).entries())
      expect((await subscribe(c, `a${i}`, [`F${2 * i}`, `F${2 * i + 1}`])).result).toBe('ok');
    expect(server.anonymousFutures()).toBe(max);
    const late = clients[max / 2]!;
    const refused = await subscribe(late, 'late', ['NEW1']);
    expect(refused.error).toEqual({ code: 'TOO_MANY_FUTURES', message: WS_LIMIT_MESSAGES.busyFutures });
    // A future someone already watches costs nothing more: shared.
    expect((await subscribe(late, 'shared', ['F0'])).result).toBe('ok');
    // A desk is not counted against the anonymous budget.
    const desk = await connect('127.0.1.200', 'desk');
    expect((await subscribe(desk, 'd', ['DESK1', 'DESK2'])).result).toBe('ok');
    // A client that leaves gives its futures back (F1; F0 is still watched by the late one).
    clients[0]!.ws.close();
    await expect.poll(() => server.anonymousFutures()).toBe(max - 1);
    expect((await subscribe(late, 'after', ['NEW1'])).result).toBe('ok');
  });
});

describe('WebSocket budget per company and per server for signed-in views (issue 40)', () => {
  it('holds one company’s flood (12 addresses × 20 signed-in connections) to its views and futures; another company still gets its own', async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    const own = Fastify();
    const source = {
      public: true,
      resources: (p: Record<string, unknown>) => (p.items as string[]) ?? [],
      subscribe: async (p: Record<string, unknown>) => ({ initial: { items: p.items }, close() {} }),
    };
    // Tokens name their company: 'A:1' is a customer of company A.
    const budget = attachViewServer(own, new WsRegistry().source('chains', source), async (t) => t.includes(':') && t, {
      accountOf: (caller) => String(caller).split(':')[0]!,
    });
    await own.listen({ port: 0, host: '0.0.0.0' });
    const ownPort = (own.server.address() as AddressInfo).port;
    const open = (from: string, token: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${ownPort}/ws/volatility?token=${token}`, { localAddress: from });
        sockets.push(ws);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const subscribe = (ws: WebSocket, id: string, items: string[]) =>
      new Promise<{ result: string; error?: { code: string; message: string } }>((resolve) => {
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString()) as { req_id?: string; result: string };
          if (m.req_id === id) resolve(m);
        });
        ws.send(
          JSON.stringify({ aid: 'subscribe_view', req_id: id, view_id: id, view_name: 'chains', params: { items } }),
        );
      });
    try {
      const { maxCompanyViews, maxCompanyFutures, maxSignedInFutures } = DEFAULT_WS_LIMITS;
      // Company A: 240 connections from 12 addresses, each asking for 2 futures of its own, then 1 shared one.
      const flood = await Promise.all(
        Array.from({ length: 240 }, (_, i) => open(`127.0.2.${1 + Math.floor(i / 20)}`, `A:${i}`)),
      );
      const own1 = await Promise.all(flood.map((ws, i) => subscribe(ws, `own${i}`, [`F${2 * i}`, `F${2 * i + 1}`])));
      const granted = own1.filter((r) => r.result === 'ok').length;
      expect(granted).toBe(maxCompanyFutures / 2);
      expect(own1.find((r) => r.result !== 'ok')?.error).toEqual({
        code: 'TOO_MANY_FUTURES',
        message: WS_LIMIT_MESSAGES.companyFutures(maxCompanyFutures),
      });
      // A future the company already watches is free — up to its views budget (the refused ask for it).
      const shared = await Promise.all(flood.slice(granted).map((ws, i) => subscribe(ws, `shared${i}`, ['F0'])));
      expect(shared.filter((r) => r.result === 'ok').length).toBe(maxCompanyViews - granted);
      expect(shared.find((r) => r.result !== 'ok')?.error?.message).toBe(
        WS_LIMIT_MESSAGES.companyViews(maxCompanyViews),
      );
      expect(budget.company('A')).toEqual({ views: maxCompanyViews, futures: maxCompanyFutures });
      expect(budget.signedInFutures()).toBe(maxCompanyFutures);

      // Company B is not held back by A: its own futures, up to the server's budget of signed-in futures.
      const others = await Promise.all(
        Array.from({ length: maxSignedInFutures }, (_, i) => open('127.0.3.1', `C${i}:1`)),
      );
      const theirs = await Promise.all(others.map((ws, i) => subscribe(ws, `c${i}`, [`G${i}`])));
      const room = maxSignedInFutures - maxCompanyFutures;
      expect(theirs.filter((r) => r.result === 'ok').length).toBe(room);
      expect(theirs.find((r) => r.result !== 'ok')?.error?.message).toBe(WS_LIMIT_MESSAGES.busySignedIn);
      // Futures someone signed in already watches stay free for everyone.
      const b = await open('127.0.3.2', 'B:1');
      expect((await subscribe(b, 'b', ['G0'])).result).toBe('ok');
      // A company that leaves gives its views and futures back.
      for (const ws of flood) ws.close();
      await expect.poll(() => budget.company('A').views).toBe(0);
      expect((await subscribe(b, 'b2', ['H1'])).result).toBe('ok');
    } finally {
      for (const ws of sockets.splice(0)) ws.terminate();
      await own.close();
    }
  });
});
