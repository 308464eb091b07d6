import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';
import { tradingDayIn } from '../../../test/days';

/*
 * Issue 41 §1–2 (docs/margin.md "Which rate a contract gets", "Value"): margin on by default and the
 * value of every contract and customer, over HTTP on the real app and trading service. Copper:
 * tick 10, multiplier 5.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let t: Tenant;
const DEADLINE = tradingDayIn(30);
const MULTIPLIER = 5;

const newContract = (pricer: string, extra: Record<string, unknown> = {}) =>
  createContract<{ id: number; margin_rate: number }>(h, t, pricer, DEADLINE, extra);
const submit = (pricer: string, body: Record<string, unknown>) =>
  h.call('/api/pricer/rpc/submit-order', body, t.pricers[pricer]!.jwt);
const accountOf = async (pricer: string) =>
  (await h.call('/api/trader/view/pricer-accounts', {}, t.token)).body.data.items.find(
    (i: { pricer_id: number }) => i.pricer_id === t.pricers[pricer]!.id,
  );
const values = async (body: Record<string, unknown> = {}) =>
  (await h.call('/api/trader/view/contract-values', body, t.token)).body.data;

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf }));
  // A new company as the console creates it: its default margin is on.
  t = await setupTenant(h, 'trader-defaults', '丙贸易', ['ning', 'ou', 'pan'], { marginDefault: 'new-company' });
  quotes.addInstrument(t.symbol, 10);
  setMarket(quotes, t.symbol, 80_000);
});
afterAll(() => stop?.());

describe('margin on by default', () => {
  it('a new company starts at 10 %; a contract created without a rate carries it and holds margin', async () => {
    expect((await h.call('/api/trader/view/margin-settings', {}, t.token)).body.data).toEqual({
      default_margin_rate: 0.1,
      product_rates: [],
    });
    const c = await newContract('ning');
    expect(c.margin_rate).toBe(0.1);
    // The case: two new customers with nothing deposited fixed lots and read 正常 with P/L 0.
    // Now the fixing needs (80,000 + 150) × 2 × 5 × 10 % = 80,150 元 they do not have.
    const refused = await submit('ning', { contract_id: c.id, quantity: 2, price: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'insufficient_margin',
      message: '可用保证金不足：本次点价需保证金 80,150.00 元，可用 0.00 元，还差 80,150.00 元',
    });
    await h.call('/api/trader/rpc/set-credit-line', { pricer_id: t.pricers.ning!.id, credit_line: 100_000 }, t.token);
    const fix = await submit('ning', { contract_id: c.id, quantity: 2, price: 0 });
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();
    expect(await accountOf('ning')).toMatchObject({ margin_required: 80_150, floating_pnl: 0, available: 19_850 });
    // The market falls 3,000: (77,000 − 80,000) × 2 × 5 = −30,000, available −10,150: a call.
    setMarket(quotes, t.symbol, 77_000);
    expect(await accountOf('ning')).toMatchObject({ floating_pnl: -30_000, margin_call: true, call_amount: 10_150 });
    setMarket(quotes, t.symbol, 80_000);
  });

  it('resolves the rate: the contract’s own (0 accepted), else the customer’s, the product’s, the company’s', async () => {
    const set = await h.call(
      '/api/trader/rpc/set-margin-settings',
      { default_margin_rate: 0.1, product_rates: [{ product_name: '铜', margin_rate: 0.12 }] },
      t.token,
    );
    expect(set.body.data).toEqual({
      default_margin_rate: 0.1,
      product_rates: [{ product_name: '铜', margin_rate: 0.12 }],
    });
    const rateFor = async (pricer: string) =>
      (
        await h.call(
          '/api/trader/view/effective-margin-rate',
          { pricer_id: t.pricers[pricer]!.id, product_name: '铜' },
          t.token,
        )
      ).body.data;
    expect(await rateFor('ou')).toEqual({ margin_rate: 0.12, source: 'product' });
    expect((await newContract('ou')).margin_rate).toBe(0.12);
    // The customer's own rate, set on the edit form.
    const own = await h.call(
      '/api/trader/rpc/update-pricer-profile',
      { user_id: t.pricers.ou!.id, margin_rate: 0.2 },
      t.token,
    );
    expect(own.body.data.margin_rate).toBe(0.2);
    expect(await rateFor('ou')).toEqual({ margin_rate: 0.2, source: 'customer' });
    expect((await newContract('ou')).margin_rate).toBe(0.2);
    expect((await newContract('ou', { margin_rate: null })).margin_rate).toBe(0.2);
    // An explicit 0 is accepted: those lots hold no margin, and fix with nothing deposited.
    const free = await newContract('ou', { margin_rate: 0 });
    expect(free.margin_rate).toBe(0);
    expect((await submit('ou', { contract_id: free.id, quantity: 1, price: 0 })).status).toBe(200);
    await service.idle();
    expect(await accountOf('ou')).toMatchObject({ margin_required: 0, margin_call: false });
    const audits = await h.db
      .selectFrom('audit_log')
      .select('payload')
      .where('tenant_id', '=', t.tenantId)
      .where('action', '=', 'create-contract')
      .orderBy('id')
      .execute();
    const rateOf = (p: unknown) => {
      const { margin_rate, margin_rate_source } = p as { margin_rate: number; margin_rate_source: string };
      return [margin_rate, margin_rate_source];
    };
    expect(audits.map((a) => rateOf(a.payload))).toEqual([
      [0.1, 'company'],
      [0.12, 'product'],
      [0.2, 'customer'],
      [0.2, 'customer'],
      [0, 'contract'],
    ]);
    // Back to the company's rate; a bad rate is a Chinese 400 naming the field, and changes nothing.
    await h.call('/api/trader/rpc/update-pricer-profile', { user_id: t.pricers.ou!.id, margin_rate: null }, t.token);
    expect(await rateFor('ou')).toEqual({ margin_rate: 0.12, source: 'product' });
    const bad = await h.call(
      '/api/trader/rpc/set-margin-settings',
      { default_margin_rate: 0.1, product_rates: [{ product_name: '铜', margin_rate: 2 }] },
      t.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('保证金比例应在 0 到 1 之间');
    expect(await rateFor('ou')).toEqual({ margin_rate: 0.12, source: 'product' });
    const customer = await h.call(
      '/api/trader/rpc/create-pricer-user',
      { username: 'qin', password: 'pw123', margin_rate: 0.3 },
      t.token,
    );
    expect(customer.body.data.margin_rate).toBe(0.3);
  });
});

describe('contract-values', () => {
  it('values every contract and customer at the fixed price and at the market, with or without margin', async () => {
    // ou holds 1 lot fixed at 80,000 on a contract without margin (basis 150, BUY).
    setMarket(quotes, t.symbol, 81_000);
    const v = await values();
    const ou = v.items.filter((i: { pricer_id: number; open_lots: number }) => i.pricer_id === t.pricers.ou!.id);
    const fixed = ou.find((i: { open_lots: number }) => i.open_lots > 0);
    // By hand: (80,000 + 150) × 1 × 5 = 400,750 fixed; (81,000 + 150) × 1 × 5 = 405,750 at market.
    expect(fixed).toMatchObject({
      margin_rate: 0,
      open_lots: 1,
      open_quantity: 5,
      multiplier: MULTIPLIER,
      unit: '吨',
      fixed_futures_price: 80_000,
      fixed_price: 80_150,
      market_futures_price: 81_000,
      market_price: 81_150,
      fixed_value: 80_150 * 1 * MULTIPLIER,
      market_value: 81_150 * 1 * MULTIPLIER,
      pnl_per_unit: 1_000,
      floating_pnl: 1_000 * 1 * MULTIPLIER,
    });
    // ning: 2 lots at 80,000 with margin: (81,000 − 80,000) × 2 × 5 = 10,000.
    const byCustomer = (pricer: string) =>
      v.customers.find((c: { pricer_id: number }) => c.pricer_id === t.pricers[pricer]!.id);
    expect(byCustomer('ning')).toMatchObject({
      open_lots: 2,
      fixed_value: 80_150 * 2 * MULTIPLIER,
      market_value: 81_150 * 2 * MULTIPLIER,
      floating_pnl: 10_000,
      unpriced_contracts: 0,
    });
    expect(byCustomer('ou')).toMatchObject({ open_lots: 1, floating_pnl: 5_000 });
    // A customer without contracts reads 0; a seller gains when the market falls.
    expect(byCustomer('pan')).toMatchObject({ open_lots: 0, fixed_value: 0, market_value: 0, floating_pnl: 0 });
    // One customer's, and the customer's own view (never another's).
    const one = await values({ pricer_id: t.pricers.ning!.id });
    expect(one.customers.map((c: { pricer_id: number }) => c.pricer_id)).toEqual([t.pricers.ning!.id]);
    const mine = (await h.call('/api/pricer/view/my-contract-values', {}, t.pricers.ning!.jwt)).body.data;
    expect(mine.customers).toEqual(one.customers);
    expect(new Set(mine.items.map((i: { pricer_id: number }) => i.pricer_id))).toEqual(new Set([t.pricers.ning!.id]));
    const bad = await h.call('/api/trader/view/contract-values', { pricer_id: 'x' }, t.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('pricer_id');
    // Without a live price: the market figures are unknown, the customer counts the contract at its fixed value.
    setMarket(quotes, t.symbol, 0);
    const dark = (await values({ pricer_id: t.pricers.ning!.id })).customers[0];
    expect(dark).toMatchObject({ market_value: 80_150 * 2 * MULTIPLIER, floating_pnl: 0, unpriced_contracts: 1 });
    setMarket(quotes, t.symbol, 80_000);
  });
});
