import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';

/** Sessions that end when they should (issue 14 §5). */
let h: Harness;
let trader: string;
let tenantId: number;

beforeAll(async () => {
  h = await startHarness();
  trader = await h.idp.sign({}, { sub: 'trader-sessions' });
  await h.call(
    '/api/trader/rpc/trader-profile',
    { company_name: '辛公司', tq_account_config: { is_sim: true } },
    trader,
  );
  tenantId = (await h.call('/api/trader/view/my-self', {}, trader)).body.data.tenant_id;
});
afterAll(() => h.close());

async function customer(username: string) {
  const user = (await h.call('/api/trader/rpc/create-pricer-user', { username, password: 'pw-1' }, trader)).body.data;
  const login = await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenantId, username, password: 'pw-1' });
  return { id: user.id as number, token: login.body.data.jwt_token as string };
}
const snapshot = (token: string) => h.call('/api/pricer/view/my-data-snapshot', {}, token);

describe('customer tokens', () => {
  it('stop working at once when the trader resets the password', async () => {
    const c = await customer('hana');
    expect((await snapshot(c.token)).status).toBe(200);
    const reset = await h.call(
      '/api/trader/rpc/reset-pricer-password',
      { user_id: c.id, new_password: 'pw-2' },
      trader,
    );
    expect(reset.status).toBe(200);
    const after = await snapshot(c.token);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('登录已过期，请重新登录');
    // The new password gives a token that works.
    const fresh = await h.call('/api/pricer/rpc/pricer-login', {
      tenant_id: tenantId,
      username: 'hana',
      password: 'pw-2',
    });
    expect((await snapshot(fresh.body.data.jwt_token)).status).toBe(200);
  });

  it('stop working at once when the customer is set inactive', async () => {
    const c = await customer('ivan');
    expect((await snapshot(c.token)).status).toBe(200);
    await h.db.updateTable('pricer_users').set({ status: 'inactive' }).where('id', '=', c.id).execute();
    expect((await snapshot(c.token)).status).toBe(401);
    expect((await h.call('/api/pricer/rpc/submit-order', { contract_id: 1, quantity: 1 }, c.token)).status).toBe(401);
  });

  it('stop working when the customer is deleted', async () => {
    const c = await customer('jack');
    // Its 点价协议 acceptance first (a legal record the schema keeps while the customer exists, docs/agreement.md).
    await h.db.deleteFrom('agreement_acceptances').where('pricer_id', '=', c.id).execute();
    // And its 授权点价人 (the first login is one, docs/authorised-pricers.md): kept while the customer exists.
    await h.db.deleteFrom('authorised_pricers').where('pricer_id', '=', c.id).execute();
    await h.db.deleteFrom('pricer_users').where('id', '=', c.id).execute();
    expect((await snapshot(c.token)).status).toBe(401);
  });
});

describe('trader API', () => {
  it('accepts access tokens only: an ID token of the same issuer and audience is a 401', async () => {
    expect((await h.call('/api/trader/view/my-self', {}, trader)).status).toBe(200);
    const idToken = await h.idp.sign({ nonce: 'n' }, { sub: 'trader-sessions', typ: 'JWT' });
    const res = await h.call('/api/trader/view/my-self', {}, idToken);
    expect(res.status).toBe(401);
    // Keycloak's shape: typ JWT in the header, the kind in the payload's typ claim.
    const kcAccess = await h.idp.sign({ typ: 'Bearer' }, { sub: 'trader-sessions', typ: 'JWT' });
    expect((await h.call('/api/trader/view/my-self', {}, kcAccess)).status).toBe(200);
    const kcId = await h.idp.sign({ typ: 'ID' }, { sub: 'trader-sessions', typ: 'JWT' });
    expect((await h.call('/api/trader/view/my-self', {}, kcId)).status).toBe(401);
  });
});
