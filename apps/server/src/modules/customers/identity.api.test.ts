import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingDayIn } from '../../../test/days';
import { startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import type { FakeQuotes } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';
import { shanghaiToday } from '../contracts/fixingTerms';

/*
 * The customer's legal identity and confirm-sheet switch (issue 29) over HTTP on the real app and
 * trading service: create and update take 客户全称 / 联系人 / 手机号 (Chinese 400s naming the field,
 * nothing changed), the users view and the snapshot return them, the confirmation and the statement
 * print the full name (the username while it is empty), every change is audited.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let b: Tenant;
const DEADLINE = tradingDayIn(30);
const FROM = shanghaiToday(new Date(Date.now() - 86_400_000));
const TO = shanghaiToday(new Date(Date.now() + 86_400_000));
const PROFILE = '/api/trader/rpc/update-pricer-profile';

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk());
  a = await setupTenant(h, 'trader-id-a', '甲贸易', ['alice']);
  b = await setupTenant(h, 'trader-id-b', '乙贸易', ['carol']);
  quotes.addInstrument(a.symbol, 10);
});
afterAll(() => stop?.());

const userRow = async (id: number) =>
  (await h.call('/api/trader/view/users', { filter: `id = ${id}` }, a.token)).body.data.items[0] as Record<
    string,
    unknown
  >;

async function fillOne(pricerId: number, jwt: string) {
  const c = await h.call(
    '/api/trader/rpc/create-contract',
    {
      pricer_id: pricerId,
      product_name: '铜',
      instrument_id: a.symbol,
      direction: 'BUY',
      total_quantity: 5,
      basis: 185,
      fixing_deadline: DEADLINE,
    },
    a.token,
  );
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  quotes.set(a.symbol, {
    last_price: 80_000,
    bid_price1: 80_000,
    ask_price1: 80_000,
    bid_volume1: 5,
    ask_volume1: 5,
    upper_limit: 88_000,
    lower_limit: 72_000,
  });
  const o = await h.call('/api/pricer/rpc/submit-order', { contract_id: c.body.data.id, quantity: 1, price: 0 }, jwt);
  expect(o.status, JSON.stringify(o.body)).toBe(200);
  await service.idle();
  return o.body.data.id as number;
}

describe('customer legal identity', () => {
  it('create-pricer-user takes 客户全称, 联系人 and 手机号, and the users view returns them', async () => {
    const res = await h.call(
      '/api/trader/rpc/create-pricer-user',
      {
        username: 'cable',
        password: 'pw123456',
        full_name: ' 华东铜缆制造有限公司 ',
        contact_name: '王经理',
        phone: '13800138000',
      },
      a.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      full_name: '华东铜缆制造有限公司',
      contact_name: '王经理',
      phone: '13800138000',
    });
    expect(await userRow(res.body.data.id)).toMatchObject({
      username: 'cable',
      full_name: '华东铜缆制造有限公司',
      contact_name: '王经理',
      phone: '13800138000',
      confirm_before_fix: true,
    });
  });

  it('refuses bad identity fields with a Chinese 400 naming the field, and changes nothing', async () => {
    const id = a.pricers.alice!.id;
    const before = await userRow(id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ user_id: id, full_name: '公'.repeat(101) }, 'full_name', '客户全称不能超过 100 个字符'],
      [{ user_id: id, contact_name: 7 }, 'contact_name', '联系人必须是文本'],
      [{ user_id: id, phone: '12345' }, 'phone', '手机号格式不正确'],
      [{ user_id: id, confirm_before_fix: 'no' }, 'confirm_before_fix', '点价前确认必须是 true 或 false'],
      [{ user_id: id }, '', '请至少修改一项客户资料'],
    ];
    for (const [body, field, message] of cases) {
      const res = await h.call(PROFILE, body, a.token);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
      if (field) expect(res.body.error.field).toBe(field);
    }
    const created = await h.call(
      '/api/trader/rpc/create-pricer-user',
      { username: 'longname', password: 'pw123456', full_name: '公'.repeat(101) },
      a.token,
    );
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ field: 'full_name', message: '客户全称不能超过 100 个字符' });
    expect(await userRow(id)).toEqual(before);
    // Another tenant's customer: 404, untouched.
    const other = await h.call(PROFILE, { user_id: b.pricers.carol!.id, full_name: '冒名' }, a.token);
    expect(other.status).toBe(404);
  });

  it('the confirmation and the statement print the full name, the username while it is empty', async () => {
    const alice = a.pricers.alice!;
    const first = await fillOne(alice.id, alice.jwt);
    const conf = async () =>
      (await h.call('/api/trader/view/confirmation', { order_id: first }, a.token)).body.data as Record<
        string,
        unknown
      >;
    expect(await conf()).toMatchObject({ pricer_name: 'alice', pricer_full_name: 'alice', basis: 185 });

    const res = await h.call(
      PROFILE,
      { user_id: alice.id, full_name: '江南饲料科技有限公司', contact_name: '李经理' },
      a.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      full_name: '江南饲料科技有限公司',
      contact_name: '李经理',
      confirm_before_fix: true,
    });
    expect(await conf()).toMatchObject({ pricer_name: 'alice', pricer_full_name: '江南饲料科技有限公司' });
    const mine = await h.call('/api/pricer/view/confirmation', { order_id: first }, alice.jwt);
    expect(mine.body.data.pricer_full_name).toBe('江南饲料科技有限公司');

    const csv = await h.app.inject({
      method: 'GET',
      url: `/api/pricer/export/fixings?start_date=${FROM}&end_date=${TO}&format=csv`,
      headers: { authorization: `Bearer ${alice.jwt}` },
    });
    expect(csv.statusCode).toBe(200);
    const line = csv.payload.split('\r\n').find((l) => l.includes(`,${first}`) && l.startsWith('QR'));
    expect(line?.split(',')[2]).toBe('江南饲料科技有限公司');

    // A blank full name clears it: the username again.
    await h.call(PROFILE, { user_id: alice.id, full_name: '  ' }, a.token);
    expect(await conf()).toMatchObject({ pricer_full_name: 'alice' });
  });

  it('the confirm sheet switch: default on, off by the trader, in the users view and the snapshot, audited', async () => {
    const alice = a.pricers.alice!;
    const snap = async () =>
      (await h.call('/api/pricer/view/my-data-snapshot', {}, alice.jwt)).body.data.confirm_before_fix as boolean;
    expect(await snap()).toBe(true);
    const off = await h.call(PROFILE, { user_id: alice.id, confirm_before_fix: false }, a.token);
    expect(off.status).toBe(200);
    expect(await snap()).toBe(false);
    expect(await userRow(alice.id)).toMatchObject({ confirm_before_fix: false });
    const rows = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'update-pricer-profile')
      .where('tenant_id', '=', a.tenantId)
      .orderBy('id', 'desc')
      .execute();
    const payload = (p: unknown) => (typeof p === 'string' ? JSON.parse(p) : p);
    expect(payload(rows[0]!.payload)).toMatchObject({
      user_id: alice.id,
      before: { confirm_before_fix: true },
      after: { confirm_before_fix: false },
    });
    await h.call(PROFILE, { user_id: alice.id, confirm_before_fix: true }, a.token);
    expect(await snap()).toBe(true);
  });
});
