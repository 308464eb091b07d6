import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthError, HttpError, buildDbViewBody, createHttpClient, isAuthError, joinUrl, readItems } from './index';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl = '';
let recorded: Recorded[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = req.url ?? '/';
      recorded.push({ method: req.method ?? '', url, headers: req.headers, body });
      const path = url.split('?')[0];
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      switch (path) {
        case '/api/echo':
          return json(200, { ok: true, method: req.method, body: body ? JSON.parse(body) : null });
        case '/api/items':
          return json(200, { result: 'ok', data: { items: [{ id: 1 }, { id: 2 }], total_count: 42 } });
        case '/api/fail':
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          return res.end('boom');
        case '/api/server-error':
          return json(400, {
            result: 'error',
            error: { code: 'INVALID_PRICE', message: '报价超出涨跌停范围' },
          });
        case '/api/unauthorized':
          res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' });
          return res.end('令牌已过期');
        case '/api/unauthorized-empty':
          res.writeHead(401);
          return res.end();
        case '/api/empty':
          res.writeHead(204);
          return res.end();
        default:
          res.writeHead(404);
          return res.end('not found');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  recorded = [];
});

function last(): Recorded {
  const r = recorded.at(-1);
  if (!r) throw new Error('no request recorded');
  return r;
}

describe('createHttpClient — headers & url', () => {
  it('sends JSON content type and bearer token from getToken (sync)', async () => {
    const client = createHttpClient({ baseUrl, getToken: () => 'abc123' });
    await client.request('/api/echo');
    const r = last();
    expect(r.method).toBe('GET');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.authorization).toBe('Bearer abc123');
  });

  it('supports async getToken', async () => {
    const client = createHttpClient({ baseUrl, getToken: async () => 'async-token' });
    await client.request('/api/echo');
    expect(last().headers.authorization).toBe('Bearer async-token');
  });

  it('sends "Bearer " when there is no token (dev mode)', async () => {
    const client = createHttpClient({ baseUrl, getToken: () => null });
    await client.request('/api/echo');
    // node:http 会修剪尾部空格，服务端看到的是 "Bearer"
    expect(last().headers.authorization?.trim()).toBe('Bearer');

    const fetchSpy = vi.fn<typeof fetch>((input, init) => fetch(input, init));
    const noGetter = createHttpClient({ baseUrl, fetch: fetchSpy });
    await noGetter.request('/api/echo');
    const init = fetchSpy.mock.calls[0]?.[1];
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer ');
  });

  it('joins baseUrl and path without double slashes', async () => {
    const client = createHttpClient({ baseUrl: baseUrl + '/' });
    await client.request('/api/echo');
    expect(last().url).toBe('/api/echo');
    await client.request('api/echo');
    expect(last().url).toBe('/api/echo');
    expect(joinUrl('', '/api/x')).toBe('/api/x');
    expect(joinUrl('', 'api/x')).toBe('/api/x');
    expect(joinUrl('http://h/base//', '//api/x')).toBe('http://h/base/api/x');
  });
});

describe('rpc / view', () => {
  it('rpc GET sends params as query string, skipping undefined/null', async () => {
    const client = createHttpClient({ baseUrl });
    await client.rpc(
      '/api/echo',
      { symbol: 'cu2501', exchange: '上期所', limit: 10, skip: undefined, nothing: null, flag: false },
      'GET',
    );
    const r = last();
    expect(r.method).toBe('GET');
    expect(r.body).toBe('');
    const url = new URL(r.url, baseUrl);
    expect(url.pathname).toBe('/api/echo');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      symbol: 'cu2501',
      exchange: '上期所',
      limit: '10',
      flag: 'false',
    });
  });

  it('rpc defaults to POST with a JSON body and returns parsed JSON', async () => {
    const client = createHttpClient({ baseUrl });
    const resp = await client.rpc<{ ok: boolean; method: string; body: unknown }>('/api/echo', {
      price: 72350.5,
      note: '定价',
    });
    expect(resp).toEqual({ ok: true, method: 'POST', body: { price: 72350.5, note: '定价' } });
    expect(last().url).toBe('/api/echo');
  });

  it('rpc with other methods sends a JSON body', async () => {
    const client = createHttpClient({ baseUrl });
    await client.rpc('/api/echo', { id: 7 }, 'PUT');
    expect(last().method).toBe('PUT');
    expect(JSON.parse(last().body)).toEqual({ id: 7 });
  });

  it('view POSTs the params as body', async () => {
    const client = createHttpClient({ baseUrl });
    await client.view('/api/echo', { view: 'quotes', product: 'cu' });
    expect(last().method).toBe('POST');
    expect(JSON.parse(last().body)).toEqual({ view: 'quotes', product: 'cu' });
    await client.view('/api/echo');
    expect(JSON.parse(last().body)).toEqual({});
  });

  it('request returns undefined for empty 2xx bodies', async () => {
    const client = createHttpClient({ baseUrl });
    await expect(client.request('/api/empty', { method: 'DELETE' })).resolves.toBeUndefined();
  });
});

describe('dbView', () => {
  it('computes slices and maps fields to the server body', async () => {
    const client = createHttpClient({ baseUrl });
    await client.dbView('/api/echo', {
      page: 3,
      pageSize: 25,
      filter: "product = 'cu'",
      sortFields: [{ field: 'price', ascending: false }, { field: 'time' }, 'id'],
      groupByFields: ['exchange'],
      aggregateFields: [{ field: 'volume', op: 'sum' }],
      view_name: 'fixings',
    });
    expect(JSON.parse(last().body)).toEqual({
      view_name: 'fixings',
      filter: "product = 'cu'",
      sort_fields: [
        { field: 'price', ascending: false },
        { field: 'time', ascending: true },
        { field: 'id', ascending: true },
      ],
      slice_start: 50,
      slice_end: 75,
      group_by_fields: ['exchange'],
      aggregate_fields: [{ field: 'volume', op: 'sum' }],
    });
  });

  it('defaults to page 1, pageSize 20', () => {
    expect(buildDbViewBody({})).toEqual({ slice_start: 0, slice_end: 20 });
  });

  it('pageSize 0 means all (no slices)', async () => {
    const client = createHttpClient({ baseUrl });
    await client.dbView('/api/echo', { page: 5, pageSize: 0, filter: null });
    const body = JSON.parse(last().body) as Record<string, unknown>;
    expect(body).not.toHaveProperty('slice_start');
    expect(body).not.toHaveProperty('slice_end');
    expect(body.filter).toBeNull();
  });

  it('rejects invalid page / pageSize with a Chinese RangeError (no request sent)', async () => {
    const client = createHttpClient({ baseUrl });
    for (const bad of [
      { page: 0 },
      { page: -1 },
      { page: 1.5 },
      { pageSize: -5 },
      { pageSize: 2.5 },
      { page: Number.NaN },
    ]) {
      const p = client.dbView('/api/echo', bad);
      await expect(p).rejects.toBeInstanceOf(RangeError);
      await expect(p).rejects.toThrow(/必须是大于等于 1 的整数/);
    }
    expect(recorded).toHaveLength(0);
  });

  it('readItems extracts items and total_count', async () => {
    const client = createHttpClient({ baseUrl });
    const resp = await client.dbView('/api/items', { page: 1, pageSize: 2 });
    expect(readItems<{ id: number }>(resp)).toEqual({ items: [{ id: 1 }, { id: 2 }], total_count: 42 });
    expect(readItems(undefined)).toEqual({ items: [], total_count: 0 });
    expect(readItems({ data: { items: [1, 2, 3] } })).toEqual({ items: [1, 2, 3], total_count: 3 });
  });
});

describe('errors', () => {
  it('non-OK responses throw HttpError with status/body and exact message', async () => {
    const client = createHttpClient({ baseUrl });
    const err = await client.request('/api/fail').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).not.toBeInstanceOf(AuthError);
    const e = err as HttpError;
    expect(e.status).toBe(500);
    expect(e.body).toBe('boom');
    expect(e.message).toBe('HTTP error! status: 500, body: boom');
    expect(e.serverMessage).toBeUndefined();
  });

  it('exposes serverMessage / serverCode from JSON error bodies', async () => {
    const client = createHttpClient({ baseUrl });
    const e = (await client.rpc('/api/server-error', {}).catch((x: unknown) => x)) as HttpError;
    expect(e).toBeInstanceOf(HttpError);
    expect(e.status).toBe(400);
    expect(e.serverMessage).toBe('报价超出涨跌停范围');
    expect(e.serverCode).toBe('INVALID_PRICE');
    expect(e.message).toBe(`HTTP error! status: 400, body: ${e.body}`);
    expect(JSON.parse(e.body)).toMatchObject({ result: 'error' });
  });

  it('401 throws AuthError with body text and calls onAuthError first', async () => {
    const onAuthError = vi.fn();
    const client = createHttpClient({ baseUrl, getToken: () => 'expired', onAuthError });
    const err = await client.request('/api/unauthorized').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toBeInstanceOf(HttpError);
    const e = err as AuthError;
    expect(e.isAuthError).toBe(true);
    expect(isAuthError(e)).toBe(true);
    expect(e.status).toBe(401);
    expect(e.message).toBe('认证失败: 令牌已过期');
    expect(onAuthError).toHaveBeenCalledTimes(1);
    expect(onAuthError).toHaveBeenCalledWith(e);
  });

  it('401 without body uses the default text', async () => {
    const onAuthError = vi.fn();
    const client = createHttpClient({ baseUrl, onAuthError });
    const e = (await client.request('/api/unauthorized-empty').catch((x: unknown) => x)) as AuthError;
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('认证失败: 未授权访问');
    expect(e.body).toBe('');
    expect(onAuthError).toHaveBeenCalledWith(e);
  });

  it('passes the abort signal to fetch', async () => {
    const client = createHttpClient({ baseUrl });
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(client.request('/api/echo', { signal: ctrl.signal })).rejects.toThrow();
  });
});
