import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';
import { expireDueConditionals } from '../conditional/conditional';
import { shanghaiToday } from '../contracts/fixingTerms';
import { accountFigures, marginFor } from './arithmetic';
import { markAccounts, watchMarginCalls } from './watch';
import { tradingDayIn } from '../../../test/days';

/*
 * Margin and credit over HTTP (issue 31, docs/margin.md), on the real app with the real trading
 * service and its simulated broker filling against a market the test sets. Copper: tick 10, multiplier 5.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let b: Tenant;
const DEADLINE = tradingDayIn(30);

/** The market of `symbol` trades at `price`, offering `lots` on both sides. */
const market = (symbol: string, price: number, lots = 100) => setMarket(quotes, symbol, price, lots);

const newContract = (t: Tenant, pricer: string, extra: Record<string, unknown> = {}) =>
  createContract<{ id: number; margin_rate: number }>(h, t, pricer, DEADLINE, extra);

const funds = (t: Tenant, body: Record<string, unknown>) => h.call('/api/trader/rpc/record-funds', body, t.token);
const accounts = async (t: Tenant) => (await h.call('/api/trader/view/pricer-accounts', {}, t.token)).body.data;
const accountOf = async (t: Tenant, pricer: string) =>
  (await accounts(t)).items.find((i: { pricer_id: number }) => i.pricer_id === t.pricers[pricer]!.id);
const submit = (t: Tenant, pricer: string, body: Record<string, unknown>) =>
  h.call('/api/pricer/rpc/submit-order', body, t.pricers[pricer]!.jwt);
const ledgerCount = async (pricerId: number) =>
  Number(
    (
      await h.db
        .selectFrom('funds_ledger')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('pricer_id', '=', pricerId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditOf = (tenantId: number, action: string) =>
  h.db
    .selectFrom('audit_log')
    .select(['actor', 'payload'])
    .where('tenant_id', '=', tenantId)
    .where('action', '=', action)
    .orderBy('id')
    .execute();

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf }));
  a = await setupTenant(h, 'trader-margin-a', '甲贸易', ['alice', 'bob', 'cathy', 'dan']);
  b = await setupTenant(h, 'trader-margin-b', '乙贸易', ['erin']);
  quotes.addInstrument(a.symbol, 10);
  market(a.symbol, 80_000);
});
afterAll(() => stop?.());

describe('funds ledger and credit line', () => {
  it('records deposits, withdrawals and adjustments, audited, and answers the account', async () => {
    const alice = a.pricers.alice!.id;
    const dep = await funds(a, { pricer_id: alice, kind: 'deposit', amount: 1000.5, note: '首笔入金' });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    expect(dep.body.data.entry).toMatchObject({
      kind: 'deposit',
      amount: 1000.5,
      balance_after: 1000.5,
      note: '首笔入金',
    });
    expect(dep.body.data.account).toMatchObject({ balance: 1000.5, available: 1000.5, margin_call: false });
    const wd = await funds(a, { pricer_id: alice, kind: 'withdraw', amount: 0.5, note: '' });
    expect(wd.body.data.entry).toMatchObject({ kind: 'withdraw', amount: -0.5, balance_after: 1000 });
    // A wrong entry is reversed by another, never edited.
    const adj = await funds(a, { pricer_id: alice, kind: 'adjust', amount: -1000, note: '冲正' });
    expect(adj.body.data.entry).toMatchObject({ amount: -1000, balance_after: 0 });
    const credit = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 5000 }, a.token);
    expect(credit.status).toBe(200);
    expect(credit.body.data).toMatchObject({ balance: 0, credit_line: 5000, available: 5000 });

    const ledger = await h.call('/api/trader/view/funds-ledger', { pricer_id: alice }, a.token);
    expect(ledger.body.data.items.map((e: { amount: number }) => e.amount)).toEqual([-1000, -0.5, 1000.5]);
    expect((await auditOf(a.tenantId, 'record-funds')).length).toBe(3);
    expect((await auditOf(a.tenantId, 'set-credit-line')).map((r) => r.payload)).toEqual([
      { pricer_id: alice, credit_line: 5000, note: '', from: 0 },
    ]);

    const mine = await h.call('/api/pricer/view/my-funds', {}, a.pricers.alice!.jwt);
    expect(mine.body.data.account).toMatchObject({ pricer_id: alice, balance: 0, credit_line: 5000 });
    expect(mine.body.data.items).toHaveLength(3);
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    expect(snap.body.data.account).toMatchObject({ balance: 0, credit_line: 5000, available: 5000 });
  });

  it('keeps the ledger append-only in the database itself', async () => {
    await expect(sql`update funds_ledger set amount = 1`.execute(h.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from funds_ledger`.execute(h.db)).rejects.toThrow(/append-only/);
  });

  it('refuses bad amounts with a Chinese 400 naming the field, other companies’ customers with 404, and changes nothing', async () => {
    const alice = a.pricers.alice!.id;
    const before = await ledgerCount(alice);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ pricer_id: alice, kind: 'deposit', amount: -1 }, 'amount', /不能为负数/],
      [{ pricer_id: alice, kind: 'deposit', amount: 0 }, 'amount', /不能为 0/],
      [{ pricer_id: alice, kind: 'deposit', amount: 1.234 }, 'amount', /两位小数/],
      [{ pricer_id: alice, kind: 'deposit', amount: 1e13 }, 'amount', /不能超过/],
      [{ pricer_id: alice, kind: 'deposit', amount: '100' }, 'amount', /数字/],
      [{ pricer_id: alice, kind: 'withdraw', amount: -5 }, 'amount', /不能为负数/],
      [{ pricer_id: alice, kind: 'gift', amount: 5 }, 'kind', /资金类型/],
    ];
    for (const [body, field, message] of cases) {
      const res = await funds(a, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.field).toBe(field);
      expect(res.body.error.message).toMatch(message);
    }
    // Infinity cannot be written in JSON by a client library, but it can be sent: 1e999.
    const inf = await h.app.inject({
      method: 'POST',
      url: '/api/trader/rpc/record-funds',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      payload: `{"pricer_id":${alice},"kind":"deposit","amount":1e999}`,
    });
    expect(inf.statusCode).toBe(400);
    expect(inf.json().error.field).toBe('amount');
    const credit = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: -1 }, a.token);
    expect(credit.status).toBe(400);
    expect(credit.body.error).toMatchObject({ field: 'credit_line' });
    expect(credit.body.error.message).toMatch(/授信额度/);

    const erin = b.pricers.erin!.id;
    expect((await funds(a, { pricer_id: erin, kind: 'deposit', amount: 5 })).status).toBe(404);
    expect((await h.call('/api/trader/rpc/set-credit-line', { pricer_id: erin, credit_line: 5 }, a.token)).status).toBe(
      404,
    );
    expect((await h.call('/api/trader/view/funds-ledger', { pricer_id: erin }, a.token)).status).toBe(404);
    expect(await ledgerCount(alice)).toBe(before);
    expect(await ledgerCount(erin)).toBe(0);
    expect((await accountOf(b, 'erin')).credit_line).toBe(0);
  });

  it('refuses a withdrawal beyond what the customer’s own money leaves free (409, Chinese)', async () => {
    const alice = a.pricers.alice!.id;
    const before = await ledgerCount(alice);
    // Balance 0, credit line 5,000: the credit line is not cash.
    const res = await funds(a, { pricer_id: alice, kind: 'withdraw', amount: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('出金金额超过可出金额（可出 0.00 元）');
    expect(await ledgerCount(alice)).toBe(before);
  });
});

describe('margin terms', () => {
  it('takes margin_rate on create-contract (0 … 1), the company default otherwise, and shows it', async () => {
    expect((await h.call('/api/trader/view/margin-settings', {}, a.token)).body.data).toEqual({
      default_margin_rate: 0,
      product_rates: [],
    });
    const bad = await h.call(
      '/api/trader/rpc/create-contract',
      {
        pricer_id: a.pricers.dan!.id,
        product_name: '铜',
        instrument_id: a.symbol,
        direction: 'BUY',
        total_quantity: 1,
        basis: 0,
        fixing_deadline: DEADLINE,
        margin_rate: 1.5,
      },
      a.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ field: 'margin_rate', message: '保证金比例应在 0 到 1 之间' });
    const set = await h.call('/api/trader/rpc/set-margin-settings', { default_margin_rate: 0.15 }, a.token);
    expect(set.body.data).toEqual({ default_margin_rate: 0.15, product_rates: [] });
    const byDefault = await newContract(a, 'dan');
    expect(byDefault.margin_rate).toBe(0.15);
    const own = await newContract(a, 'dan', { margin_rate: 0.05 });
    expect(own.margin_rate).toBe(0.05);
    await h.call('/api/trader/rpc/set-margin-settings', { default_margin_rate: 0 }, a.token);
    const view = await h.call('/api/trader/view/contracts', { filter: `pricer_name = 'dan'` }, a.token);
    const rates = view.body.data.items.map((c: { margin_rate: number; settled_quantity: number }) => [
      c.margin_rate,
      c.settled_quantity,
    ]);
    expect(rates).toEqual(
      expect.arrayContaining([
        [0.15, 0],
        [0.05, 0],
      ]),
    );
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.dan!.jwt);
    expect(snap.body.data.contracts.map((c: { margin_rate: number }) => c.margin_rate).sort()).toEqual([0.05, 0.15]);
  });
});

describe('every fixing checked before it goes out', () => {
  it('refuses a fixing the money does not back with 409 insufficient_margin naming the shortfall, and nothing changes', async () => {
    const cathy = a.pricers.cathy!.id;
    await funds(a, { pricer_id: cathy, kind: 'deposit', amount: 10_000 });
    const c = await newContract(a, 'cathy', { margin_rate: 0.1, basis: 0 });
    // 1 lot at 75,000: 75,000 × 5 × 0.1 = 37,500 needed, 10,000 available.
    const before = await h.db.selectFrom('contracts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    const res = await submit(a, 'cathy', { contract_id: c.id, quantity: 1, price: 75_000 });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'insufficient_margin',
      message: '可用保证金不足：本次点价需保证金 37,500.00 元，可用 10,000.00 元，还差 27,500.00 元',
    });
    const after = await h.db.selectFrom('contracts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await h.db.selectFrom('orders').select('id').where('contract_id', '=', c.id).execute()).toEqual([]);
    // A market order is valued at the last price: 80,000 × 5 × 0.1 = 40,000.
    const mkt = await submit(a, 'cathy', { contract_id: c.id, quantity: 1, price: 0 });
    expect(mkt.body.error.message).toContain('本次点价需保证金 40,000.00 元');
    // A 条件单 holds its margin from creation: 70,000 × 5 × 0.1 = 35,000.
    const cond = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: c.id, quantity: 1, trigger_op: '<=', trigger_price: 70_000, order_price: 70_000 },
      a.pricers.cathy!.jwt,
    );
    expect(cond.status).toBe(409);
    expect(cond.body.error.code).toBe('insufficient_margin');
    // With enough money: held from creation, released on cancel.
    await funds(a, { pricer_id: cathy, kind: 'deposit', amount: 30_000 });
    const ok = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: c.id, quantity: 1, trigger_op: '<=', trigger_price: 70_000, order_price: 70_000 },
      a.pricers.cathy!.jwt,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await accountOf(a, 'cathy')).toMatchObject({ margin_required: 35_000, available: 5_000 });
    await h.call('/api/pricer/rpc/cancel-conditional-order', { id: ok.body.data.id }, a.pricers.cathy!.jwt);
    expect(await accountOf(a, 'cathy')).toMatchObject({ margin_required: 0, available: 40_000 });
    // …and on expiry.
    const soon = new Date(Date.now() + 60_000).toISOString();
    const expiring = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      {
        contract_id: c.id,
        quantity: 1,
        trigger_op: '<=',
        trigger_price: 70_000,
        order_price: 70_000,
        expires_at: soon,
      },
      a.pricers.cathy!.jwt,
    );
    expect(expiring.status, JSON.stringify(expiring.body)).toBe(200);
    expect(await accountOf(a, 'cathy')).toMatchObject({ margin_required: 35_000 });
    expect(await expireDueConditionals(h.db, new Date(Date.now() + 120_000))).toContain(expiring.body.data.id);
    expect(await accountOf(a, 'cathy')).toMatchObject({ margin_required: 0, available: 40_000 });
  });

  it('lets concurrent fixings of one customer together take no more than available (10 × 30 % → 3)', async () => {
    const bob = a.pricers.bob!.id;
    await funds(a, { pricer_id: bob, kind: 'deposit', amount: 125_000 });
    // Two contracts: the lock is the customer's account, not the contract row.
    const c1 = await newContract(a, 'bob', { margin_rate: 0.1, basis: 0 });
    const c2 = await newContract(a, 'bob', { margin_rate: 0.1, basis: 0 });
    // Each: 1 lot at 75,000 (rests below the market): 37,500 = 30 % of 125,000.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        submit(a, 'bob', { contract_id: i % 2 ? c1.id : c2.id, quantity: 1, price: 75_000 }),
      ),
    );
    const accepted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 409 && r.body.error.code === 'insufficient_margin').length;
    console.log(`race (${process.env.TEST_DB}): ${accepted} accepted, ${refused} refused of 10`);
    expect(accepted).toBe(3);
    expect(refused).toBe(7);
    expect(await accountOf(a, 'bob')).toMatchObject({ margin_required: 112_500, available: 12_500 });
  });
});

describe('the check inside the fixing’s own statement (a contract fixed before in this process)', () => {
  it('counts the customer’s holdings on another instrument and lets 10 racing fixings take no more than available', async () => {
    const t = await setupTenant(h, 'trader-margin-c', '丙贸易', ['fay']);
    const fay = t.pricers.fay!.id;
    const other = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, t.token)).body.data.items[2]
      .symbol as string;
    expect(other).not.toBe(t.symbol);
    quotes.addInstrument(other, 10);
    await funds(t, { pricer_id: fay, kind: 'deposit', amount: 500_000 });
    // A holding on the other month: 2 lots bought at 70,000 (margin 70,000 × 2 × 5 × 0.1 = 70,000).
    market(other, 70_000);
    const held = await createContract<{ id: number }>(h, t, 'fay', DEADLINE, {
      instrument_id: other,
      margin_rate: 0.1,
      basis: 0,
    });
    expect((await submit(t, 'fay', { contract_id: held.id, quantity: 2, price: 0 })).status).toBe(200);
    await service.idle();
    market(t.symbol, 80_000);
    const c1 = await createContract<{ id: number }>(h, t, 'fay', DEADLINE, { margin_rate: 0.1, basis: 0 });
    // The first fixing of c1 in this process (the checked transaction): 1 lot resting at 75,000 holds 37,500.
    expect((await submit(t, 'fay', { contract_id: c1.id, quantity: 1, price: 75_000 })).status).toBe(200);
    // The other month falls 30,000 a lot-unit: floating P/L (40,000 − 70,000) × 2 × 5 = −300,000.
    market(other, 40_000);
    expect(await accountOf(t, 'fay')).toMatchObject({
      margin_required: 107_500,
      floating_pnl: -300_000,
      available: 92_500,
    });
    // The next fixing of c1 runs in one statement; the loss on the other month is counted there too.
    const short = await submit(t, 'fay', { contract_id: c1.id, quantity: 3, price: 75_000 });
    expect(short.status).toBe(409);
    expect(short.body.error.message).toBe(
      '可用保证金不足：本次点价需保证金 112,500.00 元，可用 92,500.00 元，还差 20,000.00 元',
    );
    // Available brought to 125,000; 10 racing fixings of 37,500 (30 %) each: 3 go out.
    await funds(t, { pricer_id: fay, kind: 'deposit', amount: 32_500 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submit(t, 'fay', { contract_id: c1.id, quantity: 1, price: 75_000 })),
    );
    const accepted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 409 && r.body.error.code === 'insufficient_margin').length;
    console.log(`one-statement race (${process.env.TEST_DB}): ${accepted} accepted, ${refused} refused of 10`);
    expect([accepted, refused]).toEqual([3, 7]);
    expect(await accountOf(t, 'fay')).toMatchObject({ margin_required: 220_000, available: 12_500 });
    // The market put back for the tests after this one.
    market(other, 80_000);
  });
});

describe('a market fixing without a market', () => {
  it('is refused when no live price values its margin, and nothing changes', async () => {
    const t = await setupTenant(h, 'trader-margin-d', '丁贸易', ['gus']);
    const quiet = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, t.token)).body.data.items[3]
      .symbol as string;
    expect(quotes.getQuote(quiet)).toBeUndefined();
    await funds(t, { pricer_id: t.pricers.gus!.id, kind: 'deposit', amount: 1_000_000 });
    const c = await createContract<{ id: number }>(h, t, 'gus', DEADLINE, {
      instrument_id: quiet,
      margin_rate: 0.1,
      basis: 0,
    });
    const before = await h.db.selectFrom('contracts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    for (let i = 0; i < 2; i++) {
      // The first on the checked transaction, the second after a limit fixing made the contract known.
      const res = await submit(t, 'gus', { contract_id: c.id, quantity: 1, price: 0 });
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'insufficient_margin',
        message: '暂无行情，无法计算市价点价所需的保证金，请以限价点价',
      });
      if (i === 0) {
        const limit = await submit(t, 'gus', { contract_id: c.id, quantity: 1, price: 75_000 });
        expect(limit.status, JSON.stringify(limit.body)).toBe(200);
        await service.idle();
        await h.call('/api/trader/rpc/cancel-order', { order_id: limit.body.data.id }, t.token);
        await service.idle();
      }
    }
    const after = await h.db.selectFrom('contracts').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    expect(await h.db.selectFrom('orders').select('status').where('contract_id', '=', c.id).execute()).toEqual([
      { status: 'CANCELLED' },
    ]);
  });
});

describe('the walk: deposit → fix → market against → call → deposit → call ends → settle → released', () => {
  it('recomputes docs/margin.md’s worked example', async () => {
    const alice = a.pricers.alice!.id;
    // Alice has balance 0 and a credit line of 5,000 from above; bring her to the example's 100,000 / 20,000.
    await funds(a, { pricer_id: alice, kind: 'deposit', amount: 100_000, note: '入金' });
    await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 20_000 }, a.token);
    const c = await newContract(a, 'alice', { margin_rate: 0.1, basis: 150 });
    // A contract without margin: fixed on the one-statement path while she is not in a call.
    const free = await newContract(a, 'alice', { margin_rate: 0, basis: 0 });
    market(a.symbol, 80_000);
    for (let i = 0; i < 2; i++)
      expect((await submit(a, 'alice', { contract_id: free.id, quantity: 1, price: 76_000 })).status).toBe(200);

    // Fix 2 lots at market: filled at 80,000; margin (80,000 + 150) × 2 × 5 × 0.1 = 80,150.
    const fix = await submit(a, 'alice', { contract_id: c.id, quantity: 2, price: 0 });
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();
    expect(marginFor(0.1, 80_000, 150, 2, 5)).toBe(80_150);
    expect(await accountOf(a, 'alice')).toEqual({
      pricer_id: alice,
      pricer_name: 'alice',
      balance: 100_000,
      credit_line: 20_000,
      margin_required: 80_150,
      floating_pnl: 0,
      available: 39_850,
      margin_call: false,
      call_amount: 0,
    });

    // The market falls to 75,000: (75,000 − 80,000) × 2 × 5 = −50,000; available −10,150: a margin call.
    market(a.symbol, 75_000);
    const expected = accountFigures(
      { balance: 100_000, credit_line: 20_000 },
      [
        {
          kind: 'F',
          pricer_id: alice,
          instrument_id: a.symbol,
          direction: 'BUY',
          rate: 0.1,
          multiplier: 5,
          lots: 2,
          price: 80_000,
          basis: 150,
        },
      ],
      () => 75_000,
    );
    expect(expected).toMatchObject({ floating_pnl: -50_000, available: -10_150, call_amount: 10_150 });
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    expect(snap.body.data.account).toMatchObject({ ...expected, margin_call: true });
    expect((await accounts(a)).items[0]).toMatchObject({ pricer_id: alice, margin_call: true, call_amount: 10_150 });
    // The reads show the call; the margin watcher records it (woken by the tick in the server; calls.api.test.ts).
    expect(await auditOf(a.tenantId, 'margin-call')).toEqual([]);
    await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price);
    expect((await auditOf(a.tenantId, 'margin-call')).map((r) => r.payload)).toEqual([
      expect.objectContaining({ pricer_id: alice, call_amount: 10_150 }),
    ]);
    // New fixings are refused with the reason, even a small one.
    const refused = await submit(a, 'alice', { contract_id: c.id, quantity: 1, price: 70_000 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_margin',
      message: '账户处于追加保证金状态，需追加 10,150.00 元后才能点价',
    });
    // …also on a contract without margin.
    const freeRefused = await submit(a, 'alice', { contract_id: free.id, quantity: 1, price: 76_000 });
    expect(freeRefused.status).toBe(409);
    expect(freeRefused.body.error.message).toBe('账户处于追加保证金状态，需追加 10,150.00 元后才能点价');
    expect(await h.db.selectFrom('orders').select('id').where('contract_id', '=', free.id).execute()).toHaveLength(2);

    // A deposit of 15,000 ends the call: available 4,850.
    const dep = await funds(a, { pricer_id: alice, kind: 'deposit', amount: 15_000, note: '追加保证金' });
    expect(dep.body.data.account).toMatchObject({ available: 4_850, margin_call: false, call_amount: 0 });
    await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price);
    expect((await auditOf(a.tenantId, 'margin-call-end')).map((r) => r.payload)).toEqual([
      expect.objectContaining({ pricer_id: alice, available: 4_850 }),
    ]);

    // Settlement of more than fixed is refused; of the 2 lots, releases their margin and floating P/L.
    const tooMany = await h.call('/api/trader/rpc/settle-lots', { contract_id: c.id, quantity: 3 }, a.token);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toBe('结算手数不能超过已点价未结算的 2 手');
    const other = await h.call('/api/trader/rpc/settle-lots', { contract_id: c.id, quantity: 1 }, b.token);
    expect(other.status).toBe(404);
    const settled = await h.call(
      '/api/trader/rpc/settle-lots',
      { contract_id: c.id, quantity: 2, note: '交货' },
      a.token,
    );
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect(settled.body.data).toMatchObject({
      contract_id: c.id,
      executed_quantity: 2,
      settled_quantity: 2,
      account: { balance: 115_000, credit_line: 20_000, margin_required: 0, floating_pnl: 0, available: 135_000 },
    });
    const after = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    expect(after.body.data.contracts.find((x: { id: number }) => x.id === c.id)).toMatchObject({
      settled_quantity: 2,
      margin_rate: 0.1,
    });
    expect((await auditOf(a.tenantId, 'settle-lots')).length).toBe(1);
  });
});

describe('the server marks accounts on its own', () => {
  it('finds a margin call and its end between reads, audited by 系统', async () => {
    const dan = a.pricers.dan!.id;
    await funds(a, { pricer_id: dan, kind: 'deposit', amount: 50_000 });
    const c = await newContract(a, 'dan', { margin_rate: 0.05, basis: 150, direction: 'SELL' });
    market(a.symbol, 80_000);
    const fix = await submit(a, 'dan', { contract_id: c.id, quantity: 1, price: 0 });
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();
    const watch = watchMarginCalls({
      db: h.db,
      lastPrice: (s) => quotes.getQuote(s)?.last_price ?? undefined,
      everyMs: 3_600_000,
    });
    const calls = async () =>
      (await auditOf(a.tenantId, 'margin-call'))
        .concat(await auditOf(a.tenantId, 'margin-call-end'))
        .filter((r) => (r.payload as { pricer_id: number }).pricer_id === dan);
    // A seller who fixed at 80,000 loses when the market rises: (80,000 − 90,000) × 1 × 5 = −50,000;
    // margin (80,000 + 150) × 5 × 0.05 = 20,037.50; available 50,000 − 20,037.50 − 50,000 = −20,037.50.
    market(a.symbol, 90_000, 0);
    await watch.runOnce();
    expect(await calls()).toEqual([
      { actor: 'system', payload: expect.objectContaining({ call_amount: 20_037.5, floating_pnl: -50_000 }) },
    ]);
    market(a.symbol, 80_000, 0);
    await watch.runOnce();
    expect((await calls()).map((r) => (r.payload as { available: number }).available)).toEqual([-20_037.5, 29_962.5]);
    await watch.stop();
  });
});

describe('statements', () => {
  it('carry the customer’s funds entries of the range on a sheet 资金流水', async () => {
    const day = shanghaiToday(new Date());
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/pricer/export/fixings?start_date=${day}&end_date=${day}&format=xlsx`,
      headers: { authorization: `Bearer ${a.pricers.alice!.jwt}` },
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('资金流水')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(2)));
    expect(rows[0]).toEqual(['客户', '类型', '金额（元）', '余额（元）', '备注']);
    // Only alice's own entries: deposit, withdrawal, reversal, then the walk's two deposits.
    expect(rows.slice(1)).toEqual([
      ['alice', '入金', 1000.5, 1000.5, '首笔入金'],
      ['alice', '出金', -0.5, 1000],
      ['alice', '调整', -1000, 0, '冲正'],
      ['alice', '入金', 100_000, 100_000, '入金'],
      ['alice', '入金', 15_000, 115_000, '追加保证金'],
    ]);
  });
});
