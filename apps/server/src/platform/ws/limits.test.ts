import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { findInstrument, futuresWithOptions } from '../../market/catalogue';
import { SimExchange } from '../../market/simExchange';
import { inlineEngine } from '../../modules/volatility/curveEngine';
import { VolatilityCurves } from '../../modules/volatility/curves';
import { DEFAULT_WS_LIMITS } from './limits';
import { WsRegistry } from './registry';
import { attachViewServer } from './server';

/**
 * WebSocket limits as an anonymous client meets them (issue 14 §7), on the real volatility
 * source and the simulated exchange: over each cap an error reply in Chinese, and the server
 * (and the other clients) carry on.
 */
let app: ReturnType<typeof Fastify>;
let url: string;
let sim: SimExchange;
let curves: VolatilityCurves;
const futures = [
  ...futuresWithOptions('SHFE', 'cu'),
  ...futuresWithOptions('DCE', 'm'),
  ...futuresWithOptions('CZCE', 'SR'),
].map((f) => f.symbol);

beforeEach(async () => {
  sim = new SimExchange({ seed: 3 });
  curves = new VolatilityCurves(sim, inlineEngine(), {
    isFuture: (s: string) => findInstrument(s)?.kind === 'future',
    public: true,
    maxItems: DEFAULT_WS_LIMITS.maxCurves,
  });
  app = Fastify();
  attachViewServer(app, new WsRegistry().source('volatility_curves', curves.source), async () => false);
  app.get('/ping', async () => 'pong');
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws/volatility`;
});
afterEach(async () => {
  await app.close();
  await curves.close();
});

type Msg = Record<string, any>;
async function client() {
  const ws = new WebSocket(url);
  const inbox: Msg[] = [];
  ws.on('message', (d) => inbox.push(JSON.parse(d.toString()) as Msg));
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let n = 0;
  const until = async (pred: (m: Msg) => boolean, ms = 5000) => {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 10))) {
      const hit = inbox.find(pred);
      if (hit) return hit;
    }
    throw new Error(`no such message; got ${JSON.stringify(inbox.slice(-3))}`);
  };
  const request = (msg: Msg) => {
    const req_id = `r${++n}`;
    ws.send(JSON.stringify({ ...msg, req_id }));
    return until((m) => m.req_id === req_id);
  };
  return { ws, inbox, request, until, closed };
}
const items = (symbols: string[], n = 8) =>
  symbols.flatMap((symbol) =>
    (['CALL', 'PUT'] as const)
      .flatMap((option_type) =>
        (['ask', 'bid', 'mid', 'last'] as const).map((price_type) => ({ symbol, option_type, price_type })),
      )
      .slice(0, n),
  );
const subscribe = (c: Awaited<ReturnType<typeof client>>, id: string, its: unknown[]) =>
  c.request({ aid: 'subscribe_view', view_id: id, view_name: 'volatility_curves', params: { items: its } });
const chinese = (m: Msg) => /[\u4e00-\u9fff]/.test(String(m.error?.message));

describe('limits per connection', () => {
  it('caps views, curves per view and distinct futures, answering in Chinese', async () => {
    const c = await client();
    const tooMany = await subscribe(c, 'big', [...items(futures.slice(0, 2)), ...items([futures[0]!], 1)]);
    expect(tooMany).toMatchObject({ result: 'error', error: { code: 'TOO_MANY_CURVES' } });
    expect(chinese(tooMany)).toBe(true);

    expect(await subscribe(c, 'a', items([futures[0]!]))).toMatchObject({ result: 'ok' });
    expect(await subscribe(c, 'b', items([futures[1]!]))).toMatchObject({ result: 'ok' });
    const third = await subscribe(c, 'c', items([futures[2]!]));
    expect(third).toMatchObject({ result: 'error', error: { code: 'TOO_MANY_FUTURES' } });
    expect(chinese(third)).toBe(true);
    // More views of the futures already held are fine, up to the view cap.
    for (let i = 0; i < 6; i++)
      expect(await subscribe(c, `v${i}`, items([futures[i % 2]!], 2))).toMatchObject({ result: 'ok' });
    const ninth = await subscribe(c, 'v9', items([futures[0]!], 1));
    expect(ninth).toMatchObject({ result: 'error', error: { code: 'TOO_MANY_VIEWS' } });
    expect(chinese(ninth)).toBe(true);
    expect(curves.activeFutures().length).toBeLessThanOrEqual(2);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('refuses a message that is too large, and a flood of messages, and keeps serving', async () => {
    const c = await client();
    c.ws.send(JSON.stringify({ aid: 'peek_message', req_id: 'big', pad: 'x'.repeat(20_000) }));
    const big = await c.until((m) => m.error?.code === 'MESSAGE_TOO_LARGE');
    expect(chinese(big)).toBe(true);
    for (let i = 0; i < 100; i++)
      c.ws.send(JSON.stringify({ aid: 'unsubscribe_view', req_id: `f${i}`, view_id: 'none' }));
    const limited = await c.until((m) => m.error?.code === 'RATE_LIMITED');
    expect(limited.error.message).toBe('消息过于频繁，请稍后再试');
    expect(c.inbox.filter((m) => m.error?.code === 'UNKNOWN_VIEW_ID').length).toBeLessThan(60);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await subscribe(c, 'after', items([futures[0]!], 2))).toMatchObject({ result: 'ok' });
    expect(await (await fetch(url.replace('ws', 'http').replace('/ws/volatility', '/ping'))).text()).toBe('pong');
    c.ws.close();
  });
});

describe('limits per address', () => {
  it('refuses connections past the per-address cap with a Chinese reason', async () => {
    const open = [];
    for (let i = 0; i < 20; i++) open.push(await client());
    const extra = await client();
    const reason = await extra.until((m) => m.error?.code === 'TOO_MANY_CONNECTIONS');
    expect(chinese(reason)).toBe(true);
    expect(await extra.closed).toBe(1013);
    // The ones already open still work.
    expect(await subscribe(open[0]!, 'x', items([futures[0]!], 1))).toMatchObject({ result: 'ok' });
    for (const c of open) c.ws.close();
  });
});
