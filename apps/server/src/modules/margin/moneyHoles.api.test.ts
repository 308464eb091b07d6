import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket, waitFor } from '../../../test/trading/testSupport';
import { loadConfig } from '../../platform/config';
import type { TradingService } from '../../trading/service';
import { addCalendarDays, tradingDayOnOrAfter } from '@pfp/contract';
import { tradingDayIn } from '../../../test/days';

/*
 * Issue 40's money-path probe, re-run over HTTP on the real app and its simulated broker: a market
 * 条件单 that fixed 30× the margin, a basis that made margin negative, deadlocks of one customer's
 * fixings, 转月 and 延期, and a margin setting answered as it was not stored. Copper: tick 10, multiplier 5.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let t: Tenant;
let far: string;
// Deadlines on trading days (docs/calendar.md): the contracts' and a later one to extend them to.
const DEADLINE = tradingDayIn(10);
const LATER = tradingDayOnOrAfter('SHFE', addCalendarDays(DEADLINE, 1));

const market = (price: number) => setMarket(quotes, t.symbol, price, 1_000);
const funds = (pricer: string, body: Record<string, unknown>) =>
  h.call('/api/trader/rpc/record-funds', { pricer_id: t.pricers[pricer]!.id, ...body }, t.token);
const accountOf = async (pricer: string) =>
  (await h.call('/api/trader/view/pricer-accounts', {}, t.token)).body.data.items.find(
    (i: { pricer_id: number }) => i.pricer_id === t.pricers[pricer]!.id,
  );
const asPricer = (pricer: string, path: string, body: Record<string, unknown>) =>
  h.call(path, body, t.pricers[pricer]!.jwt);
const conditional = (id: number) =>
  h.db.selectFrom('conditional_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const lotsOf = (contractId: number) =>
  h.db
    .selectFrom('contracts')
    .select(['executed_quantity', 'frozen_quantity', 'remaining_quantity'])
    .where('id', '=', contractId)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({
    quote: (q) => q.quoteOf,
    app: {
      // Load shedding off: the mix is 10 calls at once on a shared machine, and a 503 here would say nothing.
      config: {
        ...loadConfig({ LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000', OVERLOAD_MAX_LOOP_DELAY_MS: '0' }),
        appsDir: null,
        overload: { maxInFlight: 0, maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0 },
      },
    },
  }));
  t = await setupTenant(h, 'trader-money-holes', '甲贸易', ['amy', 'ben', 'cal', 'dee', 'zoe']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, t.token)).body.data.items;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > t.symbol);
  quotes.addInstrument(t.symbol, 10);
  quotes.addInstrument(far, 10);
  market(6_000);
  setMarket(quotes, far, 6_000, 1_000);
});
afterAll(() => stop?.());

describe('a market 条件单 (issue 40 §1)', () => {
  it('is margined at the worse of its trigger and the live price: 100 lots on 10,000 元 refused like the order', async () => {
    await funds('amy', { kind: 'deposit', amount: 10_000 });
    const c = await createContract<{ id: number }>(h, t, 'amy', DEADLINE, {
      margin_rate: 0.1,
      basis: 0,
      total_quantity: 200,
    });
    // 10,000 元 backs 3 lots at 6,000 (6,000 × 5 × 0.1 = 3,000 a lot).
    const order = await asPricer('amy', '/api/pricer/rpc/submit-order', { contract_id: c.id, quantity: 100, price: 0 });
    expect(order.status).toBe(409);
    expect(order.body.error.code).toBe('insufficient_margin');
    const cond = await asPricer('amy', '/api/pricer/rpc/create-conditional-order', {
      contract_id: c.id,
      quantity: 100,
      trigger_op: '>=',
      trigger_price: 10,
      order_price: 0,
    });
    if (cond.status === 200) {
      // Before the fix: margined at 10 元 and fired at the next tick; nothing may have filled.
      await waitFor(async () => {
        market(6_000);
        return (await conditional(cond.body.data.id)).status !== 'WAITING';
      }).catch(() => undefined);
      await service.idle();
    }
    const filled = await lotsOf(c.id);
    console.log(
      `§1 create (${process.env.TEST_DB}): ${cond.status} ${cond.body.error?.message ?? ''}; executed ${filled.executed_quantity}, ` +
        `available ${(await accountOf('amy')).available}`,
    );
    expect(cond.status).toBe(409);
    expect(cond.body.error).toEqual({
      code: 'insufficient_margin',
      message: '可用保证金不足：本次点价需保证金 300,000.00 元，可用 10,000.00 元，还差 290,000.00 元',
    });
    expect(filled).toEqual({ executed_quantity: 0, frozen_quantity: 0, remaining_quantity: 200 });
    // Above the market the trigger is the worse price: 3 lots at 6,500 need 9,750, held while waiting.
    const ok = await asPricer('amy', '/api/pricer/rpc/create-conditional-order', {
      contract_id: c.id,
      quantity: 3,
      trigger_op: '>=',
      trigger_price: 6_500,
      order_price: 0,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await accountOf('amy')).toMatchObject({ margin_required: 9_750, available: 250 });
    await h.call('/api/pricer/rpc/cancel-conditional-order', { id: ok.body.data.id }, t.pricers.amy!.jwt);
    // Below the market the live price is: 3 lots ≤ 5,000 need 3 × 6,000 × 5 × 0.1 = 9,000 now.
    const below = await asPricer('amy', '/api/pricer/rpc/create-conditional-order', {
      contract_id: c.id,
      quantity: 3,
      trigger_op: '<=',
      trigger_price: 5_000,
      order_price: 0,
    });
    expect(below.status, JSON.stringify(below.body)).toBe(200);
    expect(await accountOf('amy')).toMatchObject({ margin_required: 9_000, available: 1_000 });
    await h.call('/api/pricer/rpc/cancel-conditional-order', { id: below.body.data.id }, t.pricers.amy!.jwt);
  });

  it('is checked again when it fires: cancelled with the reason when the money is not there, never filled', async () => {
    market(6_000);
    await funds('ben', { kind: 'deposit', amount: 10_000 });
    const c = await createContract<{ id: number }>(h, t, 'ben', DEADLINE, {
      margin_rate: 0.1,
      basis: 0,
      total_quantity: 20,
    });
    // 3 lots at 6,500 need 9,750 at creation …
    const k = await asPricer('ben', '/api/pricer/rpc/create-conditional-order', {
      contract_id: c.id,
      quantity: 3,
      trigger_op: '>=',
      trigger_price: 6_500,
      order_price: 0,
    });
    expect(k.status, JSON.stringify(k.body)).toBe(200);
    // … but it fires at 7,000: 3 × 7,000 × 5 × 0.1 = 10,500 > 10,000 (ticks until the engine has read it).
    await waitFor(async () => {
      market(7_000);
      return (await conditional(k.body.data.id)).status !== 'WAITING';
    });
    await service.idle();
    await new Promise((r) => setTimeout(r, 300));
    const after = await conditional(k.body.data.id);
    const lots = await lotsOf(c.id);
    const account = await accountOf('ben');
    console.log(
      `§1 fire (${process.env.TEST_DB}): ${after.status} ${after.last_msg}; executed ${lots.executed_quantity}, available ${account.available}`,
    );
    expect(after).toMatchObject({
      status: 'CANCELLED',
      order_id: null,
      last_msg: '触发时保证金不足，已撤销：本次点价需保证金 10,500.00 元，可用 10,000.00 元，还差 500.00 元',
    });
    expect(lots).toEqual({ executed_quantity: 0, frozen_quantity: 0, remaining_quantity: 20 });
    expect(account).toMatchObject({ margin_required: 0, available: 10_000 });
    const told = await h.db
      .selectFrom('notifications')
      .select(['audience', 'title', 'body'])
      .where('ref', '=', `conditional_fired:${k.body.data.id}`)
      .orderBy('audience')
      .execute();
    expect(told.map((n) => n.audience)).toEqual(['pricer', 'trader']);
    expect(told[0]!.title).toBe('条件单触发时保证金不足，已撤销');
    expect(told[0]!.body).toContain('3 手已退回可点价数量');
    // With the money there it fires and fills: 2 lots at 7,000 need 7,000.
    market(6_000);
    const ok = await asPricer('ben', '/api/pricer/rpc/create-conditional-order', {
      contract_id: c.id,
      quantity: 2,
      trigger_op: '>=',
      trigger_price: 6_500,
      order_price: 0,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    await waitFor(async () => {
      market(7_000);
      return (await lotsOf(c.id)).executed_quantity === 2;
    });
    expect((await conditional(ok.body.data.id)).status).toBe('TRIGGERED');
  });
});

describe('a basis that makes the goods price ≤ 0 (issue 40 §2)', () => {
  it('is refused on create-contract and 转月 with a Chinese 400 naming the field', async () => {
    market(6_000);
    const body = {
      pricer_id: t.pricers.cal!.id,
      product_name: '铜',
      instrument_id: t.symbol,
      direction: 'BUY',
      total_quantity: 5,
      basis: -1_000_000,
      fixing_deadline: DEADLINE,
      margin_rate: 0.1,
    };
    const count = async () => (await h.db.selectFrom('contracts').select('id').execute()).length;
    const before = await count();
    const res = await h.call('/api/trader/rpc/create-contract', body, t.token);
    console.log(`§2 create basis −1,000,000 (${process.env.TEST_DB}): ${res.status} ${res.body.error?.message ?? ''}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      field: 'basis',
      message: '基差过低：期货最新价 6,000 加基差 -1,000,000 后货物价格不大于 0',
    });
    expect((await h.call('/api/trader/rpc/create-contract', { ...body, basis: -6_000 }, t.token)).status).toBe(400);
    expect(await count()).toBe(before);
    // 转月 to a month at 6,000 with a spread that takes the basis to −6,000.
    const c = await createContract<{ id: number }>(h, t, 'cal', DEADLINE, { basis: -100 });
    const roll = await h.call(
      '/api/trader/rpc/roll-contract',
      { contract_id: c.id, to_instrument_id: far, agreed_via: 'phone', quantity: 1, spread: -5_900, fee_per_unit: 0 },
      t.token,
    );
    expect(roll.status, JSON.stringify(roll.body)).toBe(400);
    expect(roll.body.error.field).toBe('spread');
    expect(await count()).toBe(before + 1);
  });

  it('never holds less than 0 margin: a contract at basis −1,000,000 neither inflates available nor lets 100,000 out of 1,000', async () => {
    market(6_000);
    await funds('dee', { kind: 'deposit', amount: 1_000 });
    const c = await createContract<{ id: number }>(h, t, 'dee', DEADLINE, { margin_rate: 0.1, basis: 0 });
    // A contract written before the rule (or a basis the market has since overtaken).
    await h.db.updateTable('contracts').set({ basis: -1_000_000 }).where('id', '=', c.id).execute();
    const fix = await asPricer('dee', '/api/pricer/rpc/submit-order', { contract_id: c.id, quantity: 1, price: 0 });
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await waitFor(async () => (await lotsOf(c.id)).executed_quantity === 1);
    const account = await accountOf('dee');
    const out = await funds('dee', { kind: 'withdraw', amount: 100_000 });
    console.log(
      `§2 floor (${process.env.TEST_DB}): available ${account.available}, margin ${account.margin_required}; withdraw 100,000 → ${out.status}`,
    );
    expect(account).toMatchObject({ balance: 1_000, margin_required: 0, available: 1_000 });
    expect(out.status).toBe(409);
    expect((await accountOf('dee')).balance).toBe(1_000);
    // The check of a fixing floors it too: a limit order at a goods price below 0 holds 0, needs 0.
    const more = await asPricer('dee', '/api/pricer/rpc/submit-order', {
      contract_id: c.id,
      quantity: 1,
      price: 5_500,
    });
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    expect(await accountOf('dee')).toMatchObject({ margin_required: 0, available: 1_000 });
  });
});

describe('set-margin-settings answers what it stored (issue 40 §7)', () => {
  it('refuses a rate that rounds to 0 but is not 0 with a Chinese 400; what it answers is what is stored', async () => {
    const set = (rate: number) => h.call('/api/trader/rpc/set-margin-settings', { default_margin_rate: rate }, t.token);
    const read = async () =>
      (await h.call('/api/trader/view/margin-settings', {}, t.token)).body.data.default_margin_rate as number;
    expect((await set(0.05)).body.data).toEqual({ default_margin_rate: 0.05, product_rates: [] });
    const tiny = await set(1e-300);
    console.log(
      `§7 1e-300 (${process.env.TEST_DB}): ${tiny.status} ${JSON.stringify(tiny.body.data ?? tiny.body.error)}; stored ${await read()}`,
    );
    expect(tiny.status).toBe(400);
    expect(tiny.body.error).toMatchObject({ field: 'default_margin_rate', message: '保证金比例最多四位小数' });
    expect(await read()).toBe(0.05);
    expect((await set(0)).body.data).toEqual({ default_margin_rate: 0, product_rates: [] });
    expect(await read()).toBe(0);
  });
});

describe('one customer’s fixings, 转月 and 延期 with fees at once (issue 40 §3)', () => {
  it('6 margin submits + 2 rolls + 2 extensions with fees + 2 deposits, ×10: no deadlock, no 500', async () => {
    market(80_000);
    setMarket(quotes, far, 80_000, 1_000);
    await funds('zoe', { kind: 'deposit', amount: 10_000_000 });
    const fixing = await Promise.all(
      [0, 1, 2].map(() =>
        createContract<{ id: number }>(h, t, 'zoe', DEADLINE, { margin_rate: 0.1, basis: 0, total_quantity: 30 }),
      ),
    );
    const rolling = await Promise.all(
      [0, 1].map(() =>
        createContract<{ id: number }>(h, t, 'zoe', DEADLINE, { margin_rate: 0.1, basis: 0, total_quantity: 30 }),
      ),
    );
    const extending = await Promise.all(
      [0, 1].map(() => createContract<{ id: number }>(h, t, 'zoe', DEADLINE, { margin_rate: 0.1, basis: 0 })),
    );
    const deadlocks = async () => {
      await sql`select pg_stat_clear_snapshot()`.execute(h.db);
      const { rows } = await sql<{ n: number }>`
        select deadlocks as n from pg_stat_database where datname = current_database()`.execute(h.db);
      return Number(rows[0]?.n ?? 0);
    };
    const onPostgres = process.env.TEST_DB === 'postgres';
    const deadlocksBefore = onPostgres ? await deadlocks() : 0;
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    for (let round = 0; round < 10; round++) {
      await h.db
        .updateTable('contracts')
        .set({ fixing_deadline: DEADLINE })
        .where(
          'id',
          'in',
          extending.map((c) => c.id),
        )
        .execute();
      const calls = [
        ...Array.from({ length: 6 }, (_, i) =>
          asPricer('zoe', '/api/pricer/rpc/submit-order', {
            contract_id: fixing[i % 3]!.id,
            quantity: 1,
            price: 75_000,
          }),
        ),
        ...rolling.map((c) =>
          h.call(
            '/api/trader/rpc/roll-contract',
            { contract_id: c.id, to_instrument_id: far, agreed_via: 'phone', quantity: 1, spread: 0, fee_per_unit: 2 },
            t.token,
          ),
        ),
        ...extending.map((c) =>
          h.call('/api/trader/rpc/extend-deadline', { contract_id: c.id, fixing_deadline: LATER, fee: 100 }, t.token),
        ),
        // A deposit raises the customer's version before it locks the account, as a fixing does.
        ...[0, 1].map(() => funds('zoe', { kind: 'deposit', amount: 1_000 })),
      ];
      for (const r of await Promise.all(calls)) {
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status !== 200) failures.push(`${r.status} ${JSON.stringify(r.body.error)}`);
      }
    }
    // A backend reports its deadlocks to the statistics when idle, within about 10 s.
    let found = 0;
    if (onPostgres) {
      const end = Date.now() + 12_000;
      while (Date.now() < end) {
        found = (await deadlocks()) - deadlocksBefore;
        if (found) break;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    console.log(
      `§3 mix ×10 (${process.env.TEST_DB}): statuses ${JSON.stringify(statuses)}, deadlocks ${found}` +
        (failures.length ? `; ${failures.slice(0, 3).join(' | ')}` : ''),
    );
    expect(failures).toEqual([]);
    expect(found).toBe(0);
    const count = async (table: 'funds_ledger' | 'fee_receivables') =>
      Number(
        (
          await h.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('pricer_id', '=', t.pricers.zoe!.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // 1 + 10 × 2 deposits on the ledger; 10 rounds × (2 roll fees + 2 extension fees) owed (docs/statements.md).
    expect(await count('funds_ledger')).toBe(21);
    expect(await count('fee_receivables')).toBe(40);
  });
});
