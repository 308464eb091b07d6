import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingDayIn } from '../../../test/days';
import { startHarness, type Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';

/*
 * The auto rule with a spread band for 转月 applications (issue 42 item 3, docs/roles.md), over HTTP on
 * PGlite and PostgreSQL: off by default (the trader prices); on, an application is priced at once at the
 * live 月差 on the company's side when it is within the band of the last prices' 月差, else left 待报价;
 * the rule is the admin's, validated, and audited, and so is each offer it makes (by 系统).
 */

let h: Harness;
let a: Tenant;
let near: string;
let far: string;
let traderToken: string;
const DEADLINE = tradingDayIn(20);
/** Copper near 80,000 / 80,010 (last 80,000), far 80,140 / 80,160 (last 80,150): the last prices' 月差 −150. */
const quotes: Record<string, { bid_price1: number; ask_price1: number; last_price: number }> = {};
const APPLY = '/api/pricer/rpc/apply-roll';
const SET = '/api/trader/rpc/set-roll-auto-pricing';

const apply = async (direction: 'BUY' | 'SELL' = 'BUY') => {
  const { id } = await createContract(h, a, 'alice', DEADLINE, { direction });
  const res = await h.call(APPLY, { contract_id: id, quantity: 4, to_instrument_id: far }, a.pricers.alice!.jwt);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; status: string; spread: number | null; fee_per_unit: number | null };
};
const rule = (body: Record<string, unknown>, token = a.token) => h.call(SET, body, token);

beforeAll(async () => {
  h = await startHarness({ quote: (s) => quotes[s] });
  a = await setupTenant(h, 'trader-autoroll', '甲贸易', ['alice']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, a.token)).body.data.items;
  near = a.symbol;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > near);
  quotes[near] = { bid_price1: 80_000, ask_price1: 80_010, last_price: 80_000 };
  quotes[far] = { bid_price1: 80_140, ask_price1: 80_160, last_price: 80_150 };
  const staff = await h.call(
    '/api/trader/rpc/create-staff',
    { username: 'tr-auto', password: 'staff-pass-1', full_name: '周交易', roles: ['trader'] },
    a.token,
  );
  traderToken = await h.idp.sign({}, { sub: staff.body.data.user_id });
});
afterAll(() => h?.close());

describe('转月 auto pricing with a spread band', () => {
  it('is off by default: an application waits for the trader', async () => {
    const view = await h.call('/api/trader/view/roll-auto-pricing', {}, traderToken);
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({ enabled: false });
    expect((await apply()).status).toBe('pending');
  });

  it('is the admin’s, validated, and audited', async () => {
    const byTrader = await rule(
      { enabled: true, max_spread_deviation: 20, fee_per_unit: 2, valid_seconds: 120 },
      traderToken,
    );
    expect(byTrader.status).toBe(403);
    expect(byTrader.body.error.message).toContain('管理员');
    const negative = await rule({ enabled: true, max_spread_deviation: -1, fee_per_unit: 2, valid_seconds: 120 });
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toBe('月差偏离上限不能为负数');
    const short = await rule({ enabled: true, max_spread_deviation: 20, valid_seconds: 5 });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('报价有效期至少 10 秒');
    expect((await h.call('/api/trader/view/roll-auto-pricing', {}, a.token)).body.data.enabled).toBe(false);

    const ok = await rule({ enabled: true, max_spread_deviation: 20, fee_per_unit: 2, valid_seconds: 120 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toEqual({ enabled: true, max_spread_deviation: 20, fee_per_unit: 2, valid_seconds: 120 });
    const audit = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'set-roll-auto-pricing')
      .executeTakeFirstOrThrow();
    expect(audit.payload).toMatchObject({ enabled: true, max_spread_deviation: 20 });
  });

  it('prices within the band at the company’s side of the live spread, by 系统, and tells the customer', async () => {
    // A buyer's contract: near ask − far bid = 80,010 − 80,140 = −130; −150 ± 20 holds it.
    const buy = await apply('BUY');
    expect(buy).toMatchObject({ status: 'priced', spread: -130, fee_per_unit: 2 });
    const row = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'payload'])
      .where('action', '=', 'price-roll')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.actor).toBe('system');
    expect(row.payload).toMatchObject({
      application_id: buy.id,
      spread: -130,
      reference_spread: -150,
      max_spread_deviation: 20,
    });
    const notes = await h.call('/api/pricer/view/notifications', {}, a.pricers.alice!.jwt);
    expect(notes.body.data.items.some((n: { kind: string }) => n.kind === 'roll_application')).toBe(true);
    // A seller's contract: near bid − far ask = 80,000 − 80,160 = −160.
    expect(await apply('SELL')).toMatchObject({ status: 'priced', spread: -160 });
    // The customer accepts the system's offer as a trader's: the roll runs.
    const accepted = await h.call('/api/pricer/rpc/accept-roll', { application_id: buy.id }, a.pricers.alice!.jwt);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data.status).toBe('accepted');
  });

  it('leaves to the trader a spread outside the band, or a market with a side unknown', async () => {
    expect((await rule({ enabled: true, max_spread_deviation: 10, valid_seconds: 120 })).status).toBe(200);
    // −130 is 20 from −150: outside ±10.
    expect(await apply('BUY')).toMatchObject({ status: 'pending', spread: null });
    // −160 is 10 from −150: inside.
    expect(await apply('SELL')).toMatchObject({ status: 'priced', spread: -160, fee_per_unit: 0 });
    const saved = quotes[far]!;
    delete quotes[far];
    try {
      expect((await apply('SELL')).status).toBe('pending');
    } finally {
      quotes[far] = saved;
    }
    expect((await rule({ enabled: false, max_spread_deviation: 10, valid_seconds: 120 })).status).toBe(200);
    expect((await apply('SELL')).status).toBe('pending');
  });
});
