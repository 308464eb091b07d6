import { createWsClient } from '@pfp/ws-core';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WsRegistry } from './registry';
import { attachViewServer } from './server';
import { counterSource } from '../../../test/ws/testSources';

async function startServer(port = 0) {
  const app = Fastify();
  const counter = counterSource(true);
  attachViewServer(app, new WsRegistry().source('counter', counter.source), async () => true);
  await app.listen({ port, host: '127.0.0.1' });
  return { app, counter, port: (app.server.address() as AddressInfo).port };
}

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('ws-core against the real view server', () => {
  it('subscribes, receives pushed patches, and survives a server restart mid-subscription', async () => {
    let server = await startServer();
    const seen: unknown[] = [];
    const states: string[] = [];
    const client = createWsClient({
      url: `ws://127.0.0.1:${server.port}/ws/volatility`,
      token: '',
      WebSocketImpl: WebSocket as never,
      reconnectBaseMs: 50,
      logger: { warn: () => {}, error: () => {}, info: () => {}, debug: () => {}, log: () => {} } as never,
    });
    client.onStateChange((s) => states.push(s));
    const initial = client.subscribeView('v1', 'counter', { items: ['a'] }, (d) => seen.push(d));
    client.connect();
    expect(await initial).toEqual({ count: 0, params: { items: ['a'] } });

    server.counter.tick(1);
    await until(() => seen.some((d) => (d as { count: number }).count === 1));

    // Restart the server on the same port while the view is subscribed.
    const port = server.port;
    await server.app.close();
    await until(() => states.includes('reconnecting'));
    server = await startServer(port);
    await until(() => client.state === 'connected' && server.counter.subscribers() === 1);
    server.counter.tick(7);
    await until(() => seen.some((d) => (d as { count: number }).count === 7));
    expect(client.viewIds()).toEqual(['v1']);

    await client.unsubscribeView('v1');
    await until(() => server.counter.subscribers() === 0);
    client.close();
    await server.app.close();
  });

  it('reports a failed subscription with the server text and drops it', async () => {
    const server = await startServer();
    const client = createWsClient({ url: `ws://127.0.0.1:${server.port}/ws`, WebSocketImpl: WebSocket as never });
    client.connect();
    await expect(client.subscribeView('bad', 'missing', {}, () => {})).rejects.toThrow('未知的数据源：missing');
    expect(client.viewIds()).toEqual([]);
    client.close();
    await server.app.close();
  });
});
