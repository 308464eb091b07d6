import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createWsClient, isWsError, type WsError, type WsClient, type WsClientOptions, type WsState } from './index';

// ---------------------------------------------------------------- test server

type Msg = Record<string, unknown> & { aid: string; req_id: string };
/** 返回要回复的对象（自动补 req_id），返回 undefined 表示不回复。 */
type Handler = (msg: Msg, conn: number, sock: WebSocket) => Record<string, unknown> | undefined;

interface TestServer {
  url: string;
  port: number;
  connections: WebSocket[];
  connectionUrls: string[];
  received: Array<{ conn: number; msg: Msg }>;
  /** 下一次 peek 回复的数据（按顺序取出），空时回复 {} */
  pushes: Array<Record<string, unknown>>;
  handlers: Partial<Record<string, Handler>>;
  /** peek 回复延迟（模拟长轮询） */
  peekHoldMs: number;
  peekOutstanding: number;
  maxPeekOutstanding: number;
  ofAid(aid: string, conn?: number): Msg[];
  close(): Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;
  const srv: TestServer = {
    url: `ws://127.0.0.1:${port}`,
    port,
    connections: [],
    connectionUrls: [],
    received: [],
    pushes: [],
    handlers: {},
    peekHoldMs: 0,
    peekOutstanding: 0,
    maxPeekOutstanding: 0,
    ofAid(aid, conn) {
      return srv.received.filter((r) => r.msg.aid === aid && (conn === undefined || r.conn === conn)).map((r) => r.msg);
    },
    async close() {
      for (const s of srv.connections) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
  wss.on('connection', (sock, req) => {
    const conn = srv.connections.length;
    srv.connections.push(sock);
    srv.connectionUrls.push(req.url ?? '');
    sock.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as Msg;
      srv.received.push({ conn, msg });
      const reply = (body: Record<string, unknown> | undefined) => {
        if (body && sock.readyState === WebSocket.OPEN) {
          sock.send(JSON.stringify({ req_id: msg.req_id, ...body }));
        }
      };
      const custom = srv.handlers[msg.aid];
      if (custom) return reply(custom(msg, conn, sock));
      switch (msg.aid) {
        case 'peek_message': {
          srv.peekOutstanding++;
          srv.maxPeekOutstanding = Math.max(srv.maxPeekOutstanding, srv.peekOutstanding);
          const send = () => {
            srv.peekOutstanding--;
            reply({ data: srv.pushes.shift() ?? {} });
          };
          if (srv.peekHoldMs > 0) setTimeout(send, srv.peekHoldMs);
          else send();
          return;
        }
        case 'subscribe_view':
          return reply({ result: 'ok', data: { view_id: msg.view_id, rows: [{ conn }] } });
        case 'unsubscribe_view':
          return reply({ result: 'ok' });
        case 'echo':
          return reply({ data: msg });
        default:
          return reply({ data: null });
      }
    });
  });
  return srv;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

// ------------------------------------------------------------------- helpers

let srv: TestServer;
const clients: WsClient[] = [];

function makeLogger() {
  return { warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() };
}

function makeClient(opts: Partial<WsClientOptions> = {}) {
  const logger = makeLogger();
  const client = createWsClient({
    url: srv.url,
    WebSocketImpl: WebSocket,
    peekDelayMs: 10,
    reconnectBaseMs: 20,
    requestTimeoutMs: 2000,
    logger,
    ...opts,
  });
  clients.push(client);
  return { client, logger };
}

function recordStates(client: WsClient): WsState[] {
  const states: WsState[] = [];
  client.onStateChange((s) => states.push(s));
  return states;
}

async function connected(client: WsClient): Promise<void> {
  client.connect();
  await vi.waitFor(() => expect(client.state).toBe('connected'), { timeout: 2000, interval: 5 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wait = { timeout: 3000, interval: 5 };

beforeEach(async () => {
  srv = await startServer();
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await srv.close();
});

// --------------------------------------------------------------------- tests

describe('connection', () => {
  it('passes the token as query parameter (appending to an existing query)', async () => {
    const { client } = makeClient({ url: `${srv.url}/ws?app=vol`, token: 'tok en' });
    await connected(client);
    expect(srv.connectionUrls[0]).toBe('/ws?app=vol&token=tok%20en');
  });

  it('token may be a function, re-read on each connect', async () => {
    let n = 0;
    const { client } = makeClient({ url: `${srv.url}/ws`, token: () => `t${++n}` });
    await connected(client);
    expect(srv.connectionUrls[0]).toBe('/ws?token=t1');
  });

  it('goes disconnected → connecting → connected and supports unsubscribing listeners', async () => {
    const { client } = makeClient();
    expect(client.state).toBe('disconnected');
    const states = recordStates(client);
    const other = vi.fn();
    const off = client.onStateChange(other);
    off();
    await connected(client);
    expect(states).toEqual(['connecting', 'connected']);
    expect(other).not.toHaveBeenCalled();
    client.close();
    expect(client.state).toBe('disconnected');
    expect(states).toEqual(['connecting', 'connected', 'disconnected']);
  });
});

describe('requests', () => {
  it('round-trips req_id and resolves with data', async () => {
    const { client } = makeClient();
    await connected(client);
    const data = await client.request<Msg>('echo', { symbol: 'cu2501', price: 72350 });
    expect(data).toMatchObject({ aid: 'echo', symbol: 'cu2501', price: 72350 });
    expect(typeof data.req_id).toBe('string');
    const second = await client.request<Msg>('echo', {});
    expect(second.req_id).not.toBe(data.req_id);
  });

  it('matches out-of-order replies by req_id', async () => {
    const held: Array<() => void> = [];
    srv.handlers.slow_echo = (msg, _c, sock) => {
      held.push(() => sock.send(JSON.stringify({ req_id: msg.req_id, data: msg.n })));
      if (held.length === 2) {
        held[1]?.();
        held[0]?.();
      }
      return undefined;
    };
    const { client } = makeClient();
    await connected(client);
    const [a, b] = await Promise.all([client.request('slow_echo', { n: 1 }), client.request('slow_echo', { n: 2 })]);
    expect([a, b]).toEqual([1, 2]);
  });

  it('falls back to result when there is no data field', async () => {
    srv.handlers.legacy = () => ({ result: { ok: 1 } });
    const { client } = makeClient();
    await connected(client);
    await expect(client.request('legacy')).resolves.toEqual({ ok: 1 });
  });

  it('rejects with the server error text (string or {message}) or 请求失败', async () => {
    srv.handlers.err_string = () => ({ error: '合约不存在' });
    srv.handlers.err_object = () => ({ error: { code: 'E1', message: '无权限操作' } });
    srv.handlers.err_bare = () => ({ result: 'error' });
    const { client } = makeClient();
    await connected(client);
    await expect(client.request('err_string')).rejects.toThrow('合约不存在');
    const e = (await client.request('err_object').catch((x: unknown) => x)) as WsError;
    expect(isWsError(e)).toBe(true);
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('无权限操作');
    expect(e.code).toBe('E1');
    expect(e.reason).toBe('server');
    await expect(client.request('err_bare')).rejects.toThrow('请求失败');
  });

  it('rejects when not connected', async () => {
    const { client } = makeClient();
    await expect(client.request('echo')).rejects.toThrowError(new Error('WebSocket is not connected.'));
    await expect(client.startTask('x')).rejects.toThrow('WebSocket is not connected.');
  });

  it('rejects on timeout', async () => {
    srv.handlers.never = () => undefined;
    const { client } = makeClient({ requestTimeoutMs: 50 });
    await connected(client);
    const e = (await client.request('never').catch((x: unknown) => x)) as WsError;
    expect(e.reason).toBe('timeout');
    expect(e.message).toMatch(/请求超时/);
  });

  it('rejects pending requests with 请求失败 when the server closes the socket', async () => {
    srv.handlers.never = (_m, _c, sock) => {
      setTimeout(() => sock.close(), 20);
      return undefined;
    };
    const { client } = makeClient({ reconnectBaseMs: 10_000 });
    await connected(client);
    const e = (await client.request('never').catch((x: unknown) => x)) as WsError;
    expect(e.message).toBe('请求失败');
    expect(e.reason).toBe('closed');
  });

  it('rejects pending requests on explicit close', async () => {
    srv.handlers.never = () => undefined;
    const { client } = makeClient();
    await connected(client);
    const p = client.request('never');
    await vi.waitFor(() => expect(srv.ofAid('never')).toHaveLength(1), wait);
    client.close();
    await expect(p).rejects.toThrow('请求失败');
  });
});

describe('tasks', () => {
  it('startTask sends task_name/params and returns task_id', async () => {
    srv.handlers.start_task = () => ({ data: { task_id: 'task-42' } });
    const { client } = makeClient();
    await connected(client);
    await expect(client.startTask('calc_vol', { product: 'cu' })).resolves.toBe('task-42');
    expect(srv.ofAid('start_task')[0]).toMatchObject({ task_name: 'calc_vol', params: { product: 'cu' } });
  });

  it('startTask rejects when task_id is missing', async () => {
    srv.handlers.start_task = () => ({ data: { status: 'ok' } });
    const { client } = makeClient();
    await connected(client);
    await expect(client.startTask('calc_vol')).rejects.toThrowError(new Error('startTask 响应中缺少 "task_id"'));
    srv.handlers.start_task = () => ({ data: { task_id: 123 } });
    await expect(client.startTask('calc_vol')).rejects.toThrow('startTask 响应中缺少 "task_id"');
  });

  it('interveneTask wraps task_id / intervention / params under params', async () => {
    srv.handlers.intervene_task = () => ({ data: { accepted: true } });
    const { client } = makeClient();
    await connected(client);
    await expect(client.interveneTask('task-42', 'pause', { reason: '人工干预' })).resolves.toEqual({ accepted: true });
    await client.interveneTask('task-42', 'resume');
    const [first, second] = srv.ofAid('intervene_task');
    expect(first?.params).toEqual({ task_id: 'task-42', intervention: 'pause', params: { reason: '人工干预' } });
    expect(second?.params).toEqual({ task_id: 'task-42', intervention: 'resume' });
  });
});

describe('views', () => {
  it('subscribeView resolves with initial data and sends view_id/view_name/params', async () => {
    const { client } = makeClient();
    await connected(client);
    const initial = await client.subscribeView('v1', 'quotes', { product: 'cu' }, () => {});
    expect(initial).toEqual({ view_id: 'v1', rows: [{ conn: 0 }] });
    expect(srv.ofAid('subscribe_view')[0]).toMatchObject({ view_id: 'v1', view_name: 'quotes', product: 'cu' });
    expect(client.hasView('v1')).toBe(true);
  });

  it('peek delivers each entry to the right view callback and is re-issued', async () => {
    const { client } = makeClient();
    await connected(client);
    const cb1 = vi.fn();
    const cb2 = vi.fn();
    await client.subscribeView('v1', 'quotes', {}, cb1);
    await client.subscribeView('v2', 'fixings', {}, cb2);
    srv.pushes.push({ v1: { price: 1 }, unknown_view: { x: 1 } });
    srv.pushes.push({ v2: { price: 2 } });
    await vi.waitFor(() => {
      expect(cb1).toHaveBeenCalledWith({ price: 1 });
      expect(cb2).toHaveBeenCalledWith({ price: 2 });
    }, wait);
    expect(cb1).toHaveBeenCalledTimes(1);
    expect(cb2).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(srv.ofAid('peek_message').length).toBeGreaterThanOrEqual(4), wait);
    expect(srv.ofAid('peek_message')[0]).toEqual({ aid: 'peek_message', req_id: expect.any(String) });
  });

  // The peek tests count against the time that passed, not a fixed window: a loaded machine (or a long GC pause in
  // the worker) can hold the event loop for most of a 300 ms sleep, and a timer never catches up what it missed. So
  // each waits for its least count, then bounds the count by the intervals that really elapsed — a client peeking on
  // every answer instead would send hundreds.
  const peeksSince = (start: number, every: number) => 1 + Math.floor((Date.now() - start) / every);

  it('keeps only one peek outstanding (long-poll server)', async () => {
    srv.peekHoldMs = 40;
    const { client } = makeClient({ peekDelayMs: 0, requestTimeoutMs: 10 });
    await connected(client);
    await vi.waitFor(() => expect(srv.ofAid('peek_message').length).toBeGreaterThanOrEqual(3), wait);
    expect(srv.maxPeekOutstanding).toBe(1);
  });

  it('waits peekDelayMs between peeks', async () => {
    const start = Date.now();
    const { client } = makeClient({ peekDelayMs: 100 });
    await connected(client);
    await vi.waitFor(() => expect(srv.ofAid('peek_message').length).toBeGreaterThanOrEqual(2), wait);
    await sleep(150);
    expect(srv.ofAid('peek_message').length).toBeLessThanOrEqual(peeksSince(start, 100));
  });

  it('peekIntervalMs peeks on a fixed interval instead', async () => {
    const start = Date.now();
    const { client } = makeClient({ peekDelayMs: 0, peekIntervalMs: 80 });
    await connected(client);
    await vi.waitFor(() => expect(srv.ofAid('peek_message').length).toBeGreaterThanOrEqual(3), wait);
    await sleep(150);
    expect(srv.ofAid('peek_message').length).toBeLessThanOrEqual(peeksSince(start, 80));
  });

  it('queues subscriptions while disconnected and sends them on open', async () => {
    const { client } = makeClient();
    const cb = vi.fn();
    const p = client.subscribeView('v1', 'quotes', { product: 'al' }, cb);
    expect(client.hasView('v1')).toBe(true);
    await sleep(20);
    expect(srv.received).toHaveLength(0);
    client.connect();
    await expect(p).resolves.toEqual({ view_id: 'v1', rows: [{ conn: 0 }] });
    expect(srv.received[0]?.msg).toMatchObject({ aid: 'subscribe_view', view_id: 'v1', product: 'al' });
    srv.pushes.push({ v1: 'tick' });
    await vi.waitFor(() => expect(cb).toHaveBeenCalledWith('tick'), wait);
  });

  it('warns about and ignores a duplicate view id', async () => {
    const { client, logger } = makeClient();
    await connected(client);
    await client.subscribeView('v1', 'quotes', {}, () => {});
    await expect(client.subscribeView('v1', 'quotes', {}, () => {})).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0]?.[0])).toContain('v1');
    expect(srv.ofAid('subscribe_view')).toHaveLength(1);
  });

  it('removes a failed subscription and rejects with the server text or 视图订阅失败', async () => {
    srv.handlers.subscribe_view = (msg) =>
      msg.view_name === 'bad'
        ? { error: { message: '视图不存在' } }
        : msg.view_name === 'bare'
          ? { result: 'error' }
          : { data: 'ok' };
    const { client, logger } = makeClient();
    await connected(client);
    await expect(client.subscribeView('v1', 'bad', {}, () => {})).rejects.toThrow('视图不存在');
    expect(client.hasView('v1')).toBe(false);
    await expect(client.subscribeView('v2', 'bare', {}, () => {})).rejects.toThrowError(new Error('视图订阅失败'));
    expect(client.hasView('v2')).toBe(false);
    // 同一个 id 可以重新订阅（没有重复告警）
    await expect(client.subscribeView('v1', 'good', {}, () => {})).resolves.toBe('ok');
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('unsubscribeView sends unsubscribe_view and stops delivery', async () => {
    const { client } = makeClient();
    await connected(client);
    const cb = vi.fn();
    await client.subscribeView('v1', 'quotes', {}, cb);
    await client.unsubscribeView('v1');
    expect(srv.ofAid('unsubscribe_view')[0]).toMatchObject({ view_id: 'v1' });
    expect(client.hasView('v1')).toBe(false);
    srv.pushes.push({ v1: 'late' });
    await vi.waitFor(() => expect(srv.pushes).toHaveLength(0), wait);
    await sleep(30);
    expect(cb).not.toHaveBeenCalled();
    // 取消不存在的视图不报错
    await expect(client.unsubscribeView('nope')).resolves.toBeUndefined();
  });

  it('unsubscribing a queued view cancels it without sending anything', async () => {
    const { client } = makeClient();
    const p = client.subscribeView('v1', 'quotes', {}, () => {});
    await client.unsubscribeView('v1');
    await expect(p).rejects.toThrow('视图订阅已取消');
    await connected(client);
    await sleep(30);
    expect(srv.ofAid('subscribe_view')).toHaveLength(0);
  });

  it('a callback that throws does not break the peek loop', async () => {
    const { client, logger } = makeClient();
    await connected(client);
    const good = vi.fn();
    await client.subscribeView('bad', 'x', {}, () => {
      throw new Error('boom');
    });
    await client.subscribeView('good', 'y', {}, good);
    srv.pushes.push({ bad: 1, good: 1 }, { good: 2 });
    await vi.waitFor(() => expect(good).toHaveBeenCalledWith(2), wait);
    expect(logger.error).toHaveBeenCalled();
  });
});

describe('reconnect', () => {
  it('reconnects after the server closes and re-subscribes active views', async () => {
    const { client } = makeClient({ reconnectBaseMs: 20 });
    const states = recordStates(client);
    await connected(client);
    const cb1 = vi.fn();
    await client.subscribeView('v1', 'quotes', { product: 'cu' }, cb1);
    await client.subscribeView('v2', 'fixings', {}, () => {});
    srv.connections[0]?.close();
    await vi.waitFor(() => expect(srv.ofAid('subscribe_view', 1)).toHaveLength(2), wait);
    await vi.waitFor(() => expect(client.state).toBe('connected'), wait);
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'reconnecting', 'connecting', 'connected']);
    expect(srv.ofAid('subscribe_view', 1).map((m) => [m.view_id, m.view_name])).toEqual([
      ['v1', 'quotes'],
      ['v2', 'fixings'],
    ]);
    expect(srv.ofAid('subscribe_view', 1)[0]).toMatchObject({ product: 'cu' });
    // 重新订阅得到的数据推给回调
    await vi.waitFor(() => expect(cb1).toHaveBeenCalledWith({ view_id: 'v1', rows: [{ conn: 1 }] }), wait);
    // 新连接上 peek 正常
    srv.pushes.push({ v1: 'after-reconnect' });
    await vi.waitFor(() => expect(cb1).toHaveBeenCalledWith('after-reconnect'), wait);
  });

  it('retries a subscription that was in flight when the connection dropped', async () => {
    srv.handlers.subscribe_view = (msg, conn, sock) => {
      if (conn === 0) {
        sock.close();
        return undefined;
      }
      return { data: `initial@${conn}:${String(msg.view_id)}` };
    };
    const { client } = makeClient({ reconnectBaseMs: 10 });
    await connected(client);
    await expect(client.subscribeView('v1', 'quotes', {}, () => {})).resolves.toBe('initial@1:v1');
    expect(client.hasView('v1')).toBe(true);
  });

  it('resets the attempt counter after a successful open', async () => {
    const { client } = makeClient({ reconnectBaseMs: 10, maxReconnectAttempts: 1 });
    await connected(client);
    for (let i = 0; i < 3; i++) {
      srv.connections[i]?.close();
      await vi.waitFor(() => expect(srv.connections).toHaveLength(i + 2), wait);
      await vi.waitFor(() => expect(client.state).toBe('connected'), wait);
    }
  });

  it('explicit close stops reconnecting', async () => {
    const { client } = makeClient({ reconnectBaseMs: 10 });
    const states = recordStates(client);
    await connected(client);
    await client.subscribeView('v1', 'quotes', {}, () => {});
    client.close();
    await sleep(150);
    expect(srv.connections).toHaveLength(1);
    expect(client.state).toBe('disconnected');
    expect(states).not.toContain('reconnecting');
  });

  it('close() while waiting to reconnect cancels the pending reconnect', async () => {
    const { client } = makeClient({ reconnectBaseMs: 60 });
    await connected(client);
    srv.connections[0]?.close();
    await vi.waitFor(() => expect(client.state).toBe('reconnecting'), wait);
    client.close();
    await sleep(200);
    expect(srv.connections).toHaveLength(1);
    expect(client.state).toBe('disconnected');
  });

  it('gives up after maxReconnectAttempts and rejects queued subscriptions', async () => {
    const port = await freePort();
    let constructed = 0;
    class CountingWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        constructed++;
      }
    }
    const { client, logger } = makeClient({
      url: `ws://127.0.0.1:${port}`,
      WebSocketImpl: CountingWebSocket,
      reconnectBaseMs: 5,
      maxReconnectAttempts: 3,
    });
    const states = recordStates(client);
    const queued = client.subscribeView('v1', 'quotes', {}, () => {});
    client.connect();
    await expect(queued).rejects.toThrow('视图订阅失败');
    expect(client.state).toBe('disconnected');
    expect(constructed).toBe(4); // 首次连接 + 3 次重连
    expect(states.filter((s) => s === 'reconnecting')).toHaveLength(3);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('最大重试次数 3'));
    await sleep(100);
    expect(constructed).toBe(4);
  });

  it('uses exponential backoff between attempts', async () => {
    const port = await freePort();
    const stamps: number[] = [];
    class StampWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        stamps.push(Date.now());
      }
    }
    const { client } = makeClient({
      url: `ws://127.0.0.1:${port}`,
      WebSocketImpl: StampWebSocket,
      reconnectBaseMs: 20,
      maxReconnectAttempts: 3,
    });
    client.connect();
    await vi.waitFor(() => expect(stamps).toHaveLength(4), wait);
    const gaps = stamps.slice(1).map((t, i) => t - (stamps[i] ?? 0));
    // 20, 40, 80 ms（加上连接被拒的时间）
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
  });
});
