import { expect } from 'vitest';
import type { Harness } from './harness';

/** A trading company set up through the API: its trader's token, its customers' tokens, a copper future. */
export interface Tenant {
  token: string;
  tenantId: number;
  symbol: string;
  pricers: Record<string, { id: number; jwt: string }>;
}

/**
 * A simulated-account company for trader `sub`, with the named customers signed in (password pw123).
 * A new company starts with a 10 % margin default (issue 41); the suites written for trading without
 * margin set it to 0 here (quietly, no audit row) unless `opts.marginDefault` keeps the company's own.
 */
export async function setupTenant(
  h: Harness,
  sub: string,
  company: string,
  pricerNames: string[],
  opts: { marginDefault?: 'new-company' } = {},
): Promise<Tenant> {
  const token = await h.idp.sign({}, { sub });
  const saved = await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: company, tq_account_config: { is_sim: true } },
    token,
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const tenantId = (await h.call('/api/trader/view/my-self', {}, token)).body.data.tenant_id as number;
  if (opts.marginDefault !== 'new-company') {
    await h.db.updateTable('tenants').set({ default_margin_rate: 0 }).where('id', '=', tenantId).execute();
  }
  const pricers: Tenant['pricers'] = {};
  for (const username of pricerNames) {
    const u = (await h.call('/api/trader/rpc/create-pricer-user', { username, password: 'pw123' }, token)).body.data;
    const login = await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenantId, username, password: 'pw123' });
    pricers[username] = { id: u.id, jwt: login.body.data.jwt_token };
  }
  const instruments = await h.call('/api/trader/view/instruments', { product_name: '铜' }, token);
  return { token, tenantId, symbol: instruments.body.data.items[1].symbol, pricers };
}

/**
 * A contract of `pricer` created through the trader API: 20 lots of the tenant's copper future bought at
 * basis +150 until `fixing_deadline`, with `extra` over those terms. Answers the contract as the API gave it.
 */
export async function createContract<T = { id: number }>(
  h: Harness,
  t: Tenant,
  pricer: string,
  fixingDeadline: string,
  extra: Record<string, unknown> = {},
): Promise<T> {
  const res = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: t.pricers[pricer]!.id,
      product_name: '铜',
      instrument_id: t.symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 150,
      fixing_deadline: fixingDeadline,
      ...extra,
    },
    t.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as T;
}
