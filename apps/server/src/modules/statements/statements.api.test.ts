import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCalendarDays } from '@pfp/contract';
import { startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { type FakeQuotes, setMarket } from '../../../test/trading/testSupport';
import { tradingDayIn } from '../../../test/days';
import type { TradingService } from '../../trading/service';
import { shanghaiToday } from '../contracts/fixingTerms';

/*
 * Fees are receivables, not margin, and a statement that balances (issue 41 items 4 and 5,
 * docs/statements.md), over HTTP on the real app with the trading service and its simulated broker.
 * Copper: tick 10, multiplier 5.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let b: Tenant;
let far: string;
const TODAY = shanghaiToday();
const TOMORROW = addCalendarDays(TODAY, 1);

const funds = (body: Record<string, unknown>) => h.call('/api/trader/rpc/record-funds', body, a.token);
const accountOf = async (pricer: string) =>
  (await h.call('/api/trader/view/pricer-accounts', {}, a.token)).body.data.items.find(
    (i: { pricer_id: number }) => i.pricer_id === a.pricers[pricer]!.id,
  );
const auditOf = (action: string) =>
  h.db
    .selectFrom('audit_log')
    .select(['actor', 'payload'])
    .where('tenant_id', '=', a.tenantId)
    .where('action', '=', action)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, payload: r.payload as Record<string, unknown> })));
const statementOf = (pricer: string, start_date: string, end_date: string) =>
  h.call('/api/trader/view/statement', { pricer_id: a.pricers[pricer]!.id, start_date, end_date }, a.token);

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf }));
  a = await setupTenant(h, 'trader-statements-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-statements-b', '乙贸易', ['carol']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, a.token)).body.data.items;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > a.symbol);
  for (const s of [a.symbol, far]) {
    quotes.addInstrument(s, 10);
    setMarket(quotes, s, 80_000);
  }
  await h.call(
    '/api/trader/rpc/update-pricer-profile',
    { user_id: a.pricers.alice!.id, full_name: '爱丽丝铜材有限公司' },
    a.token,
  );
});
afterAll(() => stop?.());

let dueTomorrow: number;
let rolled: number;
let rolledTo: number;
let untouched: number;

describe('a fee is a receivable, never margin', () => {
  it('a customer whose money covers a fix, charged a roll fee above their free money, still fixes the contract due tomorrow', async () => {
    const alice = a.pricers.alice!.id;
    expect((await funds({ pricer_id: alice, kind: 'deposit', amount: 50_000 })).status).toBe(200);
    dueTomorrow = (await createContract(h, a, 'alice', tradingDayIn(1), { margin_rate: 0.1 })).id;
    rolled = (await createContract(h, a, 'alice', tradingDayIn(20), { margin_rate: 0.1 })).id;
    untouched = (await createContract(h, a, 'alice', tradingDayIn(20), { margin_rate: 0.1, total_quantity: 7 })).id;
    // 10 lots to the far month at 1,200 元/吨: 1,200 × 10 × 5 = 60,000 元, more than the 50,000 she has.
    const roll = await h.call(
      '/api/trader/rpc/roll-contract',
      { contract_id: rolled, to_instrument_id: far, quantity: 10, spread: 0, fee_per_unit: 1_200, agreed_via: 'phone' },
      a.token,
    );
    expect(roll.status, JSON.stringify(roll.body)).toBe(200);
    rolledTo = roll.body.data.to.id;
    expect(roll.body.data.to.fees).toBe(60_000);
    const extend = await h.call(
      '/api/trader/rpc/extend-deadline',
      { contract_id: rolled, fixing_deadline: tradingDayIn(25), fee: 300 },
      a.token,
    );
    expect(extend.status, JSON.stringify(extend.body)).toBe(200);
    // 1 lot at market: (80,000 + 150) × 1 × 5 × 10 % = 40,075 of margin, within her 50,000.
    const fix = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: dueTomorrow, quantity: 1, price: 0 },
      a.pricers.alice!.jwt,
    );
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
    await service.idle();
    // Her money is untouched by the fees and she is in no call.
    expect(await accountOf('alice')).toMatchObject({ balance: 50_000, margin_required: 40_075, margin_call: false });
    // The fees are owed: two open receivables, audited with their ids.
    const fees = await h.call('/api/trader/view/fee-receivables', { pricer_id: alice }, a.token);
    expect(fees.body.data.outstanding).toBe(60_300);
    expect(
      fees.body.data.items.map((f: { kind: string; amount: number; status: string; pricer_name: string }) => [
        f.kind,
        f.amount,
        f.status,
        f.pricer_name,
      ]),
    ).toEqual([
      ['extension', 300, 'open', '爱丽丝铜材有限公司'],
      ['roll', 60_000, 'open', '爱丽丝铜材有限公司'],
    ]);
    expect((await auditOf('roll-contract')).at(-1)!.payload).toMatchObject({ fee: 60_000 });
  });

  it('collects a fee from free money only, offsets or waives with a note, once; each audited', async () => {
    const alice = a.pricers.alice!.id;
    const [extension, roll] = (await h.call('/api/trader/view/fee-receivables', { pricer_id: alice }, a.token)).body
      .data.items as { id: number }[];
    const ledgerBefore = await h.db.selectFrom('funds_ledger').select('id').execute();
    // 50,000 − 40,075 of margin = 9,925 free: 60,000 cannot be taken; nothing changes.
    const tooMuch = await h.call('/api/trader/rpc/settle-fee', { fee_id: roll!.id, method: 'collect' }, a.token);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.message).toContain('可扣 9,925.00 元');
    const noNote = await h.call('/api/trader/rpc/settle-fee', { fee_id: extension!.id, method: 'waive' }, a.token);
    expect(noNote.status).toBe(400);
    expect(noNote.body.error).toMatchObject({ field: 'note', message: '冲抵或减免请填写说明' });
    const other = await h.call(
      '/api/trader/rpc/settle-fee',
      { fee_id: roll!.id, method: 'waive', note: '别家' },
      b.token,
    );
    expect(other.status).toBe(404);
    expect(await h.db.selectFrom('funds_ledger').select('id').execute()).toEqual(ledgerBefore);

    const waived = await h.call(
      '/api/trader/rpc/settle-fee',
      { fee_id: extension!.id, method: 'waive', note: '老客户减免' },
      a.token,
    );
    expect(waived.status, JSON.stringify(waived.body)).toBe(200);
    expect(waived.body.data).toMatchObject({ status: 'waived', settle_note: '老客户减免', ledger_entry_id: null });
    expect((await funds({ pricer_id: alice, kind: 'deposit', amount: 60_000 })).status).toBe(200);
    const collected = await h.call('/api/trader/rpc/settle-fee', { fee_id: roll!.id, method: 'collect' }, a.token);
    expect(collected.status, JSON.stringify(collected.body)).toBe(200);
    expect(collected.body.data.status).toBe('collected');
    const entry = await h.db
      .selectFrom('funds_ledger')
      .selectAll()
      .where('id', '=', collected.body.data.ledger_entry_id)
      .executeTakeFirstOrThrow();
    expect([entry.kind, Number(entry.amount), Number(entry.balance_after)]).toEqual(['adjust', -60_000, 50_000]);
    expect(await accountOf('alice')).toMatchObject({ balance: 50_000, margin_call: false });
    const again = await h.call('/api/trader/rpc/settle-fee', { fee_id: roll!.id, method: 'collect' }, a.token);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('该费用已处理，不能重复处理');
    expect((await auditOf('settle-fee')).map((r) => [r.payload.method, r.payload.amount])).toEqual([
      ['waive', 300],
      ['collect', 60_000],
    ]);
    const open = await h.call('/api/trader/view/fee-receivables', { pricer_id: alice }, a.token);
    expect(open.body.data).toMatchObject({ items: [], outstanding: 0 });
  });
});

type Row = Record<string, number | string | null>;

describe('the statement balances', () => {
  it('funds, fees and lots: opening + movements = closing, every contract open in the period, the closing as live', async () => {
    const res = await statementOf('alice', TODAY, TODAY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.data;
    expect(s).toMatchObject({ pricer_full_name: '爱丽丝铜材有限公司', company_name: '甲贸易', response: null });
    expect(s.funds).toMatchObject({
      opening: 0,
      deposits: 110_000,
      withdrawals: 0,
      adjustments: 0,
      fees_collected: -60_000,
      closing: 50_000,
    });
    const f = s.funds;
    expect(f.opening + f.deposits + f.withdrawals + f.adjustments + f.fees_collected).toBe(f.closing);
    expect(f.closing).toBe((await accountOf('alice')).balance);
    expect(s.fees).toMatchObject({
      opening: 0,
      charged: 60_300,
      collected: 60_000,
      offset: 0,
      waived: 300,
      closing: 0,
    });
    // Every contract of hers, the one without a fix and the rolled-in one included.
    const byId = new Map((s.contracts as Row[]).map((c) => [c.contract_id, c]));
    expect([...byId.keys()].sort()).toEqual([dueTomorrow, rolled, untouched, rolledTo].sort());
    expect(byId.get(dueTomorrow)).toMatchObject({ added: 20, fixed: 1, closing_unfixed: 19, closing_fixed: 1 });
    expect(byId.get(rolled)).toMatchObject({ added: 20, rolled_out: 10, closing_unfixed: 10, fees: 300 });
    expect(byId.get(rolledTo)).toMatchObject({ added: 10, closing_unfixed: 10, fees: 60_000, instrument_id: far });
    expect(byId.get(untouched)).toMatchObject({ added: 7, fixed: 0, closing_unfixed: 7, fixed_amount: 0 });
    expect(byId.get(dueTomorrow)!.fixed_amount).toBe(80_150 * 5);
    for (const c of s.contracts as Record<string, number>[]) {
      expect(c.opening_unfixed! + c.added! - c.fixed! - c.rolled_out!, `${c.contract_id}`).toBe(c.closing_unfixed);
      expect(c.opening_fixed! + c.fixed!).toBe(c.closing_fixed);
      const live = await h.db
        .selectFrom('contracts')
        .selectAll()
        .where('id', '=', c.contract_id!)
        .executeTakeFirstOrThrow();
      expect(c.closing_unfixed).toBe(live.remaining_quantity + live.frozen_quantity);
      expect(c.closing_fixed).toBe(live.executed_quantity);
    }
    expect(s.lots).toEqual({ opening_unfixed: 0, added: 57, fixed: 1, rolled_out: 10, closing_unfixed: 46 });
  });

  it('a later period opens where this one closed: the contracts without movement are listed, nothing moves', async () => {
    const s = (await statementOf('alice', TOMORROW, TOMORROW)).body.data;
    expect(s.funds).toMatchObject({ opening: 50_000, deposits: 0, closing: 50_000, entries: [] });
    expect(s.fees).toMatchObject({ opening: 0, charged: 0, closing: 0, items: [] });
    expect(s.lots).toEqual({ opening_unfixed: 46, added: 0, fixed: 0, rolled_out: 0, closing_unfixed: 46 });
    expect((s.contracts as Row[]).map((c) => c.contract_id).sort()).toEqual(
      [dueTomorrow, rolled, untouched, rolledTo].sort(),
    );
    const before = (await statementOf('alice', addCalendarDays(TODAY, -3), addCalendarDays(TODAY, -1))).body.data;
    expect(before.contracts).toEqual([]);
    expect(before.funds).toMatchObject({ opening: 0, closing: 0 });
  });

  it('refuses another company’s customer (404) and a reversed period (400 naming the field)', async () => {
    const other = await h.call(
      '/api/trader/view/statement',
      { pricer_id: b.pricers.carol!.id, start_date: TODAY, end_date: TODAY },
      a.token,
    );
    expect(other.status).toBe(404);
    const reversed = await statementOf('alice', TOMORROW, TODAY);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toMatchObject({ field: 'start_date', message: '开始日期不能晚于结束日期' });
  });
});

describe('the customer confirms or disputes the statement', () => {
  const respond = (body: Record<string, unknown>) =>
    h.call('/api/pricer/rpc/respond-statement', body, a.pricers.alice!.jwt);
  const period = { start_date: TODAY, end_date: TODAY };

  it('records a confirmation once and audits it; a changed statement is answered again; a dispute needs a note', async () => {
    const mine = await h.call('/api/pricer/view/statement', period, a.pricers.alice!.jwt);
    expect(mine.status).toBe(200);
    const { digest } = mine.body.data;
    expect(digest).toBe((await statementOf('alice', TODAY, TODAY)).body.data.digest);
    const ok = await respond({ ...period, digest, response: 'confirmed' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.response).toMatchObject({ response: 'confirmed', current: true, note: '' });
    const twice = await respond({ ...period, digest, response: 'confirmed' });
    expect(twice.body.data.response.created_at).toBe(ok.body.data.response.created_at);
    expect(await auditOf('confirm-statement')).toEqual([
      { actor: `pricer:${a.pricers.alice!.id}`, payload: { ...period, response_id: expect.any(Number) } },
    ]);
    expect((await h.db.selectFrom('statement_responses').select('id').execute()).length).toBe(1);
    // The trader reads it beside the figures.
    expect((await statementOf('alice', TODAY, TODAY)).body.data.response).toMatchObject({
      response: 'confirmed',
      current: true,
    });

    const noNote = await respond({ ...period, digest, response: 'disputed' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.error).toMatchObject({ field: 'note', message: '请填写异议说明' });
    // The trader records 1 元 more: the statement changed; the old digest is refused, the confirmation is no longer current.
    await funds({ pricer_id: a.pricers.alice!.id, kind: 'deposit', amount: 1 });
    const stale = await respond({ ...period, digest, response: 'disputed', note: '入金金额不对' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('对账单已有变动，请刷新后核对再确认');
    const fresh = (await h.call('/api/pricer/view/statement', period, a.pricers.alice!.jwt)).body.data;
    expect(fresh.response).toMatchObject({ response: 'confirmed', current: false });
    const disputed = await respond({ ...period, digest: fresh.digest, response: 'disputed', note: '入金金额不对' });
    expect(disputed.status).toBe(200);
    expect(disputed.body.data.response).toMatchObject({ response: 'disputed', note: '入金金额不对', current: true });
    expect((await auditOf('dispute-statement')).map((r) => r.payload.note)).toEqual(['入金金额不对']);
  });
});
