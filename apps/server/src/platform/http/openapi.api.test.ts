import { appRoutes, marketRoutes, pricerRoutes, traderRoutes } from '@pfp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { OPENAPI_PATH } from './openapi';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('OpenAPI document', () => {
  it('is served without a token and lists every call of the contract', async () => {
    const res = await h.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const r of [traderRoutes, pricerRoutes, marketRoutes, appRoutes].flatMap((g) => Object.values(g))) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.responses['200']).toBeDefined();
    }
    expect(doc.paths[OPENAPI_PATH]).toBeUndefined();
  });

  it('describes the same rules the server checks (strict ids, enums)', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: OPENAPI_PATH })).json();
    const cancel = doc.paths['/api/pricer/rpc/cancel-order'].post.requestBody.content['application/json'].schema;
    expect(cancel.required).toEqual(['order_id']);
    expect(cancel.properties.order_id).toMatchObject({ type: 'integer', minimum: 1, maximum: 2147483647 });
    const status =
      doc.paths['/api/trader/rpc/update-contract-status'].post.requestBody.content['application/json'].schema.properties
        .new_status;
    expect(status.enum).toEqual(['active', 'paused', 'expired', 'completed']);
    const query = doc.paths['/api/rpc/future_list'].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(query).toEqual(expect.arrayContaining(['query:exchange_id', 'query:product_id']));
  });
});
