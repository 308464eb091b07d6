import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { WsRegistry } from './registry';
import { attachViewServer } from './server';
import { counterSource, echoTask } from '../../../test/ws/testSources';

let app: ReturnType<typeof Fastify>;
let url: string;
let counter: ReturnType<typeof counterSource>;
let priv: ReturnType<typeof counterSource>;

beforeEach(async () => {
  app = Fastify();
  counter = counterSource(true);
  priv = counterSource(false);
  const registry = new WsRegistry().source('counter', counter.source).source('private', priv.source);
  echoTask(registry);
  attachViewServer(app, registry, async (token) => token === 'good');
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterEach(() => app.close());

/** A raw protocol client: send a request, await the reply with its req_id. */
async function client(path = '/ws', token?: string) {
  const ws = new WebSocket(`${url}${path}${token !== undefined ? `?token=${token}` : ''}`);
  const inbox: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => boolean)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Record<string, unknown>;
    inbox.push(m);
    for (let i = waiters.length - 1; i >= 0; i--) if (waiters[i]!(m)) waiters.splice(i, 1);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  let n = 0;
  const wait = (pred: (m: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const hit = inbox.find(pred);
      if (hit) return resolve(hit);
      waiters.push((m) => (pred(m) ? (resolve(m), true) : false));
    });
  const request = (msg: Record<string, unknown>) => {
    const req_id = `r${++n}`;
    ws.send(JSON.stringify({ ...msg, req_id }));
    return wait((m) => m.req_id === req_id);
  };
  return { ws, request, inbox, raw: (text: string) => ws.send(text), wait };
}

describe('view protocol server', () => {
  it('answers subscribe with initial data and routes patches to peek, keyed by view id', async () => {
    const c = await client('/ws/volatility');
    const sub = await c.request({ aid: 'subscribe_view', view_id: 'v1', view_name: 'counter', params: { items: [1] } });
    expect(sub).toMatchObject({ result: 'ok', data: { count: 0, params: { items: [1] } } });
    const peek = c.request({ aid: 'peek_message' });
    // Held until there is a change…
    await new Promise((r) => setTimeout(r, 50));
    expect(c.inbox.filter((m) => m.aid === 'peek_message')).toHaveLength(0);
    counter.tick(1);
    expect(await peek).toMatchObject({ result: 'ok', data: { v1: { count: 1 } } });
    // …and answered immediately when changes are already waiting, merged.
    counter.tick(2);
    counter.tick(3);
    expect(await c.request({ aid: 'peek_message' })).toMatchObject({ data: { v1: { count: 3 } } });
    expect(await c.request({ aid: 'unsubscribe_view', view_id: 'v1' })).toMatchObject({ result: 'ok' });
    expect(counter.subscribers()).toBe(0);
    c.ws.close();
  });

  it('answers bad requests with an error reply and keeps the connection', async () => {
    const c = await client();
    c.raw('not json');
    expect(await c.wait((m) => (m.error as { code?: string })?.code === 'BAD_MESSAGE')).toMatchObject({
      result: 'error',
    });
    expect(await c.request({ aid: 'nope' })).toMatchObject({ result: 'error', error: { code: 'UNKNOWN_AID' } });
    expect(await c.request({ aid: 'subscribe_view', view_id: 'x', view_name: 'missing' })).toMatchObject({
      error: { code: 'UNKNOWN_VIEW' },
    });
    await c.request({ aid: 'subscribe_view', view_id: 'a', view_name: 'counter' });
    expect(await c.request({ aid: 'subscribe_view', view_id: 'a', view_name: 'counter' })).toMatchObject({
      error: { code: 'DUPLICATE_VIEW' },
    });
    expect(
      await c.request({ aid: 'subscribe_view', view_id: 'f', view_name: 'counter', params: { fail: true } }),
    ).toMatchObject({
      error: { code: 'INTERNAL' },
    });
    expect(await c.request({ aid: 'unsubscribe_view', view_id: 'zz' })).toMatchObject({
      error: { code: 'UNKNOWN_VIEW_ID' },
    });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('reads requests with the contract schemas: a malformed field gets a Chinese error naming it, never a crash', async () => {
    const c = await client('/ws', 'good');
    const error = (m: Record<string, unknown>) => m.error as { code: string; message: string };
    // Fields of the wrong shape, which the hand-written reader used to let through or misname.
    expect(
      error(await c.request({ aid: 'subscribe_view', view_id: 'v', view_name: 'counter', params: 'items' })),
    ).toEqual({ code: 'BAD_PARAMS', message: '参数 params 应为对象' });
    expect(error(await c.request({ aid: 'start_task' }))).toEqual({
      code: 'BAD_PARAMS',
      message: '缺少参数 task_name',
    });
    expect(error(await c.request({ aid: 'intervene_task', params: { task_id: 'x' } }))).toEqual({
      code: 'BAD_PARAMS',
      message: '缺少参数 params.intervention',
    });
    expect(error(await c.request({ aid: 'unsubscribe_view', view_id: 7 }))).toEqual({
      code: 'BAD_PARAMS',
      message: '缺少 view_id',
    });
    c.raw(JSON.stringify({ aid: 'peek_message', req_id: 7 }));
    expect(await c.wait((m) => m.req_id === 7)).toMatchObject({
      aid: 'peek_message',
      result: 'error',
      error: { code: 'BAD_PARAMS', message: '参数 req_id 应为文本' },
    });
    // Missing req_id, unknown action, not an object: the codes clients already know.
    c.raw(JSON.stringify({ aid: 'unsubscribe_view', view_id: 'v' }));
    expect(await c.wait((m) => (m.error as { code?: string } | undefined)?.code === 'MISSING_REQ_ID')).toMatchObject({
      aid: 'unsubscribe_view',
      req_id: null,
      error: { message: '缺少 req_id' },
    });
    expect(error(await c.request({ aid: 'subscribe' }))).toEqual({
      code: 'UNKNOWN_AID',
      message: '不支持的操作：subscribe',
    });
    c.raw('[1, 2]');
    expect(await c.wait((m) => (m.error as { code?: string } | undefined)?.code === 'BAD_MESSAGE')).toMatchObject({
      error: { message: '消息不是有效的 JSON 对象' },
    });
    // Nothing was subscribed by the bad requests, and the connection still works.
    expect(counter.subscribers()).toBe(0);
    expect(await c.request({ aid: 'subscribe_view', view_id: 'v', view_name: 'counter', extra: 1 })).toMatchObject({
      result: 'ok',
      data: { count: 0, params: { extra: 1 } },
    });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('requires a valid token for private views and tasks; refuses a bad token at the door', async () => {
    const anon = await client('/ws', '');
    expect(await anon.request({ aid: 'subscribe_view', view_id: 'p', view_name: 'private' })).toMatchObject({
      error: { code: 'UNAUTHORIZED' },
    });
    expect(await anon.request({ aid: 'start_task', task_name: 'echo' })).toMatchObject({
      error: { code: 'UNAUTHORIZED' },
    });
    anon.ws.close();
    await expect(client('/ws', 'bad')).rejects.toThrow('HTTP 401');
    const authed = await client('/ws', 'good');
    expect(await authed.request({ aid: 'subscribe_view', view_id: 'p', view_name: 'private' })).toMatchObject({
      result: 'ok',
    });
    authed.ws.close();
  });

  it('runs tasks through the registry with a string task_id', async () => {
    const c = await client('/ws', 'good');
    const started = await c.request({ aid: 'start_task', task_name: 'echo', params: { a: 1 } });
    const taskId = (started.data as { task_id: unknown }).task_id;
    expect(typeof taskId).toBe('string');
    expect(await c.wait((m) => m.aid === 'task_data')).toMatchObject({ task_id: taskId, data: { started: { a: 1 } } });
    const iv = await c.request({
      aid: 'intervene_task',
      params: { task_id: taskId, intervention: 'poke', params: { b: 2 } },
    });
    expect(iv).toMatchObject({ result: 'ok', data: { intervention: 'poke', params: { b: 2 } } });
    expect(await c.request({ aid: 'intervene_task', params: { task_id: 'nope', intervention: 'poke' } })).toMatchObject(
      {
        error: { code: 'UNKNOWN_TASK_ID' },
      },
    );
    expect(await c.request({ aid: 'start_task', task_name: 'nope' })).toMatchObject({
      error: { code: 'UNKNOWN_TASK' },
    });
    expect(await c.request({ aid: 'intervene_task', params: { task_id: taskId, intervention: 'stop' } })).toMatchObject(
      {
        result: 'ok',
      },
    );
    c.ws.close();
  });

  it('closes sources when the client goes away', async () => {
    const c = await client();
    await c.request({ aid: 'subscribe_view', view_id: 'v', view_name: 'counter' });
    expect(counter.subscribers()).toBe(1);
    c.ws.close();
    // The server hears of the close when it hears of it: wait for it, do not guess how long.
    await vi.waitFor(() => expect(counter.subscribers()).toBe(0), { timeout: 10_000 });
  });
});
