import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { SimExchange } from '../market';
import { tradingDayIn } from '../../test/days';

let h: Harness;
let trader: string;
let tenantId: number;
let contractId: number;

/** A tenant with pricer `carol` (password pw123) and one active contract of 20 lots. */
async function setupTenant(sub: string, company: string, pricer = 'carol') {
  const token = await h.idp.sign({}, { sub });
  await h.call('/api/trader/rpc/trader-profile', { company_name: company, tq_account_config: { is_sim: true } }, token);
  const tenant = (await h.call('/api/trader/view/my-self', {}, token)).body.data.tenant_id as number;
  // Written for trading without margin: the new company's 10 % default (issue 41) set to 0.
  await h.db.updateTable('tenants').set({ default_margin_rate: 0 }).where('id', '=', tenant).execute();
  const user = (await h.call('/api/trader/rpc/create-pricer-user', { username: pricer, password: 'pw123' }, token)).body
    .data;
  const instruments = await h.call('/api/trader/view/instruments', { product_name: '铜' }, token);
  const symbol = instruments.body.data.items[1].symbol;
  const contract = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: user.id,
      product_name: '铜',
      instrument_id: symbol,
      direction: 'BUY',
      total_quantity: 20,
      basis: 0,
      fixing_deadline: tradingDayIn(30),
    },
    token,
  );
  return { token, tenant, contract: contract.body.data.id as number, userId: user.id as number };
}

async function login(tenant: number, username = 'carol', password = 'pw123') {
  return h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenant, username, password });
}

// The real simulated exchange (not started: its quotes are computed on demand).
const market = new SimExchange({ seed: 7 });

beforeAll(async () => {
  h = await startHarness({ quote: (symbol) => market.getQuote(symbol) });
  const t = await setupTenant('trader-p', '丙贸易公司');
  trader = t.token;
  tenantId = t.tenant;
  contractId = t.contract;
});
afterAll(() => h.close());

describe('pricer login', () => {
  it('maps unknown company to 404, wrong credentials to 401, and activates on first login', async () => {
    expect((await login(99999)).status).toBe(404);
    expect((await login(99999)).body.error.message).toBe('公司代码不存在');
    expect((await login(tenantId, 'carol', 'wrong')).status).toBe(401);
    expect((await login(tenantId, 'nobody', 'pw123')).body.error.message).toBe('用户名或密码错误');
    expect((await h.call('/api/pricer/rpc/pricer-login', { tenant_id: tenantId, username: '' })).status).toBe(400);
    const ok = await login(tenantId);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      result: 'ok',
      data: { username: 'carol', tenant_id: tenantId, company_name: '丙贸易公司' },
    });
    expect(ok.body.data.jwt_token.split('.')).toHaveLength(3);
    const users = await h.call('/api/trader/view/users', {}, trader);
    expect(users.body.data.items[0].status).toBe('active');
  });

  it('refuses inactive users', async () => {
    const t = await setupTenant('trader-q', '丁公司', 'dave');
    await h.db.updateTable('pricer_users').set({ status: 'inactive' }).where('id', '=', t.userId).execute();
    const res = await login(t.tenant, 'dave');
    expect(res.status).toBe(403);
  });

  it('answers the company name for the login page', async () => {
    const res = await h.call('/api/pricer/rpc/get-tenant-info', { tenant_id: tenantId });
    expect(res.body.data.company_name).toBe('丙贸易公司');
    expect((await h.call('/api/pricer/rpc/get-tenant-info', { tenant_id: 424242 })).status).toBe(404);
  });

  it('rate limits login attempts', async () => {
    // A second app on the same database with a low limit: the 4th attempt within a minute is refused.
    const app = await (await import('../app')).buildApp({ ...h.ctx, config: { ...h.ctx.config, loginRateLimit: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/pricer/rpc/pricer-login',
        payload: { tenant_id: 999999, username: 'x', password: 'y' },
      });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 3).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    await app.close();
  });
});

describe('orders', () => {
  let jwt: string;
  beforeAll(async () => {
    jwt = (await login(tenantId)).body.data.jwt_token;
  });

  it('submits an order that freezes lots, and validates every rule', async () => {
    const res = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: contractId, quantity: 3, price: 70000 },
      jwt,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'PENDING', volume_orign: 3, limit_price: 70000 });
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, jwt);
    const c = snap.body.data.contracts.find((x: { id: number }) => x.id === contractId);
    expect(c).toMatchObject({ frozen_quantity: 3, remaining_quantity: 17, executed_quantity: 0 });
    expect(snap.body.data.orders[0]).toMatchObject({ id: res.body.data.id, status: 'PENDING', volume_traded: '0' });
    // The desk's price checks: last price, the instrument's tick and the day's limit band.
    const quote = market.getQuote(c.instrument_id)!;
    expect(snap.body.data.market_data[c.instrument_id]).toEqual({
      last_price: quote.last_price,
      price_tick: c.price_tick,
      upper_limit: quote.upper_limit,
      lower_limit: quote.lower_limit,
      // What a market order meets (the confirmation's reference, issue 29).
      bid_price: quote.bid_price1,
      ask_price: quote.ask_price1,
    });
    expect(quote.lower_limit).toBeLessThan(quote.last_price);
    expect(quote.upper_limit).toBeGreaterThan(quote.last_price);

    const cases = [
      [{ quantity: 1 }, '请选择合同'],
      [{ contract_id: contractId, quantity: 0 }, '请输入有效的成交数量'],
      [{ contract_id: contractId, quantity: 1.5 }, '成交数量必须是整数'],
      [{ contract_id: contractId, quantity: 18 }, '成交数量不能超过剩余数量（剩余 17 手）'],
      [{ contract_id: contractId, quantity: 1, price: -1 }, '限价单必须有有效价格'],
    ] as const;
    for (const [body, message] of cases) {
      const r = await h.call('/api/pricer/rpc/submit-order', body, jwt);
      expect(r.status, message).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    const after = (await h.call('/api/pricer/view/my-data-snapshot', {}, jwt)).body.data.contracts.find(
      (x: { id: number }) => x.id === contractId,
    );
    expect(after.remaining_quantity).toBe(17);
  });

  it('rejects orders on a paused contract, whose working orders the pause cancelled', async () => {
    const mine = await h.db.selectFrom('contracts').selectAll().where('id', '=', contractId).executeTakeFirstOrThrow();
    const second = await h.call(
      '/api/trader/rpc/create-contract',
      {
        pricer_id: mine.pricer_id,
        product_name: mine.product_name,
        instrument_id: mine.instrument_id,
        direction: 'BUY',
        total_quantity: 5,
        basis: 0,
        fixing_deadline: mine.fixing_deadline,
      },
      trader,
    );
    const id = second.body.data.id as number;
    const working = await h.call('/api/pricer/rpc/submit-order', { contract_id: id, quantity: 2 }, jwt);
    await h.call('/api/trader/rpc/update-contract-status', { contract_id: id, new_status: 'paused' }, trader);
    const r = await h.call('/api/pricer/rpc/submit-order', { contract_id: id, quantity: 1 }, jwt);
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe('合同已暂停，不能下单');
    const stopped = await h.db
      .selectFrom('orders')
      .select(['status', 'last_msg'])
      .where('id', '=', working.body.data.id)
      .executeTakeFirstOrThrow();
    expect(stopped).toEqual({ status: 'CANCELLED', last_msg: '合同已暂停，已撤单' });
    await h.call('/api/trader/rpc/update-contract-status', { contract_id: id, new_status: 'active' }, trader);
  });

  it('lets the trader cancel a PENDING order, returning its lots; the pricer only ALIVE ones', async () => {
    const placed = (await h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 2 }, jwt)).body
      .data;
    const byPricer = await h.call('/api/pricer/rpc/cancel-order', { order_id: placed.id }, jwt);
    expect(byPricer.status).toBe(409);
    const byTrader = await h.call('/api/trader/rpc/cancel-order', { order_id: placed.id }, trader);
    expect(byTrader.body.data.status).toBe('CANCELLED');
    const again = await h.call('/api/trader/rpc/cancel-order', { order_id: placed.id }, trader);
    expect(again.status).toBe(409);
    const c = await h.db.selectFrom('contracts').selectAll().where('id', '=', contractId).executeTakeFirstOrThrow();
    expect(c.frozen_quantity + c.remaining_quantity + c.executed_quantity).toBe(c.total_quantity);
    expect(c.frozen_quantity).toBe(3);
  });

  it('never oversells under 50 concurrent submits', async () => {
    const t = await setupTenant('trader-race', '竞速公司', 'racer');
    const token = (await login(t.tenant, 'racer')).body.data.jwt_token;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        h.call('/api/pricer/rpc/submit-order', { contract_id: t.contract, quantity: 1 }, token),
      ),
    );
    const accepted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 400).length;
    expect(accepted).toBe(20);
    expect(refused).toBe(30);
    const c = await h.db.selectFrom('contracts').selectAll().where('id', '=', t.contract).executeTakeFirstOrThrow();
    expect(c).toMatchObject({ frozen_quantity: 20, remaining_quantity: 0, executed_quantity: 0 });
    const orders = await h.db
      .selectFrom('orders')
      .select(h.db.fn.countAll<number>().as('n'))
      .where('contract_id', '=', t.contract)
      .executeTakeFirstOrThrow();
    expect(Number(orders.n)).toBe(20);
  });

  it('keeps pricers to their own tenant and their own rows', async () => {
    const other = await setupTenant('trader-x', '戊公司', 'eve');
    const eve = (await login(other.tenant, 'eve')).body.data.jwt_token;
    // Eve cannot order on, or see, carol's contract or orders.
    expect((await h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 1 }, eve)).status).toBe(
      404,
    );
    const carolOrder = (
      await h.db.selectFrom('orders').select('id').where('contract_id', '=', contractId).executeTakeFirstOrThrow()
    ).id;
    expect((await h.call('/api/pricer/rpc/cancel-order', { order_id: carolOrder }, eve)).status).toBe(404);
    const snap = (await h.call('/api/pricer/view/my-data-snapshot', {}, eve)).body.data;
    expect(snap.contracts.map((c: { id: number }) => c.id)).toEqual([other.contract]);
    expect(snap.orders).toEqual([]);
    const mine = await h.call('/api/pricer/view/my-orders', { slice_start: 0, slice_end: 50 }, eve);
    expect(mine.body.data.total_count).toBe(0);
    // A token is bound to its tenant: a forged tenant claim fails the signature.
    const [hdr, payload, sig] = eve.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.tenant_id = tenantId;
    const forgedToken = `${hdr}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`;
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, forgedToken)).status).toBe(401);
  });

  it('filters my-orders by contract, status and dates; empty and all mean no condition', async () => {
    const all = await h.call(
      '/api/pricer/view/my-orders',
      { contract_id: contractId, status: 'all', start_date: '', slice_start: 0, slice_end: 50 },
      jwt,
    );
    expect(all.body.data.total_count).toBeGreaterThanOrEqual(2);
    const cancelled = await h.call('/api/pricer/view/my-orders', { contract_id: contractId, status: 'CANCELLED' }, jwt);
    expect(cancelled.body.data.items.every((o: { status: string }) => o.status === 'CANCELLED')).toBe(true);
    expect(cancelled.body.data.total_count).toBe(1);
    const future = await h.call('/api/pricer/view/my-orders', { start_date: '2999-01-01' }, jwt);
    expect(future.body.data.total_count).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const byDay = await h.call(
      '/api/pricer/view/my-orders',
      { contract_id: contractId, start_date: today, end_date: today },
      jwt,
    );
    expect(byDay.body.data.total_count).toBe(all.body.data.total_count);
    expect((await h.call('/api/pricer/view/my-orders', { start_date: '2026/01/01' }, jwt)).status).toBe(400);
  });
});

describe('what a pause or a 停用 will stop, read before it (issue 30)', () => {
  it('counts the working orders and waiting 条件单 of a contract and of a customer, then stops them', async () => {
    const t = await setupTenant('trader-stop', '停公司', 'stella');
    const jwt = (await login(t.tenant, 'stella')).body.data.jwt_token;
    const submitted = await h.call('/api/pricer/rpc/submit-order', { contract_id: t.contract, quantity: 2 }, jwt);
    expect(submitted.status).toBe(200);
    const k = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: t.contract, quantity: 3, trigger_op: '>=', trigger_price: 999_990, order_price: 0 },
      jwt,
    );
    expect(k.status).toBe(200);
    // The dashboard's nearest deadlines (apps/trader useNearestDeadlines) is a plain contracts view call.
    const nearest = await h.call(
      '/api/trader/view/contracts',
      {
        filter: "status in ['active','paused']",
        sort_fields: [{ field: 'fixing_deadline', ascending: true }],
        slice_start: 0,
        slice_end: 50,
      },
      t.token,
    );
    expect(nearest.status).toBe(200);
    expect(nearest.body.data.items.map((c: { id: number }) => c.id)).toEqual([t.contract]);
    const counts = { working_orders: 1, working_lots: 2, waiting_conditionals: 1, waiting_conditional_lots: 3 };
    const contractPreview = await h.call(
      '/api/trader/view/contract-pause-preview',
      { contract_id: t.contract },
      t.token,
    );
    expect(contractPreview.body).toEqual({
      result: 'ok',
      data: { contract_id: t.contract, status: 'active', ...counts },
    });
    const userPreview = await h.call('/api/trader/view/pricer-deactivate-preview', { user_id: t.userId }, t.token);
    expect(userPreview.body.data).toEqual({ user_id: t.userId, status: 'active', ...counts });
    // Bad input names the field in Chinese; another tenant's ids are not there.
    const bad = await h.call('/api/trader/view/contract-pause-preview', { contract_id: 'x' }, t.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('contract_id');
    expect(bad.body.error.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await h.call('/api/trader/view/pricer-deactivate-preview', {}, t.token)).body.error.field).toBe('user_id');
    expect((await h.call('/api/trader/view/contract-pause-preview', { contract_id: t.contract }, trader)).status).toBe(
      404,
    );
    expect((await h.call('/api/trader/view/pricer-deactivate-preview', { user_id: t.userId }, trader)).status).toBe(
      404,
    );

    // 停用: the 条件单 is cancelled (lots back), the order is stopped, nothing waits or works any more.
    const off = await h.call(
      '/api/trader/rpc/update-pricer-status',
      { user_id: t.userId, new_status: 'inactive' },
      t.token,
    );
    expect(off.status).toBe(200);
    const after = await h.call('/api/trader/view/pricer-deactivate-preview', { user_id: t.userId }, t.token);
    expect(after.body.data).toMatchObject({ status: 'inactive', waiting_conditionals: 0 });
    const cond = await h.db
      .selectFrom('conditional_orders')
      .select(['status', 'last_msg'])
      .where('id', '=', k.body.data.id)
      .executeTakeFirstOrThrow();
    expect(cond).toEqual({ status: 'CANCELLED', last_msg: '客户已停用，已撤销' });
    const o = await h.db
      .selectFrom('orders as o')
      .leftJoin('order_dispatch as d', 'd.order_id', 'o.id')
      .select(['o.status', 'o.last_msg', 'd.cancel_reason'])
      .where('o.id', '=', submitted.body.data.id)
      .executeTakeFirstOrThrow();
    // PENDING (no router here): cancelled; had a router taken it, its cancel is owed to the broker.
    expect(o.status === 'CANCELLED' ? o.last_msg : o.cancel_reason).toBe('客户已停用，已撤单');
  });
});

describe('the audit log records where an action came from (issue 30)', () => {
  it("keeps the address and browser of a customer's fix and a trader's action, none for the server's own", async () => {
    const t = await setupTenant('trader-origin', '址公司', 'olga');
    const jwt = (await login(t.tenant, 'olga')).body.data.jwt_token;
    const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 测试';
    const fix = await h.app.inject({
      method: 'POST',
      url: '/api/pricer/rpc/submit-order',
      headers: { authorization: `Bearer ${jwt}`, 'user-agent': UA },
      payload: { contract_id: t.contract, quantity: 1 },
    });
    expect(fix.statusCode).toBe(200);
    const rows = await h.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'ip', 'user_agent'])
      .where('tenant_id', '=', t.tenant)
      .orderBy('id')
      .execute();
    expect(rows.find((r) => r.action === 'submit-order')).toMatchObject({ ip: '127.0.0.1', user_agent: UA });
    expect(rows.find((r) => r.action === 'pricer-login')).toMatchObject({ ip: '127.0.0.1' });
    // A failed login of the account is audited too, with where it came from.
    await h.app.inject({
      method: 'POST',
      url: '/api/pricer/rpc/pricer-login',
      headers: { 'user-agent': UA },
      payload: { tenant_id: t.tenant, username: 'olga', password: 'wrong' },
    });
    const failed = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'ip', 'user_agent'])
      .where('tenant_id', '=', t.tenant)
      .where('action', '=', 'pricer-login-failed')
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ ip: '127.0.0.1', user_agent: UA });
    expect(rows.find((r) => r.action === 'create-contract')?.ip).toBe('127.0.0.1');
    // The trader's view carries them.
    const page = (await h.call('/api/trader/view/audit-log', { action: 'submit-order' }, t.token)).body.data;
    expect(page.items[0]).toMatchObject({ ip: '127.0.0.1', user_agent: UA, action_label: '提交点价' });
    // Names beside the ids: the contract's name for a fix.
    const contractName = (
      await h.db.selectFrom('contracts').select('name').where('id', '=', t.contract).executeTakeFirstOrThrow()
    ).name;
    expect(page.items[0]).toMatchObject({ contract_name: contractName, customer_name: null });
    const created = (await h.call('/api/trader/view/audit-log', { action: 'create-contract' }, t.token)).body.data;
    expect(created.items[0]).toMatchObject({ customer_name: 'olga' });

    // The filtered log as xlsx: Chinese headers and labels, Beijing time, names beside ids, 市价.
    const file = await h.app.inject({
      method: 'GET',
      url: '/api/trader/export/audit-log?action=submit-order',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/filename\*=UTF-8''%E5%AE%A1%E8%AE%A1/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('审计日志')!;
    const values = (r: number) => (ws.getRow(r).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      '时间（北京）',
      '操作人',
      '身份',
      '操作',
      '内容',
      '地址',
      '浏览器',
      '浏览器标识（原文）',
    ]);
    expect(ws.rowCount).toBe(2);
    const [time, actor, kind, action, details, ip, device, ua] = values(2);
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The browser in Chinese, the raw user-agent in its own column (issue 30).
    expect([actor, kind, action, ip, device, ua]).toEqual([
      'olga',
      '客户',
      '提交点价',
      '127.0.0.1',
      '电脑 · Chrome 浏览器 · Windows',
      UA,
    ]);
    expect(details).toContain(`合同编号: ${t.contract}（${contractName}）`);
    expect(details).toContain('价格: 市价');
    const bad = await h.app.inject({
      method: 'GET',
      url: '/api/trader/export/audit-log?start_date=yesterday',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('start_date');
  });
});

describe('customer status (停用 / 启用)', () => {
  const setStatus = (body: Record<string, unknown>, token = trader) =>
    h.call('/api/trader/rpc/update-pricer-status', body, token);

  it('switches a customer off and on: login refused while inactive, live tokens signed out, audited', async () => {
    const t = await setupTenant('trader-s', '己公司', 'frank');
    const live = (await login(t.tenant, 'frank')).body.data.jwt_token;

    const off = await setStatus({ user_id: t.userId, new_status: 'inactive' }, t.token);
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ id: t.userId, username: 'frank', status: 'inactive' });
    const refused = await login(t.tenant, 'frank');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('账户已停用，请联系贸易商');
    const signedOut = await h.call('/api/pricer/view/my-data-snapshot', {}, live);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error.message).toBe('账户已停用，请联系贸易商');

    expect(signedOut.body.error.code).toBe('account_disabled');

    const on = await setStatus({ user_id: t.userId, new_status: 'active' }, t.token);
    expect(on.body.data.status).toBe('active');
    const fresh = await login(t.tenant, 'frank');
    expect(fresh.status).toBe(200);
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, fresh.body.data.jwt_token)).status).toBe(200);
    // A token from before the 停用 never works again, also after 启用 (issue 30).
    const revived = await h.call('/api/pricer/view/my-data-snapshot', {}, live);
    expect(revived.status).toBe(401);
    expect(revived.body.error.message).toBe('登录已过期，请重新登录');

    const audit = await h.db
      .selectFrom('audit_log')
      .select(['tenant_id', 'actor', 'payload'])
      .where('action', '=', 'update-pricer-status')
      .where('tenant_id', '=', t.tenant)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.actor, (a.payload as { new_status: string }).new_status])).toEqual([
      ['trader-s', 'inactive'],
      ['trader-s', 'active'],
    ]);
  });

  it("refuses a bad status in Chinese and another tenant's customer as not found, changing nothing", async () => {
    const t = await setupTenant('trader-s2', '庚公司', 'gina');
    for (const new_status of ['pending', 'deleted', '', 1, null]) {
      const res = await setStatus({ user_id: t.userId, new_status }, t.token);
      expect(res.status, String(new_status)).toBe(400);
      expect(res.body.error).toMatchObject({ message: '客户状态无效，只能是 active 或 inactive', field: 'new_status' });
    }
    const noId = await setStatus({ new_status: 'inactive' }, t.token);
    expect(noId.status).toBe(400);
    expect(noId.body.error.field).toBe('user_id');

    // Carol belongs to the first tenant: this trader cannot see her.
    const carol = (await h.call('/api/trader/view/users', {}, trader)).body.data.items.find(
      (u: { username: string }) => u.username === 'carol',
    );
    const other = await setStatus({ user_id: carol.id, new_status: 'inactive' }, t.token);
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe('客户不存在');
    expect((await setStatus({ user_id: 2 ** 31 - 1, new_status: 'inactive' }, t.token)).status).toBe(404);

    const users = await h.db
      .selectFrom('pricer_users')
      .select(['username', 'status'])
      .where('id', 'in', [t.userId, carol.id])
      .orderBy('username')
      .execute();
    expect(users).toEqual([
      { username: 'carol', status: 'active' },
      { username: 'gina', status: 'pending' },
    ]);
    expect((await login(tenantId)).status).toBe(200);
  });
});
