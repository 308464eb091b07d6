import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { tradingDayIn } from '../../test/days';

/** A fixing deadline a month away. */
const DEADLINE = tradingDayIn(30);

let h: Harness;
let token: string;
let otherToken: string;

beforeAll(async () => {
  h = await startHarness();
  token = await h.idp.sign({ name: '张三', email: 'zs@example.com' }, { sub: 'trader-a' });
  otherToken = await h.idp.sign({}, { sub: 'trader-b' });
});
afterAll(() => h.close());

const profile = (company = '甲贸易公司', extra: Record<string, unknown> = {}) => ({
  company_name: company,
  tq_account_config: { is_sim: true, ...extra },
});

async function firstInstrument() {
  const products = await h.call('/api/trader/view/products', {}, token);
  const product = products.body.data.items.find((p: { name: string }) => p.name === '铜');
  const instruments = await h.call('/api/trader/view/instruments', { product_name: product.name }, token);
  return { product: product.name as string, symbol: instruments.body.data.items[0].symbol as string };
}

describe('trader tokens', () => {
  it('rejects a missing, malformed, expired, foreign or wrong-audience token with 401', async () => {
    expect((await h.call('/api/trader/view/my-self')).status).toBe(401);
    expect((await h.call('/api/trader/view/my-self', {}, 'not-a-jwt')).status).toBe(401);
    const expired = await h.idp.sign({}, { exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await h.call('/api/trader/view/my-self', {}, expired)).status).toBe(401);
    const wrongAud = await h.idp.sign({}, { aud: 'account' });
    expect((await h.call('/api/trader/view/my-self', {}, wrongAud)).status).toBe(401);
    const wrongIss = await h.idp.sign({}, { iss: 'http://evil.example/realms/pfp' });
    expect((await h.call('/api/trader/view/my-self', {}, wrongIss)).status).toBe(401);
    const { generateKeyPair } = await import('jose');
    const foreign = await h.idp.sign({}, { key: (await generateKeyPair('RS256')).privateKey });
    expect((await h.call('/api/trader/view/my-self', {}, foreign)).status).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'trader-a', iss: h.idp.issuer, aud: 'shinny_web', exp: 9e9 }),
    ).toString('base64url')}.`;
    const res = await h.call('/api/trader/view/my-self', {}, unsigned);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'unauthorized' } });
  });
});

describe('profile', () => {
  it('my-self is 404 until the first save, which creates the tenant', async () => {
    const before = await h.call('/api/trader/view/my-self', {}, token);
    expect(before.status).toBe(404);
    // Tenant-scoped calls need a profile first.
    expect((await h.call('/api/trader/view/orders', {}, token)).status).toBe(403);

    const saved = await h.call('/api/trader/rpc/trader-profile', profile(), token);
    expect(saved.status).toBe(200);
    const me = await h.call('/api/trader/view/my-self', {}, token);
    expect(me.body.data).toMatchObject({
      company_name: '甲贸易公司',
      tq_account_config: { is_sim: true, broker_name: '', futures_account: '' },
    });
    expect(Number.isInteger(me.body.data.tenant_id)).toBe(true);
  });

  it('validates the settings and stores the broker password encrypted, never returned', async () => {
    const bad = [
      [{ ...profile('  ') }, '请输入公司名称'],
      [profile('甲', { is_sim: false, futures_account: '123' }), '请输入期货公司'],
      [profile('甲', { is_sim: false, broker_name: 'H 华泰期货' }), '请输入期货账户'],
      [profile('甲', { is_sim: false, broker_name: '不存在的期货', futures_account: '1' }), '期货公司不在支持列表中'],
    ] as const;
    for (const [body, message] of bad) {
      const res = await h.call('/api/trader/rpc/trader-profile', body, token);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    // Nothing changed.
    expect((await h.call('/api/trader/view/my-self', {}, token)).body.data.company_name).toBe('甲贸易公司');

    const real = profile('甲贸易公司', {
      is_sim: false,
      broker_name: 'H 华泰期货',
      futures_account: '880001',
      futures_password: 's3cret!',
    });
    expect((await h.call('/api/trader/rpc/trader-profile', real, token)).status).toBe(200);
    const row = await h.db
      .selectFrom('tenants')
      .selectAll()
      .where('owner_sub', '=', 'trader-a')
      .executeTakeFirstOrThrow();
    expect(row.futures_password_enc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row.futures_password_enc).not.toContain('s3cret');
    expect(h.ctx.secrets.decrypt(row.futures_password_enc!)).toBe('s3cret!');
    const me = await h.call('/api/trader/view/my-self', {}, token);
    expect(JSON.stringify(me.body)).not.toContain('s3cret');
    expect(me.body.data.tq_account_config).toEqual({
      is_sim: false,
      broker_name: 'H 华泰期货',
      futures_account: '880001',
    });

    // A blank password keeps the stored one.
    await h.call(
      '/api/trader/rpc/trader-profile',
      { ...real, tq_account_config: { ...real.tq_account_config, futures_password: ' ' } },
      token,
    );
    const again = await h.db
      .selectFrom('tenants')
      .select('futures_password_enc')
      .where('owner_sub', '=', 'trader-a')
      .executeTakeFirstOrThrow();
    expect(h.ctx.secrets.decrypt(again.futures_password_enc!)).toBe('s3cret!');
    const audit = await h.db.selectFrom('audit_log').select('payload').where('action', '=', 'trader-profile').execute();
    expect(JSON.stringify(audit)).not.toContain('s3cret');
    await h.call('/api/trader/rpc/trader-profile', profile(), token);
  });
});

describe('pricers and contracts', () => {
  it('creates pricer users with the spec rules', async () => {
    const ok = await h.call(
      '/api/trader/rpc/create-pricer-user',
      { username: 'alice', password: 'pw', phone: '13800138000' },
      token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ username: 'alice', status: 'pending' });
    expect(JSON.stringify(ok.body)).not.toContain('password');
    const cases = [
      [{ username: '', password: 'pw' }, '用户名不能为空'],
      [{ username: 'a', password: 'pw' }, '用户名至少 2 个字符'],
      [{ username: 'bob' }, '密码不能为空'],
      [{ username: 'bob', password: 'p' }, '密码至少 2 个字符'],
      [{ username: 'bob', password: 'pw', phone: '12345678901' }, '手机号格式不正确'],
      [{ username: 'bob', password: 'pw', phone: '1380013800' }, '手机号格式不正确'],
    ] as const;
    for (const [body, message] of cases) {
      const res = await h.call('/api/trader/rpc/create-pricer-user', body, token);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const dup = await h.call('/api/trader/rpc/create-pricer-user', { username: 'alice', password: 'pw2' }, token);
    expect(dup.status).toBe(409);
    const users = await h.call('/api/trader/view/users', {}, token);
    expect(users.body.data.items.map((u: { username: string }) => u.username)).toEqual(['alice']);
    expect(JSON.stringify(users.body)).not.toContain('password');
  });

  it('creates contracts and changes their status', async () => {
    const { product, symbol } = await firstInstrument();
    const alice = (await h.call('/api/trader/view/users', {}, token)).body.data.items[0];
    const base = {
      pricer_id: alice.id,
      product_name: product,
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 10,
      basis: 0,
      fixing_deadline: DEADLINE,
    };
    const created = await h.call('/api/trader/rpc/create-contract', base, token);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      status: 'active',
      total_quantity: 10,
      remaining_quantity: 10,
      executed_quantity: 0,
      frozen_quantity: 0,
    });
    const cases = [
      [{ ...base, pricer_id: undefined }, '请选择客户'],
      [{ ...base, instrument_id: '' }, '请选择期货合约'],
      [{ ...base, direction: 'HOLD' }, '请选择期货方向'],
      [{ ...base, total_quantity: 0 }, '总数量必须大于0'],
      [{ ...base, total_quantity: '5' }, '总数量必须大于0'],
      [{ ...base, instrument_id: 'SHFE.xx9999' }, '期货合约不存在或已到期'],
    ] as const;
    for (const [body, message] of cases) {
      const res = await h.call('/api/trader/rpc/create-contract', body, token);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const id = created.body.data.id;
    const paused = await h.call(
      '/api/trader/rpc/update-contract-status',
      { contract_id: id, new_status: 'paused' },
      token,
    );
    expect(paused.body.data.status).toBe('paused');
    const bad = await h.call(
      '/api/trader/rpc/update-contract-status',
      { contract_id: id, new_status: 'frozen' },
      token,
    );
    expect(bad.status).toBe(400);
    const active = await h.call(
      '/api/trader/rpc/update-contract-status',
      { contract_id: id, new_status: 'active' },
      token,
    );
    expect(active.body.data.status).toBe('active');
    const stats = await h.call(
      '/api/trader/view/contracts',
      {
        group_by_fields: ['status'],
        aggregate_fields: [
          { field: 'id', op: 'count' },
          { field: 'total_quantity', op: 'sum' },
          { field: 'executed_quantity', op: 'sum' },
        ],
      },
      token,
    );
    expect(stats.body.data.items).toEqual([
      { status: 'active', count_id: 1, sum_total_quantity: 10, sum_executed_quantity: 0 },
    ]);
  });

  it('resets a pricer password', async () => {
    const alice = (await h.call('/api/trader/view/users', {}, token)).body.data.items[0];
    const res = await h.call(
      '/api/trader/rpc/reset-pricer-password',
      { user_id: alice.id, new_password: 'newpw' },
      token,
    );
    expect(res.status).toBe(200);
    const tenantId = (await h.call('/api/trader/view/my-self', {}, token)).body.data.tenant_id;
    const login = await h.call('/api/pricer/rpc/pricer-login', {
      tenant_id: tenantId,
      username: 'alice',
      password: 'newpw',
    });
    expect(login.status).toBe(200);
    expect(
      (await h.call('/api/trader/rpc/reset-pricer-password', { user_id: alice.id, new_password: '' }, token)).body.error
        .message,
    ).toBe('请输入新密码');
  });
});

describe('tenant isolation', () => {
  it('another trader sees none of tenant A and changes nothing of it', async () => {
    await h.call('/api/trader/rpc/trader-profile', profile('乙公司'), otherToken);
    for (const view of ['orders', 'contracts', 'users']) {
      const res = await h.call(`/api/trader/view/${view}`, {}, otherToken);
      expect(res.body.data.total_count, view).toBe(0);
    }
    const alice = (await h.call('/api/trader/view/users', {}, token)).body.data.items[0];
    const contract = (await h.call('/api/trader/view/contracts', {}, token)).body.data.items[0];
    const attempts = [
      ['/api/trader/rpc/reset-pricer-password', { user_id: alice.id, new_password: 'hacked' }],
      ['/api/trader/rpc/update-contract-status', { contract_id: contract.id, new_status: 'paused' }],
      [
        '/api/trader/rpc/create-contract',
        {
          pricer_id: alice.id,
          product_name: contract.product_name,
          instrument_id: contract.instrument_id,
          direction: 'BUY',
          total_quantity: 1,
          basis: 0,
          fixing_deadline: DEADLINE,
        },
      ],
    ] as const;
    for (const [url, body] of attempts) expect((await h.call(url, body, otherToken)).status, url).toBe(404);
    const after = (await h.call('/api/trader/view/contracts', {}, token)).body.data.items[0];
    expect(after.status).toBe('active');
  });
});

describe('bad input', () => {
  it('answers malformed JSON, oversized bodies and bad view params with clear 4xx', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/trader/rpc/create-contract',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('请求体不是有效的 JSON');
    const big = await h.app.inject({
      method: 'POST',
      url: '/api/trader/rpc/create-contract',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(100_000) }),
    });
    expect(big.statusCode).toBe(413);
    const view = await h.call('/api/trader/view/orders', { filter: "password = 'x'" }, token);
    expect(view.status).toBe(400);
    expect(view.body.error.message).toMatch(/password/);
  });
});
