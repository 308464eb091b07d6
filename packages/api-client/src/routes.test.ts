import type { marketRoutes, OrderRow, pricerRoutes } from '@pfp/contract';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, UnexpectedAnswerError, createHttpClient, routeCaller, type RouteRefs } from './index';

type Market = typeof marketRoutes;
type Pricer = typeof pricerRoutes;

const MARKET: RouteRefs<Market> = {
  exchangeList: { method: 'GET', path: '/api/rpc/exchange_list' },
  productList: { method: 'GET', path: '/api/rpc/product_list' },
  futureList: { method: 'GET', path: '/api/rpc/future_list' },
  volatilitySmile: { method: 'GET', path: '/api/rpc/volatility_smile' },
};

let server: Server;
let baseUrl = '';
const seen: Array<{ method: string; url: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/rpc/product_list') return send(200, { result: 'ok', data: ['cu', 'al'] });
      if (path === '/api/rpc/exchange_list') return send(200, { exchanges: ['SHFE'] });
      if (path === '/api/pricer/view/my-orders')
        return send(200, { result: 'ok', data: { items: [{ id: 3, status: 'ALIVE' }], total_count: 1 } });
      if (path === '/api/pricer/rpc/get-tenant-info') {
        const { tenant_id } = JSON.parse(body) as { tenant_id: number };
        if (tenant_id === 404)
          return send(404, { result: 'error', error: { code: 'not_found', message: '公司不存在' } });
        return send(200, { result: 'ok', data: { tenant_id, company_name: '演示贸易' } });
      }
      send(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('routeCaller', () => {
  it('holds each path and method to the contract (a typecheck failure otherwise)', () => {
    const wrongPath: RouteRefs<Pick<Market, 'exchangeList'>> = {
      // @ts-expect-error the contract has no such path
      exchangeList: { method: 'GET', path: '/api/rpc/exchanges' },
    };
    const wrongMethod: RouteRefs<Pick<Market, 'exchangeList'>> = {
      // @ts-expect-error the contract's exchange_list is a GET
      exchangeList: { method: 'POST', path: '/api/rpc/exchange_list' },
    };
    expect([wrongPath, wrongMethod]).toHaveLength(2);
  });

  it('sends a GET route’s input as the query string and answers the envelope’s data', async () => {
    const call = routeCaller<Market>(createHttpClient({ baseUrl }), MARKET);
    const products: string[] = await call('productList', { exchange_id: 'SHFE', options: '1' });
    expect(products).toEqual(['cu', 'al']);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/rpc/product_list?exchange_id=SHFE&options=1' });
  });

  it('sends a POST route’s input as the JSON body', async () => {
    const call = routeCaller<Pick<Pricer, 'tenantInfo'>>(createHttpClient({ baseUrl }), {
      tenantInfo: { method: 'POST', path: '/api/pricer/rpc/get-tenant-info' },
    });
    await expect(call('tenantInfo', { tenant_id: 7 })).resolves.toEqual({ tenant_id: 7, company_name: '演示贸易' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"tenant_id":7}' });
  });

  it('refuses an answer that is not { result: "ok", data }', async () => {
    const call = routeCaller<Market>(createHttpClient({ baseUrl }), MARKET);
    const err = await call('exchangeList', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toBe('响应格式错误（GET /api/rpc/exchange_list）');
  });

  it('keeps the HTTP error with the server’s Chinese message', async () => {
    const http = createHttpClient({ baseUrl });
    const err = await http
      .call<Pricer['tenantInfo']>({ method: 'POST', path: '/api/pricer/rpc/get-tenant-info' }, { tenant_id: 404 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(404);
    expect((err as HttpError).serverMessage).toBe('公司不存在');
  });

  it('types a view route’s page by the contract’s row schema; only view routes have pages', async () => {
    const call = routeCaller<Pick<Pricer, 'myOrders' | 'snapshot'>>(createHttpClient({ baseUrl }), {
      myOrders: { method: 'POST', path: '/api/pricer/view/my-orders' },
      snapshot: { method: 'POST', path: '/api/pricer/view/my-data-snapshot' },
    });
    const page = await call.page('myOrders', { slice_start: 0, slice_end: 20 });
    const rows: OrderRow[] = page.items;
    expect(rows.map((r) => r.id)).toEqual([3]);
    expect(page.total_count).toBe(1);
    // @ts-expect-error the snapshot is no view: it has no row schema, so no page
    const notAView = () => call.page('snapshot', undefined);
    expect(notAView).toBeTypeOf('function');
    // A grouped call is a plain call: its rows are records.
    const grouped: Record<string, unknown>[] = (await call('myOrders', { group_by_fields: ['status'] })).items;
    expect(grouped).toHaveLength(1);
  });
});
