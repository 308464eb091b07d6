import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';

/*
 * 转月 as the customer's application (issue 42 item 3) over HTTP on the real app, on PGlite and on
 * PostgreSQL: apply → price → accept runs the roll exactly once (twice accepted, or ten accepts at once:
 * one roll); an offer past its validity is refused with a Chinese 409 and changes nothing; the old
 * contract keeps its agreed total with the rolled lots shown as rolled out; both sides are told each step.
 */

let h: Harness;
let a: Tenant;
let b: Tenant;
let near: string;
let far: string;
const DEADLINE = tradingDayIn(20);
/** The market the quote call reads (the harness has no feed): copper near 80,000, far 80,150. */
const quotes: Record<string, { bid_price1: number; ask_price1: number; last_price: number }> = {};

const APPLY = '/api/pricer/rpc/apply-roll';
const PRICE = '/api/trader/rpc/price-roll';
const ACCEPT = '/api/pricer/rpc/accept-roll';
const QUOTE = '/api/pricer/view/roll-quote';

beforeAll(async () => {
  h = await startHarness({ quote: (s) => quotes[s] });
  a = await setupTenant(h, 'trader-rollapp-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-rollapp-b', '乙贸易', ['carol']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, a.token)).body.data.items;
  near = a.symbol;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > near);
  quotes[near] = { bid_price1: 80_000, ask_price1: 80_010, last_price: 80_000 };
  quotes[far] = { bid_price1: 80_140, ask_price1: 80_160, last_price: 80_150 };
});
afterAll(async () => {
  await h?.close();
});

const alice = () => a.pricers.alice!.jwt;
const row = (id: number) => h.db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const rollsOf = async (contractId: number) => ({
  contracts: (await h.db.selectFrom('contracts').select('id').where('rolled_from', '=', contractId).execute()).length,
  events: (
    await h.db
      .selectFrom('contract_events')
      .select('id')
      .where('contract_id', '=', contractId)
      .where('kind', '=', 'roll')
      .execute()
  ).length,
});
const state = async () => ({
  contracts: await h.db.selectFrom('contracts').selectAll().orderBy('id').execute(),
  applications: await h.db.selectFrom('roll_applications').selectAll().orderBy('id').execute(),
  ledger: (await h.db.selectFrom('funds_ledger').select('id').execute()).length,
  events: (await h.db.selectFrom('contract_events').select('id').execute()).length,
});
const notices = async (token: string, path: 'trader' | 'pricer') =>
  (await h.call(`/api/${path}/view/notifications`, { limit: 100 }, token)).body.data.items as {
    kind: string;
    title: string;
    text: string;
  }[];

/** An application of alice's, priced by the trader (spread −140, fee 2 元/吨, valid 5 minutes). */
async function pricedApplication(lots = 6, pricer = 'alice') {
  const { id } = await createContract(h, a, pricer, DEADLINE);
  const applied = await h.call(
    APPLY,
    { contract_id: id, quantity: lots, to_instrument_id: far },
    a.pricers[pricer]!.jwt,
  );
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const priced = await h.call(
    PRICE,
    { application_id: applied.body.data.id, spread: -140, fee_per_unit: 2, valid_seconds: 300 },
    a.token,
  );
  expect(priced.status, JSON.stringify(priced.body)).toBe(200);
  return { contractId: id, applicationId: applied.body.data.id as number };
}

describe('转月申请 apply → price → accept', () => {
  it('shows the live month spread, rolls once on acceptance, keeps the old total, and tells both sides each step', async () => {
    const { id } = await createContract(h, a, 'alice', DEADLINE);
    const quote = await h.call(QUOTE, { contract_id: id, to_instrument_id: far }, alice());
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.data).toMatchObject({
      from: { symbol: near, bid: 80_000, ask: 80_010 },
      to: { symbol: far, bid: 80_140, ask: 80_160 },
      spread_low: -160,
      spread_high: -130,
      multiplier: 5,
      unit: '吨',
    });
    // Without a month: the first later one, with the product's other months to choose from.
    const first = (await h.call(QUOTE, { contract_id: id }, alice())).body.data;
    expect(first.to.symbol).toBe(far);
    expect(first.months).toContain(far);
    expect(first.months).not.toContain(near);

    const applied = await h.call(APPLY, { contract_id: id, quantity: 6, to_instrument_id: far }, alice());
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const appId = applied.body.data.id as number;
    expect(applied.body.data).toMatchObject({ status: 'pending', status_str: '待报价', quantity: 6, spread: null });
    expect((await notices(a.token, 'trader')).find((n) => n.kind === 'roll_application')?.title).toBe(
      '客户 alice 申请转月',
    );
    expect((await notices(alice(), 'pricer')).find((n) => n.kind === 'roll_application')?.title).toBe('转月申请已提交');
    // Not yet priced: the customer cannot accept.
    const early = await h.call(ACCEPT, { application_id: appId }, alice());
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('交易员尚未报价，暂不能接受');

    const priced = await h.call(
      PRICE,
      { application_id: appId, spread: -140, fee_per_unit: 2, valid_seconds: 300 },
      a.token,
    );
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.data).toMatchObject({ status: 'priced', spread: -140, fee_per_unit: 2, fee: 60 });
    const told = (await notices(alice(), 'pricer')).find((n) => n.title === '转月已报价，请确认');
    expect(told?.text).toMatch(
      /^合同「.+」的转月报价：月差 -140 元\/吨，转月费 60\.00 元，有效至 \d\d:\d\d:\d\d（北京时间）$/,
    );
    // The offer stands while valid: the trader cannot replace it under the customer.
    const again = await h.call(PRICE, { application_id: appId, spread: -100, valid_seconds: 60 }, a.token);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/^报价仍在有效期内（有效至 \d\d:\d\d:\d\d），过期后才能重新报价$/);

    const accepted = await h.call(ACCEPT, { application_id: appId }, alice());
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted', status_str: '已转月' });
    const newId = accepted.body.data.to_contract_id as number;
    // The old contract's terms as agreed: 20 lots in total, 6 of them shown as rolled out.
    expect(await row(id)).toMatchObject({
      total_quantity: 20,
      remaining_quantity: 14,
      rolled_out_quantity: 6,
      status: 'active',
    });
    expect(await row(newId)).toMatchObject({
      instrument_id: far,
      total_quantity: 6,
      remaining_quantity: 6,
      basis: 10,
      rolled_from: id,
      fees: 60,
    });
    const desk = await h.call('/api/pricer/view/my-data-snapshot', {}, alice());
    const shown = (desk.body.data.contracts as { id: number }[]).find((c) => c.id === id);
    expect(shown).toMatchObject({ total_quantity: 20, remaining_quantity: 14, rolled_out_quantity: 6 });
    // The 转月确认单 as today, saying how the customer agreed.
    const history = await h.call('/api/pricer/view/contract-history', { contract_id: newId }, alice());
    expect(history.body.data.items[1].roll).toMatchObject({
      quantity: 6,
      old_basis: 150,
      new_basis: 10,
      spread: -140,
      fee: 60,
      agreed_via: 'application',
      application_id: appId,
    });
    const old = await h.call('/api/trader/view/contract-history', { contract_id: id }, a.token);
    expect(old.body.data.items.map((e: { text: string }) => e.text)).toEqual([
      `创建合同：20 手（100 吨），${near}，基差 150`,
      `转月转出 6 手至 ${far}（新合同 #${newId}）`,
    ]);
    expect((await notices(alice(), 'pricer')).find((n) => n.kind === 'contract_rolled')?.text).toBe(
      `合同「${(await row(id)).name}」的 6 手已由 ${near} 移仓至 ${far}`,
    );
    expect((await notices(a.token, 'trader')).find((n) => n.kind === 'contract_rolled')?.title).toBe(
      '客户 alice 的合同已移仓',
    );

    // Accepting twice rolls once: the second answer is the same accepted application.
    const twice = await h.call(ACCEPT, { application_id: appId }, alice());
    expect(twice.status).toBe(200);
    expect(twice.body.data).toMatchObject({ status: 'accepted', to_contract_id: newId });
    expect(await rollsOf(id)).toEqual({ contracts: 1, events: 1 });
    // The fee is owed, not taken from her funds (docs/statements.md): one receivable, no ledger entry.
    const fees = await h.db
      .selectFrom('fee_receivables')
      .selectAll()
      .where('pricer_id', '=', a.pricers.alice!.id)
      .execute();
    expect(fees.map((e) => [e.kind, Number(e.amount), e.contract_id])).toEqual([['roll', 60, newId]]);
    expect(
      await h.db.selectFrom('funds_ledger').select('id').where('pricer_id', '=', a.pricers.alice!.id).execute(),
    ).toEqual([]);

    // Both lists show it; the trader sees every customer's, the customer only their own.
    const mine = await h.call('/api/pricer/view/my-roll-applications', {}, alice());
    expect(mine.body.data.items.map((r: { id: number }) => r.id)).toContain(appId);
    expect((await h.call('/api/pricer/view/my-roll-applications', {}, a.pricers.bob!.jwt)).body.data.items).toEqual([]);
    const all = await h.call('/api/trader/view/roll-applications', { status: 'accepted' }, a.token);
    expect(all.body.data.items.map((r: { id: number }) => r.id)).toContain(appId);
    expect((await h.call('/api/trader/view/roll-applications', {}, b.token)).body.data.items).toEqual([]);
    // An accepted application is priced no more.
    const late = await h.call(PRICE, { application_id: appId, spread: 0, valid_seconds: 60 }, a.token);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('该转月申请已完成转月，不能再报价');
  });

  it('refuses bad applications and prices with a Chinese 4xx naming the field; nothing changes', async () => {
    const { id } = await createContract(h, a, 'alice', DEADLINE);
    const before = await state();
    const base = { contract_id: id, quantity: 5, to_instrument_id: far };
    const cases: [Record<string, unknown>, number, string | undefined, string][] = [
      [{ to_instrument_id: near }, 400, 'to_instrument_id', '转入的期货合约不能与原合约相同'],
      [{ to_instrument_id: 'SHFE.cu0001' }, 400, 'to_instrument_id', '转入的期货合约不存在或已到期'],
      [{ quantity: 21 }, 400, 'quantity', '转月数量超过未点价数量（可转 20 手）'],
      [{ quantity: 0 }, 400, 'quantity', '转月数量必须大于0'],
      [{ quantity: 'x' }, 400, 'quantity', '转月数量必须是数字'],
      [{ contract_id: undefined }, 400, 'contract_id', '请选择合同'],
    ];
    for (const [over, status, field, message] of cases) {
      const res = await h.call(APPLY, { ...base, ...over }, alice());
      expect(res.status, JSON.stringify(over)).toBe(status);
      expect(res.body.error, JSON.stringify(over)).toMatchObject({ field, message });
    }
    // Another customer's contract, another company's: not found.
    expect((await h.call(APPLY, base, a.pricers.bob!.jwt)).status).toBe(404);
    expect((await h.call(APPLY, base, b.pricers.carol!.jwt)).status).toBe(404);
    expect(await state()).toEqual(before);

    const first = await h.call(APPLY, base, alice());
    expect(first.status).toBe(200);
    const second = await h.call(APPLY, { ...base, quantity: 2 }, alice());
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(
      `该合同已有未完成的转月申请 #${first.body.data.id}，请等待交易员报价或处理完毕后再申请`,
    );
    const appId = first.body.data.id as number;
    const priceCases: [Record<string, unknown>, string, string][] = [
      [{ spread: 5 }, 'spread', '月差必须是最小变动价位 10 的整数倍'],
      [{ spread: 'x' }, 'spread', '请输入月差（可为负数）'],
      [{ fee_per_unit: -1 }, 'fee_per_unit', '转月费不能为负数'],
      [{ valid_seconds: 5 }, 'valid_seconds', '报价有效期至少 10 秒'],
      [{ valid_seconds: 90_000 }, 'valid_seconds', '报价有效期不能超过 1 天'],
      [{ valid_seconds: undefined }, 'valid_seconds', '报价有效期必须是数字'],
    ];
    const pending = await state();
    for (const [over, field, message] of priceCases) {
      const res = await h.call(PRICE, { application_id: appId, spread: -140, valid_seconds: 60, ...over }, a.token);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error, JSON.stringify(over)).toMatchObject({ field, message });
    }
    expect((await h.call(PRICE, { application_id: appId, spread: 0, valid_seconds: 60 }, b.token)).status).toBe(404);
    expect((await h.call(ACCEPT, { application_id: appId }, a.pricers.bob!.jwt)).status).toBe(404);
    expect(await state()).toEqual(pending);
  });

  it('refuses an offer past its validity with a Chinese 409, changing nothing; a new price can then be accepted', async () => {
    const { contractId, applicationId } = await pricedApplication();
    // The offer's time runs out (its end moved into the past: no waiting in a test).
    await h.db
      .updateTable('roll_applications')
      .set({ valid_until: new Date(Date.now() - 1000) })
      .where('id', '=', applicationId)
      .execute();
    const listed = await h.call('/api/pricer/view/my-roll-applications', {}, alice());
    expect(listed.body.data.items.find((r: { id: number }) => r.id === applicationId)).toMatchObject({
      status: 'expired',
      status_str: '报价已过期',
    });
    const before = await state();
    const res = await h.call(ACCEPT, { application_id: applicationId }, alice());
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /^报价已过有效期（有效至 \d\d:\d\d:\d\d（北京时间）），不能接受；请等待交易员重新报价$/,
    );
    expect(await state()).toEqual(before);
    expect(await rollsOf(contractId)).toEqual({ contracts: 0, events: 0 });
    // The trader prices it again; the new offer is accepted.
    const repriced = await h.call(
      PRICE,
      { application_id: applicationId, spread: -150, fee_per_unit: 0, valid_seconds: 120 },
      a.token,
    );
    expect(repriced.status, JSON.stringify(repriced.body)).toBe(200);
    const ok = await h.call(ACCEPT, { application_id: applicationId }, alice());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await row(ok.body.data.to_contract_id)).toMatchObject({ basis: 0 });
    expect(await rollsOf(contractId)).toEqual({ contracts: 1, events: 1 });
  });

  it('ten accepts at once roll once; every answer is the one accepted application', async () => {
    const { contractId, applicationId } = await pricedApplication(7);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.call(ACCEPT, { application_id: applicationId }, alice())),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = new Set(answers.map((r) => r.body.data.to_contract_id));
    expect(ids.size).toBe(1);
    expect(await rollsOf(contractId)).toEqual({ contracts: 1, events: 1 });
    expect(await row(contractId)).toMatchObject({ total_quantity: 20, remaining_quantity: 13, rolled_out_quantity: 7 });
    const fees = await h.db
      .selectFrom('fee_receivables')
      .select('amount')
      .where('contract_id', '=', [...ids][0]!)
      .execute();
    expect(fees.map((f) => Number(f.amount))).toEqual([70]);
  });

  it('an application whose lots became held is refused at acceptance, the offer kept; a completed old contract keeps its total', async () => {
    // bob's: alice's roll fees above took her balance below 0 (a margin call refuses her fixing).
    const bob = a.pricers.bob!.jwt;
    const { contractId, applicationId } = await pricedApplication(20, 'bob');
    const order = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: contractId, quantity: 5, price: 80_000 },
      bob,
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const held = await h.call(ACCEPT, { application_id: applicationId }, bob);
    expect(held.status).toBe(409);
    expect(held.body.error.message).toMatch(
      /^转月的手数被未完成的委托或等待中的条件单占用，请先撤销：委托 #\d+（5 手）$/,
    );
    const app = await h.db
      .selectFrom('roll_applications')
      .selectAll()
      .where('id', '=', applicationId)
      .executeTakeFirstOrThrow();
    expect(app.status).toBe('priced');
    expect(await rollsOf(contractId)).toEqual({ contracts: 0, events: 0 });
    // All 20 lots of another contract rolled: completed, its total still 20.
    const all = await pricedApplication(20, 'bob');
    const ok = await h.call(ACCEPT, { application_id: all.applicationId }, bob);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await row(all.contractId)).toMatchObject({
      status: 'completed',
      total_quantity: 20,
      remaining_quantity: 0,
      rolled_out_quantity: 20,
    });
  });
});
