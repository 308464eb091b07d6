import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';
import { addCalendarDays, closedReason, isTradingDay } from '@pfp/contract';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { shanghaiToday } from '../contracts/fixingTerms';
import { tradingDaysIn } from '../../market/calendar';
import { latestDeadline } from './terms';

/*
 * 转月, 延期 and 均价点价 over HTTP on the real app (issue 32): each refusal a Chinese 400 naming the
 * field (or a 409 saying why) that changes nothing; a roll moves the lots, the basis, the fee and the
 * exposure; an extension re-opens an expired contract and charges its fee; an average contract has a
 * schedule and cannot be fixed by hand.
 */

let h: Harness;
let a: Tenant;
let b: Tenant;
let near: string;
let far: string;
let otherProduct: string;
const day = (offsetDays: number) => shanghaiToday(new Date(Date.now() + offsetDays * 86_400_000));
const DEADLINE = tradingDayIn(20);

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'trader-life-a', '甲贸易', ['alice', 'bob']);
  b = await setupTenant(h, 'trader-life-b', '乙贸易', ['carol']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, a.token)).body.data.items;
  near = a.symbol;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > near);
  const aluminium = (await h.call('/api/trader/view/instruments', { product_name: '铝' }, a.token)).body.data.items;
  otherProduct = aluminium[1].symbol;
});
afterAll(async () => {
  await h?.close();
});

const newContract = async (t: Tenant, pricer: string, over: Record<string, unknown> = {}) =>
  (await createContract(h, t, pricer, DEADLINE, over)).id;

const row = (id: number) => h.db.selectFrom('contracts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const snapshot = async () => ({
  contracts: await h.db.selectFrom('contracts').selectAll().orderBy('id').execute(),
  ledger: (await h.db.selectFrom('funds_ledger').select('id').execute()).length,
  events: (await h.db.selectFrom('contract_events').select('id').execute()).length,
});

const ROLL = '/api/trader/rpc/roll-contract';
const EXTEND = '/api/trader/rpc/extend-deadline';

/** The first day on or after `from` that is no trading day of the exchanges and no earlier than today. */
const closedDayFrom = (from: string) => {
  let d = from;
  while (isTradingDay('SHFE', d)) d = addCalendarDays(d, 1);
  return d;
};
const notTradingDay = (d: string) => {
  const why = closedReason('SHFE', d)!;
  return `点价截止日 ${d} 不是上海期货交易所的交易日（${why}），请选择交易日`;
};

describe('the exchange calendar (docs/calendar.md)', () => {
  it('refuses a 截止日 on a holiday or a weekend on create-contract, naming the field; nothing is created', async () => {
    const before = await snapshot();
    // 1 January is 元旦 every year (the notice, or the law's fixed-date holiday past the known calendar).
    const newYear = `${Number(shanghaiToday().slice(0, 4)) + 1}-01-01`;
    const weekend = closedDayFrom(tradingDayIn(3));
    for (const [deadline, reason] of [
      [newYear, '元旦休市'],
      [weekend, closedReason('SHFE', weekend)!],
    ] as const) {
      const res = await h.call(
        '/api/trader/rpc/create-contract',
        {
          pricer_id: a.pricers.alice!.id,
          product_name: '铜',
          instrument_id: a.symbol,
          direction: 'BUY',
          total_quantity: 20,
          basis: 150,
          fixing_deadline: deadline,
        },
        a.token,
      );
      expect(res.status, deadline).toBe(400);
      expect(res.body.error).toMatchObject({
        field: 'fixing_deadline',
        message: `点价截止日 ${deadline} 不是上海期货交易所的交易日（${reason}），请选择交易日`,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a non-trading 截止日 on extend-deadline and roll-contract; nothing changes', async () => {
    // Tenant b's: tenant a's exposure is counted by the tests below.
    const id = await newContract(b, 'carol', { instrument_id: far });
    const nearId = await newContract(b, 'carol');
    const before = await snapshot();
    const later = closedDayFrom(addCalendarDays(DEADLINE, 1));
    const extend = await h.call(EXTEND, { contract_id: id, fixing_deadline: later }, b.token);
    expect(extend.status, JSON.stringify(extend.body)).toBe(400);
    expect(extend.body.error).toMatchObject({ field: 'fixing_deadline', message: notTradingDay(later) });
    const roll = await h.call(
      ROLL,
      {
        contract_id: nearId,
        to_instrument_id: far,
        quantity: 5,
        spread: 30,
        fixing_deadline: later,
        agreed_via: 'phone',
      },
      b.token,
    );
    expect(roll.status, JSON.stringify(roll.body)).toBe(400);
    expect(roll.body.error).toMatchObject({ field: 'fixing_deadline', message: notTradingDay(later) });
    expect(await snapshot()).toEqual(before);
  });
});

describe('转月 roll', () => {
  it('refuses bad input with a Chinese 400 naming the field, held lots with a 409 listing them; nothing changes', async () => {
    const id = await newContract(a, 'alice');
    const order = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: id, quantity: 5, price: 80_000 },
      a.pricers.alice!.jwt,
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const cond = await h.call(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: id, quantity: 3, trigger_op: '>=', trigger_price: 90_000, order_price: 0 },
      a.pricers.alice!.jwt,
    );
    expect(cond.status, JSON.stringify(cond.body)).toBe(200);
    const before = await snapshot();
    const base = { contract_id: id, to_instrument_id: far, quantity: 5, spread: 30, agreed_via: 'phone' };
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ to_instrument_id: near }, 'to_instrument_id', '转入的期货合约不能与原合约相同'],
      [{ to_instrument_id: otherProduct }, 'to_instrument_id', '转入的期货合约必须是同一品种（铜）'],
      [{ to_instrument_id: 'SHFE.cu0001' }, 'to_instrument_id', '转入的期货合约不存在或已到期'],
      [{ quantity: 21 }, 'quantity', '转月数量超过未点价数量（可转 12 手，另有 8 手被委托或条件单占用）'],
      [{ quantity: 0 }, 'quantity', '转月数量必须大于0'],
      [{ quantity: 2.5 }, 'quantity', '转月数量必须是整数'],
      [{ spread: 5 }, 'spread', '月差必须是最小变动价位 10 的整数倍'],
      [{ spread: 'x' }, 'spread', '请输入月差（可为负数）'],
      [{ fee_per_unit: -1 }, 'fee_per_unit', '转月费不能为负数'],
      [{ agreed_via: undefined }, 'agreed_via', '请选择客户同意转月的方式（电话、书面、面谈或其他）'],
      [{ agreed_via: 'email' }, 'agreed_via', '请选择客户同意转月的方式（电话、书面、面谈或其他）'],
      [{ agreed_via: 'other' }, 'agreed_note', '客户同意方式为其他时，请填写说明'],
      [{ fixing_deadline: day(-1) }, 'fixing_deadline', '点价截止日不能早于今天'],
      [
        { fixing_deadline: '2099-01-01' },
        'fixing_deadline',
        /^点价截止日不能晚于 \d{4}-\d{2}-\d{2}（期货合约最后交易日/,
      ],
    ];
    for (const [over, field, message] of cases) {
      const res = await h.call(ROLL, { ...base, ...over }, a.token);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error.field, JSON.stringify(over)).toBe(field);
      expect(res.body.error.message, JSON.stringify(over)).toMatch(message);
    }
    // 15 lots: 12 are free, 3 more would come from the held ones — the trader cancels them first.
    const held = await h.call(ROLL, { ...base, quantity: 15 }, a.token);
    expect(held.status).toBe(409);
    expect(held.body.error.message).toBe(
      `转月的手数被未完成的委托或等待中的条件单占用，请先撤销：委托 #${order.body.data.id}（5 手）；条件单 #${cond.body.data.id}（3 手）`,
    );
    expect((await h.call(ROLL, { ...base, contract_id: id }, b.token)).status).toBe(404);
    expect((await h.call(ROLL, { ...base, contract_id: 999_999 }, a.token)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('moves the lots to the new month at basis + spread, charges the fee, audits, and moves the exposure', async () => {
    const id = await newContract(a, 'bob', { margin_rate: 0.1 });
    const res = await h.call(
      ROLL,
      {
        contract_id: id,
        to_instrument_id: far,
        quantity: 16,
        spread: -40,
        fee_per_unit: 2,
        agreed_via: 'written',
        agreed_note: '书面确认函 2026-118',
      },
      a.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { from, to, confirmation } = res.body.data;
    const latest = latestDeadline(far, new Date())!.latest;
    // The old contract's terms stay as agreed: its total is unchanged, the 16 lots show as rolled out.
    expect(from).toMatchObject({
      id,
      total_quantity: 20,
      remaining_quantity: 4,
      frozen_quantity: 0,
      rolled_out_quantity: 16,
      status: 'active',
    });
    expect(to).toMatchObject({
      instrument_id: far,
      pricer_id: a.pricers.bob!.id,
      direction: 'BUY',
      total_quantity: 16,
      remaining_quantity: 16,
      basis: 110,
      margin_rate: 0.1,
      rolled_from: id,
      fixing_deadline: latest,
      fees: 160,
      status: 'active',
    });
    expect(confirmation).toMatchObject({
      from_instrument_id: near,
      to_instrument_id: far,
      quantity: 16,
      multiplier: 5,
      unit: '吨',
      old_basis: 150,
      new_basis: 110,
      spread: -40,
      fee_per_unit: 2,
      fee: 160,
      agreed_via: 'written',
      agreed_note: '书面确认函 2026-118',
    });
    expect(confirmation.confirmation_no).toMatch(/^ZY\d{8}-\d{6}$/);
    // A fee receivable, not a ledger entry (issue 41, docs/statements.md).
    expect(
      await h.db.selectFrom('funds_ledger').select('id').where('pricer_id', '=', a.pricers.bob!.id).execute(),
    ).toEqual([]);
    const owed = await h.db
      .selectFrom('fee_receivables')
      .selectAll()
      .where('pricer_id', '=', a.pricers.bob!.id)
      .execute();
    expect(owed.map((f) => [f.kind, f.contract_id, Number(f.amount), f.status, f.note])).toEqual([
      ['roll', to.id, 160, 'open', `转月费：合同 #${to.id}，16 手`],
    ]);
    const audited = await h.db.selectFrom('audit_log').selectAll().where('action', '=', 'roll-contract').execute();
    expect(audited.at(-1)!.payload).toMatchObject({ contract_id: id, new_contract_id: to.id, fee: 160 });
    const ex = (await h.call('/api/trader/view/exposure', {}, a.token)).body.data.items as {
      instrument_id: string;
      unfixed_buy: number;
    }[];
    expect(ex.find((i) => i.instrument_id === far)?.unfixed_buy).toBe(16);
    // The customer's history shows the 转月确认单 on the new contract; the trader's the roll out on the old.
    const mine = await h.call('/api/pricer/view/contract-history', { contract_id: to.id }, a.pricers.bob!.jwt);
    expect(mine.body.data.items.map((e: { kind: string }) => e.kind)).toEqual(['created', 'roll_in']);
    expect(mine.body.data.items[1].roll).toMatchObject({ confirmation_no: confirmation.confirmation_no, fee: 160 });
    const old = await h.call('/api/trader/view/contract-history', { contract_id: id }, a.token);
    expect(old.body.data.items.map((e: { text: string }) => e.text)).toEqual([
      `创建合同：20 手（100 吨），${near}，基差 150`,
      `转月转出 16 手至 ${far}（新合同 #${to.id}）`,
    ]);
    expect(
      (await h.call('/api/pricer/view/contract-history', { contract_id: to.id }, a.pricers.alice!.jwt)).status,
    ).toBe(404);
  });

  it('completes the old contract when nothing is left to fix', async () => {
    const id = await newContract(a, 'alice', { total_quantity: 10 });
    const res = await h.call(
      ROLL,
      { contract_id: id, to_instrument_id: far, quantity: 10, spread: 0, agreed_via: 'phone' },
      a.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await row(id)).toMatchObject({
      status: 'completed',
      total_quantity: 10,
      remaining_quantity: 0,
      rolled_out_quantity: 10,
    });
    const again = await h.call(
      ROLL,
      { contract_id: id, to_instrument_id: far, quantity: 1, spread: 0, agreed_via: 'phone' },
      a.token,
    );
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('合同已完成，不能转月');
  });
});

describe('延期 extension', () => {
  it('refuses an earlier, equal, past or too late deadline naming the field; nothing changes', async () => {
    const id = await newContract(a, 'alice');
    const before = await snapshot();
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ fixing_deadline: day(-1) }, 'fixing_deadline', '点价截止日不能早于今天'],
      [{ fixing_deadline: day(5) }, 'fixing_deadline', `新点价截止日必须晚于当前截止日 ${DEADLINE}`],
      [{ fixing_deadline: DEADLINE }, 'fixing_deadline', `新点价截止日必须晚于当前截止日 ${DEADLINE}`],
      [{ fixing_deadline: '2099-12-31' }, 'fixing_deadline', /^点价截止日不能晚于/],
      [{ fixing_deadline: '2026-02-30' }, 'fixing_deadline', '新点价截止日应为有效日期（YYYY-MM-DD）'],
      [{ fixing_deadline: tradingDayIn(25), fee: 1.234 }, 'fee', '延期费最多两位小数'],
    ];
    for (const [over, field, message] of cases) {
      const res = await h.call(EXTEND, { contract_id: id, ...over }, a.token);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error.field, JSON.stringify(over)).toBe(field);
      expect(res.body.error.message, JSON.stringify(over)).toMatch(message);
    }
    expect((await h.call(EXTEND, { contract_id: id, fixing_deadline: tradingDayIn(25) }, b.token)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('moves the deadline later, re-opens an expired contract, and charges the fee as a receivable', async () => {
    const id = await newContract(a, 'alice');
    await h.db
      .updateTable('contracts')
      .set({ status: 'expired', fixing_deadline: day(-3) })
      .where('id', '=', id)
      .execute();
    const to =
      latestDeadline(near, new Date())!.latest < tradingDayIn(25)
        ? latestDeadline(near, new Date())!.latest
        : tradingDayIn(25);
    const res = await h.call(EXTEND, { contract_id: id, fixing_deadline: to, fee: 500 }, a.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', fixing_deadline: to, fees: 500 });
    const owed = await h.db
      .selectFrom('fee_receivables')
      .selectAll()
      .where('pricer_id', '=', a.pricers.alice!.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([owed.kind, owed.contract_id, Number(owed.amount), owed.status, owed.note]).toEqual([
      'extension',
      id,
      500,
      'open',
      `延期费：合同 #${id}，点价截止日延至 ${to}`,
    ]);
    const history = await h.call('/api/pricer/view/contract-history', { contract_id: id }, a.pricers.alice!.jwt);
    expect(history.body.data.items.at(-1)).toMatchObject({
      kind: 'extension',
      text: `点价截止日由 ${day(-3)} 延至 ${to}`,
      fee: 500,
    });
    // The customer can fix it again.
    const fix = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: id, quantity: 1, price: 80_000 },
      a.pricers.alice!.jwt,
    );
    expect(fix.status, JSON.stringify(fix.body)).toBe(200);
  });

  it('refuses a contract with nothing left to fix (409)', async () => {
    const id = await newContract(a, 'alice', { total_quantity: 1 });
    await h.db
      .updateTable('contracts')
      .set({ status: 'completed', remaining_quantity: 0, executed_quantity: 1 })
      .where('id', '=', id)
      .execute();
    const res = await h.call(EXTEND, { contract_id: id, fixing_deadline: tradingDayIn(25) }, a.token);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('合同已全部执行，不能延期');
  });
});

describe('均价点价 average contracts', () => {
  const start = day(1);
  const end = day(14);

  it('refuses a bad window naming the field; nothing is created', async () => {
    const count = async () => (await h.db.selectFrom('contracts').select('id').execute()).length;
    const before = await count();
    let saturday = day(1);
    for (let i = 1; new Date(`${saturday}T00:00:00Z`).getUTCDay() !== 6; i++) saturday = day(i);
    const sunday = shanghaiToday(new Date(Date.parse(`${saturday}T12:00:00+08:00`) + 86_400_000));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ pricing_mode: 'average' }, 'average_start', '均价点价合同必须填写均价开始日和均价结束日'],
      [{ pricing_mode: 'average', average_start: start }, 'average_end', '均价点价合同必须填写均价开始日和均价结束日'],
      [
        { pricing_mode: 'average', average_start: end, average_end: start },
        'average_end',
        '均价结束日不能早于均价开始日',
      ],
      [
        { pricing_mode: 'average', average_start: day(-2), average_end: end },
        'average_start',
        '均价开始日不能早于今天',
      ],
      [
        { pricing_mode: 'average', average_start: saturday, average_end: sunday },
        'average_start',
        '均价区间内没有交易日',
      ],
      [
        { pricing_mode: 'average', average_start: start, average_end: day(30) },
        'average_end',
        `均价结束日不能晚于点价截止日 ${DEADLINE}`,
      ],
      [{ pricing_mode: 'point', average_start: start, average_end: end }, 'pricing_mode', '点价合同不需要均价区间'],
      [{ pricing_mode: 'twap' }, 'pricing_mode', '点价方式应为 point 或 average'],
      [
        { pricing_mode: 'average', average_start: '2026-13-01', average_end: end },
        'average_start',
        '均价开始日应为有效日期（YYYY-MM-DD）',
      ],
    ];
    for (const [over, field, message] of cases) {
      const res = await h.call(
        '/api/trader/rpc/create-contract',
        {
          pricer_id: a.pricers.alice!.id,
          product_name: '铜',
          instrument_id: a.symbol,
          direction: 'BUY',
          total_quantity: 20,
          basis: 150,
          fixing_deadline: DEADLINE,
          ...over,
        },
        a.token,
      );
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error, JSON.stringify(over)).toMatchObject({ field, message });
    }
    expect(await count()).toBe(before);
  });

  it('has a schedule for its trader and its customer, and cannot be fixed by hand', async () => {
    const id = await newContract(a, 'alice', {
      pricing_mode: 'average',
      average_basis: 'fills',
      average_start: start,
      average_end: end,
      total_quantity: 47,
    });
    const days = tradingDaysIn(start, end);
    const res = await h.call('/api/trader/view/contract-schedule', { contract_id: id }, a.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      pricing_mode: 'average',
      average_start: start,
      average_end: end,
      average_basis: 'fills',
      fixing_time: '14:50',
      avg_price: null,
    });
    expect(res.body.data.days.map((d: { date: string }) => d.date)).toEqual(days);
    expect(res.body.data.days.every((d: { status: string }) => d.status === 'planned')).toBe(true);
    expect(res.body.data.days.reduce((s: number, d: { planned_lots: number }) => s + d.planned_lots, 0)).toBe(47);
    const mine = await h.call('/api/pricer/view/contract-schedule', { contract_id: id }, a.pricers.alice!.jwt);
    expect(mine.body.data.days).toEqual(res.body.data.days);
    expect((await h.call('/api/pricer/view/contract-schedule', { contract_id: id }, a.pricers.bob!.jwt)).status).toBe(
      404,
    );
    expect((await h.call('/api/trader/view/contract-schedule', { contract_id: id }, b.token)).status).toBe(404);
    const bad = await h.call('/api/trader/view/contract-schedule', { contract_id: 'x' }, a.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('contract_id');

    const fix = await h.call(
      '/api/pricer/rpc/submit-order',
      { contract_id: id, quantity: 1, price: 80_000 },
      a.pricers.alice!.jwt,
    );
    expect(fix.status).toBe(409);
    expect(fix.body.error.message).toBe('均价点价合同由系统每日自动点价，不能手动点价，不能下单');
    const snap = await h.call('/api/pricer/view/my-data-snapshot', {}, a.pricers.alice!.jwt);
    const c = snap.body.data.contracts.find((x: { id: number }) => x.id === id);
    expect(c).toMatchObject({
      pricing_mode: 'average',
      not_fixable_reason: '均价点价合同由系统每日自动点价，不能手动点价',
    });
    expect(await row(id)).toMatchObject({ remaining_quantity: 47, frozen_quantity: 0 });
  });
});
