import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingDayIn } from '../../../test/days';
import { pricerSignIn, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { setMarket, type FakeQuotes } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';

/*
 * 授权点价人 (issue 43 item 4, docs/authorised-pricers.md) over HTTP on the real app and trading
 * service: a customer's first login is its first authorised person; the trader adds a second with
 * their own login, who fixes, and the confirmation and the audit row name them; a deactivated person
 * is refused 409 naming the login, and nothing is frozen or created; bad input names the field.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let t: Tenant;
let other: Tenant;
let contractId: number;
const ADD = '/api/trader/rpc/add-authorised-pricer';
const LIST = '/api/trader/view/authorised-pricers';
const ACTIVE = '/api/trader/rpc/set-authorised-pricer-active';
const UPDATE = '/api/trader/rpc/update-authorised-pricer';
const RESET = '/api/trader/rpc/reset-authorised-pricer-password';
const signIn = (username: string, password: string) => pricerSignIn(h, t, username, password);

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk());
  t = await setupTenant(h, 'trader-authorised', '授权贸易', ['acme']);
  other = await setupTenant(h, 'trader-authorised-2', '别家贸易', ['zeta']);
  quotes.addInstrument(t.symbol, 10);
  contractId = (await createContract(h, t, 'acme', tradingDayIn(30))).id;
});
afterAll(() => stop?.());

const frozen = async () =>
  (await h.db.selectFrom('contracts').select('frozen_quantity').where('id', '=', contractId).executeTakeFirstOrThrow())
    .frozen_quantity;
const counts = async () => ({
  orders: (await h.db.selectFrom('orders').select('id').where('contract_id', '=', contractId).execute()).length,
  conditional: (
    await h.db.selectFrom('conditional_orders').select('id').where('contract_id', '=', contractId).execute()
  ).length,
  frozen: await frozen(),
});

async function fixFilled(jwt: string) {
  setMarket(quotes, t.symbol, 70_000, 5);
  const res = await h.call('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 1, price: 0 }, jwt);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await service.idle();
  return res.body.data.id as number;
}

const PERSON = {
  name: '赵敏',
  id_type: 'id_card',
  id_last4: '123X',
  phone: '13800138000',
  username: 'acme-zhao',
  password: 'pw123456',
};

describe('授权点价人', () => {
  it("the customer's first login is its first authorised person, and fixes; the confirmation and audit name them", async () => {
    const list = await h.call(LIST, { user_id: t.pricers.acme!.id }, t.token);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.persons).toEqual([
      expect.objectContaining({ username: 'acme', name: 'acme', primary: true, active: true, live_conditionals: 0 }),
    ]);
    const orderId = await fixFilled(t.pricers.acme!.jwt);
    const conf = await h.call('/api/pricer/view/confirmation', { order_id: orderId }, t.pricers.acme!.jwt);
    expect(conf.status, JSON.stringify(conf.body)).toBe(200);
    expect(conf.body.data.fixed_by).toBe('acme');
  });

  it('the trader adds a second person with their own login: they fix, the confirmation and audit name them', async () => {
    const added = await h.call(ADD, { user_id: t.pricers.acme!.id, ...PERSON }, t.token);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({ name: '赵敏', id_type: 'id_card', id_last4: '123X', primary: false });
    const stored = await h.db
      .selectFrom('authorised_pricers')
      .select(['id_last4', 'password_hash'])
      .where('username', '=', 'acme-zhao')
      .executeTakeFirstOrThrow();
    expect(stored.id_last4).toBe('123X');
    expect(stored.password_hash).not.toContain('pw123456');
    const addAudit = await h.db
      .selectFrom('audit_log')
      .select('payload')
      .where('action', '=', 'add-authorised-pricer')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(addAudit.payload)).not.toContain('pw123456');

    const login = await signIn('acme-zhao', 'pw123456');
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.data).toMatchObject({ user_id: t.pricers.acme!.id, username: 'acme-zhao' });
    const jwt = login.body.data.jwt_token as string;
    const snapshot = await h.call('/api/pricer/view/my-data-snapshot', {}, jwt);
    expect(snapshot.body.data.person).toEqual({ id: added.body.data.id, name: '赵敏', active: true });
    // The company's contracts are theirs to fix.
    expect(snapshot.body.data.contracts.map((c: { id: number }) => c.id)).toContain(contractId);

    const orderId = await fixFilled(jwt);
    const conf = await h.call('/api/pricer/view/confirmation', { order_id: orderId }, t.pricers.acme!.jwt);
    expect(conf.body.data).toMatchObject({ fixed_by: '赵敏', pricer_id: t.pricers.acme!.id });
    const traderConf = await h.call('/api/trader/view/confirmation', { order_id: orderId }, t.token);
    expect(traderConf.body.data.fixed_by).toBe('赵敏');
    const audit = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'submit-order')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe(`pricer:${t.pricers.acme!.id}`);
    expect(audit.payload).toMatchObject({
      authorised_pricer: '赵敏',
      person_id: added.body.data.id,
      order_id: orderId,
    });
  });

  it('a deactivated person is refused 409 naming the login; nothing frozen or created; their 条件单 are kept', async () => {
    // The primary person: the customer's own login stays signed in but may not fix.
    const persons = (await h.call(LIST, { user_id: t.pricers.acme!.id }, t.token)).body.data.persons;
    const primary = persons.find((p: { primary: boolean }) => p.primary);
    const zhao = persons.find((p: { username: string }) => p.username === 'acme-zhao');
    const zhaoJwt = (await signIn('acme-zhao', 'pw123456')).body.data.jwt_token;
    const cond = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: contractId, quantity: 1, trigger_op: '>=', trigger_price: 90_000, order_price: 0 },
      t.pricers.acme!.jwt,
    );
    expect(cond.status, JSON.stringify(cond.body)).toBe(200);

    const off = await h.call(ACTIVE, { person_id: primary.id, active: false }, t.token);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toMatchObject({ active: false, live_conditionals: 1 });
    const before = await counts();
    const refused = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: contractId, quantity: 1, price: 0 },
      t.pricers.acme!.jwt,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'not_authorised_pricer',
      message: '登录账号 acme 不是本公司的授权点价人，不能点价',
    });
    const refusedCond = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: contractId, quantity: 1, trigger_op: '>=', trigger_price: 90_000, order_price: 0 },
      t.pricers.acme!.jwt,
    );
    expect(refusedCond.status).toBe(409);
    expect(refusedCond.body.error.message).toBe('登录账号 acme 不是本公司的授权点价人，不能点价');
    expect(await counts()).toEqual(before);
    // Kept: the 条件单 made while authorised still waits.
    const kept = await h.db
      .selectFrom('conditional_orders')
      .select('status')
      .where('id', '=', cond.body.data.id)
      .executeTakeFirstOrThrow();
    expect(kept.status).toBe('WAITING');
    const snapshot = await h.call('/api/pricer/view/my-data-snapshot', {}, t.pricers.acme!.jwt);
    expect(snapshot.body.data.person).toMatchObject({ name: 'acme', active: false });

    // The second person: their session ends, their login is refused, until restored.
    expect((await h.call(ACTIVE, { person_id: zhao.id, active: false }, t.token)).status).toBe(200);
    const ended = await h.call('/api/pricer/view/my-data-snapshot', {}, zhaoJwt);
    expect(ended.status).toBe(401);
    const relogin = await signIn('acme-zhao', 'pw123456');
    expect(relogin.status).toBe(403);
    expect(relogin.body.error.message).toBe('该授权点价人已停用，请联系贸易商');
    expect(await counts()).toEqual(before);

    expect((await h.call(ACTIVE, { person_id: primary.id, active: true }, t.token)).status).toBe(200);
    const audits = await h.db
      .selectFrom('audit_log')
      .select(['action', 'payload'])
      .where('action', 'in', ['deactivate-authorised-pricer', 'reactivate-authorised-pricer'])
      .orderBy('id')
      .execute();
    expect(audits.map((a) => a.action)).toEqual([
      'deactivate-authorised-pricer',
      'deactivate-authorised-pricer',
      'reactivate-authorised-pricer',
    ]);
    expect(audits[0]!.payload).toMatchObject({ name: 'acme', live_conditionals: 1 });
    await fixFilled(t.pricers.acme!.jwt);
  });

  it('bad input names the field and changes nothing; a taken login, another company, a full ID number are refused', async () => {
    const before = await h.db.selectFrom('authorised_pricers').select('id').execute();
    const base = { user_id: t.pricers.acme!.id, ...PERSON, username: 'acme-new' };
    const full = await h.call(ADD, { ...base, id_last4: '11010119900101123X' }, t.token);
    expect(full.status).toBe(400);
    expect(full.body.error).toMatchObject({ field: 'id_last4' });
    expect(full.body.error.message).toContain('后 4 位');
    const type = await h.call(ADD, { ...base, id_type: '驾照' }, t.token);
    expect(type.body.error).toMatchObject({ field: 'id_type' });
    const noName = await h.call(ADD, { ...base, name: '  ' }, t.token);
    expect(noName.body.error).toMatchObject({ field: 'name' });
    const phone = await h.call(ADD, { ...base, phone: '123' }, t.token);
    expect(phone.body.error).toMatchObject({ field: 'phone' });
    // A customer's login name and a person's are one namespace.
    const taken = await h.call(ADD, { ...base, username: 'acme' }, t.token);
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('用户名 acme 已存在');
    const customerTaken = await h.call(
      '/api/trader/rpc/create-pricer-user',
      { username: 'acme-zhao', password: 'pw123' },
      t.token,
    );
    expect(customerTaken.status).toBe(409);
    const foreign = await h.call(ADD, base, other.token);
    expect(foreign.status).toBe(404);
    const foreignList = await h.call(LIST, { user_id: t.pricers.acme!.id }, other.token);
    expect(foreignList.status).toBe(404);
    expect(await h.db.selectFrom('authorised_pricers').select('id').execute()).toEqual(before);
    expect(
      (await h.db.selectFrom('pricer_users').select('id').where('username', '=', 'acme-zhao').execute()).length,
    ).toBe(0);
  });

  it('update changes the given fields, audited with before and after', async () => {
    const zhao = (await h.call(LIST, { user_id: t.pricers.acme!.id }, t.token)).body.data.persons.find(
      (p: { username: string }) => p.username === 'acme-zhao',
    );
    const res = await h.call(UPDATE, { person_id: zhao.id, phone: '13900139000', id_type: 'passport' }, t.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ name: '赵敏', phone: '13900139000', id_type: 'passport', id_last4: '123X' });
    const none = await h.call(UPDATE, { person_id: zhao.id }, t.token);
    expect(none.status).toBe(400);
    const audit = await h.db
      .selectFrom('audit_log')
      .select('payload')
      .where('action', '=', 'update-authorised-pricer')
      .executeTakeFirstOrThrow();
    expect(audit.payload).toMatchObject({
      before: { phone: '13800138000', id_type: 'id_card' },
      after: { phone: '13900139000', id_type: 'passport' },
    });
  });

  it("the trader resets a person's password as a customer's: the new one signs in, the old one and its session end", async () => {
    const qian = (
      await h.call(ADD, { user_id: t.pricers.acme!.id, ...PERSON, name: '钱多', username: 'acme-qian' }, t.token)
    ).body.data;
    const oldJwt = (await signIn('acme-qian', 'pw123456')).body.data.jwt_token as string;
    const hashOf = async () =>
      (
        await h.db
          .selectFrom('authorised_pricers')
          .select('password_hash')
          .where('id', '=', qian.id)
          .executeTakeFirstOrThrow()
      ).password_hash;
    const before = await hashOf();

    // Another company's trader cannot reach the person; a role without the right is refused; nothing changes.
    const foreign = await h.call(RESET, { person_id: qian.id, new_password: 'taken-over' }, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('授权点价人不存在');
    const admin = await h.call(
      '/api/trader/rpc/create-staff',
      { username: 'admin-reset', password: 'admin-pass-1', full_name: '孙管理', roles: ['admin'] },
      t.token,
    );
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const adminToken = await h.idp.sign({}, { sub: admin.body.data.user_id });
    const refused = await h.call(RESET, { person_id: qian.id, new_password: 'by-admin' }, adminToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'role_refused',
      message: '此操作需要「交易员」角色，您的角色是「管理员」',
    });
    const blank = await h.call(RESET, { person_id: qian.id, new_password: '' }, t.token);
    expect(blank.status).toBe(400);
    expect(blank.body.error.field).toBe('new_password');
    expect(await hashOf()).toBe(before);
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, oldJwt)).status).toBe(200);

    const reset = await h.call(RESET, { person_id: qian.id, new_password: 'qian-new-1' }, t.token);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.data).toEqual({ person_id: qian.id, user_id: t.pricers.acme!.id });
    // Their session ends; the old password is refused, the new one signs them in as themselves.
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, oldJwt)).status).toBe(401);
    expect((await signIn('acme-qian', 'pw123456')).status).toBe(401);
    const fresh = await signIn('acme-qian', 'qian-new-1');
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    const snapshot = await h.call('/api/pricer/view/my-data-snapshot', {}, fresh.body.data.jwt_token);
    expect(snapshot.body.data.person).toEqual({ id: qian.id, name: '钱多', active: true });
    // The customer's own login and its session are not touched.
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, t.pricers.acme!.jwt)).status).toBe(200);
    const audit = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'reset-authorised-pricer-password')
      .executeTakeFirstOrThrow();
    expect(audit.payload).toEqual({
      person_id: qian.id,
      user_id: t.pricers.acme!.id,
      name: '钱多',
      username: 'acme-qian',
    });
    expect(JSON.stringify(audit.payload)).not.toContain('qian-new-1');

    // The customer's first login has the customer's password: that one is reset, as 客户管理's 重置密码 does.
    const primary = (await h.call(LIST, { user_id: t.pricers.acme!.id }, t.token)).body.data.persons.find(
      (p: { primary: boolean }) => p.primary,
    );
    expect((await h.call(RESET, { person_id: primary.id, new_password: 'acme-new-1' }, t.token)).status).toBe(200);
    expect((await h.call('/api/pricer/view/my-data-snapshot', {}, t.pricers.acme!.jwt)).status).toBe(401);
    expect((await signIn('acme', 'pw123')).status).toBe(401);
    const customer = await signIn('acme', 'acme-new-1');
    expect(customer.status, JSON.stringify(customer.body)).toBe(200);
    t.pricers.acme!.jwt = customer.body.data.jwt_token;
  });
});
