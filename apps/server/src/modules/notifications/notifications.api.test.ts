import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { callOk, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';
import { expireDueConditionals, triggerConditional } from '../conditional/conditional';
import { shanghaiToday } from '../contracts/fixingTerms';
import { markAccounts } from '../margin/watch';
import { expireDueContracts } from '../controls/deadlines';
import { notifyContractRolled, notifyFills } from './notify';
import { remindDeadlines } from './reminders';
import { tradingDayIn } from '../../../test/days';
import { addTradingDays } from '@pfp/contract';
import { shanghaiDate } from '../../platform/time';

/*
 * Notifications over HTTP (issue 33, docs/notifications.md) on the real app, the real trading service
 * and its simulated broker: each producer writes the customer's and the traders' rows in its own
 * transaction; a customer reads only theirs, a trader only their company's. Copper: multiplier 5, 吨.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let b: Tenant;
const DEADLINE = tradingDayIn(30);

const market = (symbol: string, price: number) => setMarket(quotes, symbol, price);

const newContract = (t: Tenant, pricer: string, extra: Record<string, unknown> = {}) =>
  createContract<{ id: number; name: string }>(h, t, pricer, DEADLINE, extra);

/** The customer's data version (migration 009): what the live desk watches (docs/live.md). */
const dataVersion = async (pricerId: number) =>
  Number(
    (
      await h.db
        .selectFrom('pricer_data_versions')
        .select((eb) => eb.fn.sum<string>('version').as('v'))
        .where('pricer_id', '=', pricerId)
        .executeTakeFirst()
    )?.v ?? 0,
  );

type Item = { id: number; kind: string; title: string; text: string; created_at: string; read: boolean };
const inboxOf = async (token: string, audience: 'pricer' | 'trader', body: Record<string, unknown> = {}) =>
  (await callOk(h, `/api/${audience}/view/notifications`, body, token)) as { items: Item[]; unread_count: number };
const mine = (t: Tenant, pricer: string) => inboxOf(t.pricers[pricer]!.jwt, 'pricer');
const desk = (t: Tenant) => inboxOf(t.token, 'trader');
const kindsOf = (items: Item[]) => items.map((i) => i.kind);

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf, fillsBooked: notifyFills }));
  a = await setupTenant(h, 'trader-notify-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-notify-b', '乙贸易', ['erin']);
  quotes.addInstrument(a.symbol, 10);
  market(a.symbol, 80_000);
});
afterAll(() => stop?.());

describe('fills and confirmations', () => {
  it('tells the customer and the company of a fill, and of the confirmation awaiting acknowledgement', async () => {
    // The customer's legal name is what the documents (and so the messages) name (issue 41).
    const named = await h.call(
      '/api/trader/rpc/update-pricer-profile',
      { user_id: a.pricers.alice!.id, full_name: '甲铜材有限公司' },
      a.token,
    );
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const c = await newContract(a, 'alice');
    const fix = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: c.id, quantity: 2, price: 0 },
      a.pricers.alice!.jwt,
    );
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();

    const alice = await mine(a, 'alice');
    expect(kindsOf(alice.items)).toEqual(['confirmation_pending', 'fill']); // newest first
    expect(alice.unread_count).toBe(2);
    const fill = alice.items[1]!;
    expect(fill).toMatchObject({ title: '点价成交', read: false });
    // The figures of the 点价确认单 (issue 41): 点价价格 = futures + basis, goods amount = it × lots × multiplier.
    const doc = await h.call('/api/pricer/view/confirmation', { order_id: fix.body.data.id }, a.pricers.alice!.jwt);
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    const { fixed_price, amount } = doc.body.data as { fixed_price: number; amount: number };
    expect([fixed_price, amount]).toEqual([80_150, 801_500]);
    expect(fill.text).toBe(
      `合同「${c.name}」买入 ${a.symbol} 成交 2 手（10 吨），点价价格 80,150.00 元/吨（期货成交价 80,000.00 + 基差 150.00），货款金额 801,500.00 元`,
    );
    expect(alice.items[0]!.text).toContain(`点价单 #${fix.body.data.id}`);
    expect(alice.items[0]!.text).toContain('点价价格 80,150.00 元/吨');
    expect(alice.items[0]!.text).toContain('货款金额 801,500.00 元');
    expect(Date.parse(fill.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const traders = await desk(a);
    expect(traders.items.map((i) => i.title)).toEqual([
      '客户 甲铜材有限公司 的确认单待确认',
      '客户 甲铜材有限公司 点价成交',
    ]);
    // Nobody else sees them: another customer of the company, another company.
    expect((await mine(a, 'bob')).items).toEqual([]);
    expect((await desk(b)).items).toEqual([]);
    expect((await mine(b, 'erin')).unread_count).toBe(0);
  });

  it('marks read only the caller’s own; another user’s ids change nothing', async () => {
    const alice = await mine(a, 'alice');
    const ids = alice.items.map((i) => i.id);
    // Company b's trader and customer bob try alice's ids.
    for (const [token, audience] of [
      [b.token, 'trader'],
      [a.pricers.bob!.jwt, 'pricer'],
      [a.token, 'trader'], // the traders' rows are other rows than the customer's
    ] as const) {
      const res = await h.call(`/api/${audience}/rpc/mark-notifications-read`, { ids }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.marked).toBe(0);
    }
    expect((await mine(a, 'alice')).unread_count).toBe(2);

    const one = await h.call('/api/pricer/rpc/mark-notifications-read', { ids: [ids[1]] }, a.pricers.alice!.jwt);
    expect(one.body.data).toEqual({ marked: 1, unread_count: 1 });
    const after = await mine(a, 'alice');
    expect(after.items.map((i) => i.read)).toEqual([false, true]);
    const unreadOnly = await inboxOf(a.pricers.alice!.jwt, 'pricer', { unread_only: true });
    expect(unreadOnly.items.map((i) => i.id)).toEqual([ids[0]]);

    const all = await h.call('/api/trader/rpc/mark-notifications-read', { all: true }, a.token);
    expect(all.body.data).toEqual({ marked: 2, unread_count: 0 });
    expect((await mine(a, 'alice')).unread_count).toBe(1); // the company's reading is not the customer's
  });

  it('refuses bad input with a Chinese 400 naming the field, changing nothing', async () => {
    const before = await mine(a, 'alice');
    for (const [body, field, message] of [
      [{ ids: 'all' }, 'ids', 'ids 必须是通知编号的数组'],
      [{ ids: [0] }, 'ids[0]', '通知编号必须是正整数'],
      [{ ids: [] }, 'ids', '请选择要标记为已读的通知'],
      [{}, 'ids', '请选择要标记为已读的通知'],
      [{ all: 'yes' }, 'all', '全部已读必须是 true 或 false'],
    ] as const) {
      const res = await h.call('/api/pricer/rpc/mark-notifications-read', body, a.pricers.alice!.jwt);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ field, message });
    }
    const bad = await h.call('/api/trader/view/notifications', { limit: 1000 }, a.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ field: 'limit', message: '条数不能超过 100' });
    expect(await mine(a, 'alice')).toEqual(before);
  });
});

describe('contracts, 条件单, deadlines, margin calls', () => {
  it('tells of a pause, a 条件单 that fired and one that expired', async () => {
    const c = await newContract(a, 'bob');
    const paused = await h.call(
      '/api/trader/rpc/update-contract-status',
      { contract_id: c.id, new_status: 'paused' },
      a.token,
    );
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    let bob = await mine(a, 'bob');
    expect(bob.items[0]).toMatchObject({ kind: 'contract_paused', title: '合同已暂停点价' });
    expect(bob.items[0]!.text).toContain(`合同「${c.name}」已暂停点价`);
    await h.call('/api/trader/rpc/update-contract-status', { contract_id: c.id, new_status: 'active' }, a.token);

    const create = (trigger_price: number, expires_at?: string) =>
      h.call(
        '/api/pricer/rpc/create-conditional-order',
        {
          contract_id: c.id,
          quantity: 1,
          trigger_op: '<=',
          trigger_price,
          order_price: 0,
          ...(expires_at ? { expires_at } : {}),
        },
        a.pricers.bob!.jwt,
      );
    const fire = await create(79_000);
    expect(fire.status, JSON.stringify(fire.body)).toBe(200);
    expect((await triggerConditional(h.db, fire.body.data.id, 78_990)).outcome).toBe('triggered');
    const expiring = await create(70_000, new Date(Date.now() + 60_000).toISOString());
    expect(expiring.status, JSON.stringify(expiring.body)).toBe(200);
    expect(await expireDueConditionals(h.db, new Date(Date.now() + 120_000))).toEqual([expiring.body.data.id]);
    // Run twice: told once.
    expect(await expireDueConditionals(h.db, new Date(Date.now() + 120_000))).toEqual([]);

    bob = await mine(a, 'bob');
    expect(kindsOf(bob.items).slice(0, 2)).toEqual(['conditional_expired', 'conditional_fired']);
    expect(bob.items[1]!.text).toBe(
      `合同「${c.name}」的条件单 #${fire.body.data.id} 在最新价 78990 元/吨 触发，已下点价单 1 手`,
    );
    expect(bob.items[0]!.text).toBe(
      `合同「${c.name}」的条件单 #${expiring.body.data.id}（1 手）已过期，1 手已退回可点价数量`,
    );
    expect(kindsOf((await desk(a)).items)).toContain('conditional_fired');
  });

  it('reminds T-3, T-1 and the last day once per contract, however many instances run the job', async () => {
    const now = new Date();
    // Deadlines are counted in trading days (docs/calendar.md), whatever day the suite runs on.
    const inDays = (d: number) => addTradingDays('SHFE', shanghaiToday(now), d);
    // Created with a later deadline, then moved in the database: after 15:00 Beijing time the API refuses a
    // deadline of today, and the job must not depend on the hour the suite runs at.
    const moved: number[] = [];
    const dueIn = async (days: number) => {
      const c = await newContract(b, 'erin');
      await h.db
        .updateTable('contracts')
        .set({ fixing_deadline: inDays(days) })
        .where('id', '=', c.id)
        .execute();
      moved.push(c.id);
      return c;
    };
    const t3 = await dueIn(3);
    const t1 = await dueIn(1);
    const t0 = await dueIn(0);
    await dueIn(5); // not yet
    onTestFinished(async () => {
      // Back to the later deadline: the expiry test below must see only its own contract expire.
      await h.db.updateTable('contracts').set({ fixing_deadline: DEADLINE }).where('id', 'in', moved).execute();
    });
    // Two instances at once, then again.
    const runs = await Promise.all([remindDeadlines(h.db, now), remindDeadlines(h.db, now)]);
    expect(runs[0]! + runs[1]!).toBe(3);
    expect(await remindDeadlines(h.db, now)).toBe(0);
    const erin = await mine(b, 'erin');
    const byKind = Object.fromEntries(erin.items.map((i) => [i.kind, i.text]));
    expect(byKind).toEqual({
      deadline_t3: `合同「${t3.name}」距点价截止日（${inDays(3)}）还有 3 个交易日，还有 20 手未点价`,
      deadline_t1: `合同「${t1.name}」距点价截止日（${inDays(1)}）还有 1 个交易日，还有 20 手未点价`,
      deadline_today: `今天是合同「${t0.name}」的点价截止日（${inDays(0)}），还有 20 手未点价，收盘后不能再点价`,
    });
    expect((await desk(b)).items.filter((i) => i.kind.startsWith('deadline'))).toHaveLength(3);
    // The next trading day: T-1's contract is on its last day (told); T-3's has 2 days left (its T-3 reminder was sent).
    expect(await remindDeadlines(h.db, shanghaiDate(`${inDays(1)} 10:00`))).toBe(1);
  });

  it('counts T-3 in trading days: on a Friday, a Wednesday deadline is T-3 and a Monday one T-1', async () => {
    const friday = shanghaiDate('2026-11-27 10:00');
    const moved: number[] = [];
    const dueOn = async (deadline: string) => {
      const c = await newContract(b, 'erin');
      await h.db.updateTable('contracts').set({ fixing_deadline: deadline }).where('id', '=', c.id).execute();
      moved.push(c.id);
      return c;
    };
    onTestFinished(async () => {
      await h.db.updateTable('contracts').set({ fixing_deadline: DEADLINE }).where('id', 'in', moved).execute();
    });
    const wednesday = await dueOn('2026-12-02');
    await dueOn('2026-11-30');
    await dueOn('2026-12-03'); // four trading days away: not yet
    const before = (await mine(b, 'erin')).items.length;
    expect(await remindDeadlines(h.db, friday)).toBe(2);
    const all = (await mine(b, 'erin')).items;
    const told = all.slice(0, all.length - before);
    // Each reminder by the deadline it names.
    const byDeadline = Object.fromEntries(told.map((i) => [i.text.match(/（(\d{4}-\d{2}-\d{2})）/)![1], i.kind]));
    expect(byDeadline).toEqual({ '2026-12-02': 'deadline_t3', '2026-11-30': 'deadline_t1' });
    expect(told.find((i) => i.kind === 'deadline_t3')!.text).toBe(
      `合同「${wednesday.name}」距点价截止日（2026-12-02）还有 3 个交易日，还有 20 手未点价`,
    );
  });

  it('tells of a margin call and its end', async () => {
    const alice = a.pricers.alice!.id;
    const c = await newContract(a, 'alice', { margin_rate: 0.1 });
    await h.call('/api/trader/rpc/record-funds', { pricer_id: alice, kind: 'deposit', amount: 45_000 }, a.token);
    market(a.symbol, 80_000);
    const fix = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: c.id, quantity: 1, price: 0 },
      a.pricers.alice!.jwt,
    );
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();
    // Copper falls 2,000: −2,000 × 1 × 5 = −10,000 of P/L against 45,000 − the fill's margin 40,075.
    market(a.symbol, 78_000);
    const before = await dataVersion(alice);
    expect(await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price)).toContain(alice);
    // The call changes no order or contract, yet the customer's data version moves: the live desk reads the bell.
    expect(await dataVersion(alice)).toBeGreaterThan(before);
    let items = (await mine(a, 'alice')).items;
    expect(items[0]).toMatchObject({ kind: 'margin_call', title: '追加保证金通知' });
    expect(items[0]!.text).toMatch(/^可用保证金 -[\d,.]+ 元，请追加至少 [\d,.]+ 元；追保期间不能新点价$/);
    await h.call('/api/trader/rpc/record-funds', { pricer_id: alice, kind: 'deposit', amount: 100_000 }, a.token);
    await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price);
    items = (await mine(a, 'alice')).items;
    expect(items[0]).toMatchObject({ kind: 'margin_call_end', title: '追保已解除' });
    expect((await desk(a)).items[0]!.title).toBe('客户 甲铜材有限公司 追保已解除');
  });
});

describe('expiry and roll', () => {
  it('tells of a contract past its fixing deadline once, and of a roll', async () => {
    const c = await newContract(b, 'erin');
    await h.db.updateTable('contracts').set({ fixing_deadline: '2020-01-06' }).where('id', '=', c.id).execute();
    const run = await expireDueContracts(h.db);
    expect(run.expired).toContain(c.id);
    expect((await expireDueContracts(h.db)).expired).toEqual([]);
    const erin = await mine(b, 'erin');
    const expired = erin.items.filter((i) => i.kind === 'contract_expired');
    expect(expired.map((i) => i.text)).toEqual([
      `合同「${c.name}」已过点价截止日（2020-01-06），未点价的 20 手不能再点价`,
    ]);

    const rolled = await newContract(b, 'erin');
    await h.db.transaction().execute((tx) =>
      notifyContractRolled(tx, {
        contractId: rolled.id,
        from: 'SHFE.cu2601',
        to: 'SHFE.cu2602',
        lots: 5,
        ref: 'roll:1',
      }),
    );
    // The roll's own retry: once.
    await h.db.transaction().execute((tx) =>
      notifyContractRolled(tx, {
        contractId: rolled.id,
        from: 'SHFE.cu2601',
        to: 'SHFE.cu2602',
        lots: 5,
        ref: 'roll:1',
      }),
    );
    const rolls = (await mine(b, 'erin')).items.filter((i) => i.kind === 'contract_rolled');
    expect(rolls).toMatchObject([
      { title: '合同已移仓', text: `合同「${rolled.name}」的 5 手已由 SHFE.cu2601 移仓至 SHFE.cu2602` },
    ]);
    expect((await desk(b)).items.find((i) => i.kind === 'contract_rolled')?.title).toBe('客户 erin 的合同已移仓');
  });
});
