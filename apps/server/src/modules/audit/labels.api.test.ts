import { auditActionLabel, auditDetails, zh } from '@pfp/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingDayIn } from '../../../test/days';
import { callOk, quoteCopperMonths, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { setMarket, type FakeQuotes } from '../../../test/trading/testSupport';
import { shanghaiDate } from '../../platform/time';
import { shanghaiToday } from '../contracts/fixingTerms';
import type { TradingService } from '../../trading/service';
import { expireDueConditionals, triggerConditional } from '../conditional/conditional';
import { expireDueContracts } from '../controls/deadlines';
import { runAverageFixings } from '../lifecycle/average';
import { publishSettlementPrices, runSettlementBookings } from '../lifecycle/settlement';
import { markAccounts } from '../margin/watch';
import { notifyFills } from '../notifications/notify';

/*
 * Every audit row in Chinese (issue 41): one run of every action the log knows, on the real app and the
 * real trading service; then each row as the log page shows it — the action's label and 内容 — must
 * speak no key: every field named, every code a word, old and new values named.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let far: string;
const DEADLINE = tradingDayIn(20);

beforeAll(async () => {
  // With the best bid and ask too: the 转月 auto rule prices from them.
  ({ h, service, quotes, stop } = await startDesk({
    quote: (q) => (s) => {
      const at = q.getQuote(s);
      return at && { ...q.quoteOf(s), bid_price1: at.bid_price1 ?? null, ask_price1: at.ask_price1 ?? null };
    },
    fillsBooked: notifyFills,
  }));
  // The company first, answered 200 (under a loaded machine the overload guard may answer 503 once).
  const token = await h.idp.sign({}, { sub: 'trader-audit-labels' });
  for (let n = 0; n < 10; n++) {
    const res = await h.call(
      '/api/trader/rpc/trader-profile',
      { company_name: '甲贸易', tq_account_config: { is_sim: true } },
      token,
    );
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  a = await setupTenant(h, 'trader-audit-labels', '甲贸易', ['alice', 'bob']);
  far = await quoteCopperMonths(h, quotes, a);
});
afterAll(() => stop?.());

const ok = (path: string, body: Record<string, unknown>, token = a.token) => callOk(h, path, body, token);
const trader = (call: string, body: Record<string, unknown>) => ok(`/api/trader/rpc/${call}`, body);
const pricer = (call: string, body: Record<string, unknown>, who = 'alice') =>
  ok(`/api/pricer/rpc/${call}`, body, a.pricers[who]!.jwt);

/** Every action of the log, run once (or as the server's own jobs run them). */
async function runEveryAction() {
  const alice = a.pricers.alice!.id;
  const bob = a.pricers.bob!.id;
  // trader-profile, create-pricer-user, pricer-login: setupTenant.
  await trader('update-pricer-profile', { user_id: alice, full_name: '甲铜材有限公司', confirm_before_fix: false });
  await trader('reset-pricer-password', { user_id: bob, new_password: 'pw456' });
  for (let n = 0; n < 6; n++)
    await h.call('/api/pricer/rpc/pricer-login', { tenant_id: a.tenantId, username: 'bob', password: 'wrong' });
  await trader('unlock-pricer', { user_id: bob });
  await trader('set-margin-settings', { default_margin_rate: 0.1 });
  await trader('record-funds', { pricer_id: alice, kind: 'deposit', amount: 100_000, note: '首笔保证金' });
  await trader('set-credit-line', { pricer_id: alice, credit_line: 10_000 });
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  try {
    await trader('set-webhook', {
      url: 'http://127.0.0.1:9/cgi-bin/webhook/send?key=693a91f6',
      secret: '密钥',
      kinds: ['fill', 'margin_call'],
    });
  } finally {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
  }

  const c = (await createContract(h, a, 'alice', DEADLINE, { margin_rate: 0.1 })).id;
  await trader('update-contract-status', { contract_id: c, new_status: 'paused' });
  await trader('update-contract-status', { contract_id: c, new_status: 'active' });
  const fix = await pricer('submit-order', { contract_id: c, quantity: 1, price: 0 });
  await service.idle();
  await pricer('acknowledge-confirmation', { order_id: fix.id });
  // A margin call and its end: copper falls 20,000 on alice's fixed lot.
  setMarket(quotes, a.symbol, 60_000);
  await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price);
  await trader('record-funds', { pricer_id: alice, kind: 'deposit', amount: 500_000 });
  await markAccounts(h.db, (s) => quotes.getQuote(s)?.last_price);
  setMarket(quotes, a.symbol, 80_000);
  const resting = await pricer('submit-order', { contract_id: c, quantity: 1, price: 78_500 });
  await service.idle();
  await pricer('cancel-order', { order_id: resting.id });
  await service.idle();
  await trader('settle-lots', { contract_id: c, quantity: 1, note: '交货' });

  // 条件单: created, cancelled, fired, expired.
  const cond = (trigger_price: number, expires_at?: string) =>
    pricer('create-conditional-order', {
      contract_id: c,
      quantity: 1,
      trigger_op: '<=',
      trigger_price,
      order_price: 0,
      ...(expires_at ? { expires_at } : {}),
    });
  const cancelled = await cond(60_000);
  await pricer('cancel-conditional-order', { id: cancelled.id });
  const fired = await cond(79_000);
  await triggerConditional(h.db, fired.id, 78_990);
  await service.idle();
  await cond(60_000, new Date(Date.now() + 60_000).toISOString());
  await expireDueConditionals(h.db, new Date(Date.now() + 120_000));

  // 转月, 延期, expiry.
  const rolled = (await createContract(h, a, 'bob', DEADLINE)).id;
  await trader('roll-contract', {
    contract_id: rolled,
    to_instrument_id: far,
    quantity: 5,
    spread: 30,
    fee_per_unit: 2,
    agreed_via: 'phone',
  });
  await trader('extend-deadline', { contract_id: rolled, fixing_deadline: tradingDayIn(25), fee: 300 });
  const expiring = (await createContract(h, a, 'bob', DEADLINE)).id;
  await h.db.updateTable('contracts').set({ fixing_deadline: '2020-01-06' }).where('id', '=', expiring).execute();
  await expireDueContracts(h.db);

  // 均价点价: an average contract whose window is one trading day, run at its fixing time.
  const day = tradingDayIn(2);
  await h.db
    .insertInto('contracts')
    .values({
      tenant_id: a.tenantId,
      name: '均价合同-审计',
      pricer_id: bob,
      product_name: '铜',
      instrument_id: a.symbol,
      direction: 'BUY',
      total_quantity: 2,
      remaining_quantity: 2,
      status: 'active',
      basis: 100,
      fixing_deadline: DEADLINE,
      pricing_mode: 'average',
      average_start: day,
      average_end: day,
    })
    .execute();
  await runAverageFixings(h.db, { now: shanghaiDate(`${day} 14:55`) });
  // 均价依据 结算价 (issue 43): the day booked after the close at the published settlement price.
  await h.db
    .insertInto('contracts')
    .values({
      tenant_id: a.tenantId,
      name: '结算价均价-审计',
      pricer_id: bob,
      product_name: '铜',
      instrument_id: a.symbol,
      direction: 'BUY',
      total_quantity: 2,
      remaining_quantity: 2,
      status: 'active',
      basis: 100,
      fixing_deadline: DEADLINE,
      pricing_mode: 'average',
      average_start: day,
      average_end: day,
      average_basis: 'settlement',
    })
    .execute();
  await publishSettlementPrices(h.db, day, [{ instrument_id: a.symbol, price: 80_000, volume: 10, source: 'sim' }]);
  await runSettlementBookings(h.db, { now: shanghaiDate(`${day} 15:05`) });

  // 转月申请 (issue 42): the customer applies, the trader prices, the customer accepts (a roll-contract row).
  const applying = (await createContract(h, a, 'alice', DEADLINE)).id;
  const application = await pricer('apply-roll', { contract_id: applying, quantity: 1, to_instrument_id: far });
  await trader('price-roll', { application_id: application.id, spread: 30, fee_per_unit: 2, valid_seconds: 300 });
  await pricer('accept-roll', { application_id: application.id });
  // The auto rule (docs/roles.md): set, then an application priced by 系统 within its band.
  await trader('set-roll-auto-pricing', { enabled: true, max_spread_deviation: 1_000, valid_seconds: 300 });
  const auto = await pricer('apply-roll', {
    contract_id: (await createContract(h, a, 'alice', DEADLINE)).id,
    quantity: 1,
    to_instrument_id: far,
  });
  expect(auto.status).toBe('priced');

  // Fees and the statement (issue 41): a fee waived, the customer confirms and disputes.
  const fees = await ok('/api/trader/view/fee-receivables', {});
  await trader('settle-fee', { fee_id: fees.items[0].id, method: 'waive', note: '首次转月免收' });
  // One answer per statement: a confirmation of today's, a dispute of the month's.
  for (const [start_date, response] of [
    [shanghaiToday(), 'confirmed'],
    [`${shanghaiToday().slice(0, 8)}01`, 'disputed'],
  ] as const) {
    const period = { start_date, end_date: shanghaiToday() };
    const mine = await ok('/api/pricer/view/statement', period, a.pricers.alice!.jwt);
    await pricer('respond-statement', { ...period, digest: mine.digest, response, note: '入金金额不对' });
  }

  // 点价协议 (issue 43): a new required version, accepted on the desk, the signed paper recorded.
  const saved = await trader('save-agreement', {
    title: '点价协议（修订）',
    text: '第一条 修订条款。',
    required: true,
  });
  await pricer('accept-agreement', { version: saved.version });
  await trader('record-signed-agreement', {
    user_id: alice,
    version: saved.version,
    reference: '2026-0001',
    signed_on: shanghaiToday(),
  });
  // 授权点价人 (issue 43 item 4): added, edited, switched off and back on.
  const person = await trader('add-authorised-pricer', {
    user_id: alice,
    name: '赵敏',
    id_type: 'id_card',
    id_last4: '123X',
    phone: '13800138000',
    username: 'alice2',
    password: 'zhao-pass-1',
  });
  await trader('update-authorised-pricer', { person_id: person.id, id_type: 'passport' });
  await trader('set-authorised-pricer-active', { person_id: person.id, active: false });
  await trader('set-authorised-pricer-active', { person_id: person.id, active: true });
  await trader('reset-authorised-pricer-password', { person_id: person.id, new_password: 'pw-person-2' });

  // Staff and four eyes (issue 42): a 风控 joins; a held 授信 approved, another rejected.
  const risk = await trader('create-staff', {
    username: 'risk1',
    password: 'staff-pass-1',
    full_name: '李风控',
    roles: ['risk'],
  });
  const riskToken = await h.idp.sign({}, { sub: risk.user_id });
  await trader('set-approval-policy', { actions: ['set-credit-line'] });
  const held = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 20_000 }, a.token);
  expect(held.status).toBe(202);
  await ok('/api/trader/rpc/approve-request', { request_id: held.body.data.request_id }, riskToken);
  const refused = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 30_000 }, a.token);
  expect(refused.status).toBe(202);
  await ok(
    '/api/trader/rpc/reject-request',
    { request_id: refused.body.data.request_id, reason: '额度过高' },
    riskToken,
  );
  await trader('update-staff', { user_id: risk.user_id, status: 'disabled' });

  // A fill after a stop is booked in SQL by trading/apply.ts; its row has this shape.
  await h.db
    .insertInto('audit_log')
    .values({
      tenant_id: a.tenantId,
      actor: 'system',
      action: 'fill-after-stop',
      payload: JSON.stringify({ order_id: fix.id, volume: 1, reason: '合同已暂停' }),
    })
    .execute();
  await trader('update-pricer-status', { user_id: bob, new_status: 'inactive' });
}

describe('the audit log in Chinese (issue 41)', () => {
  it('labels every action and names every field and code of the rows a run of every action writes', async () => {
    await runEveryAction();
    const actions = Object.keys(zh.fixing.audit.actions);
    const page = await ok('/api/trader/view/audit-log', { slice_start: 0, slice_end: 500 });
    const rows = page.items as {
      action: string;
      action_label: string;
      payload: string;
      contract_name: string | null;
      customer_name: string | null;
    }[];
    // Every action the server wrote is one the log (and its filter) knows, and each was run.
    const written = [...new Set(rows.map((r) => r.action))].sort();
    expect(written.filter((x) => !actions.includes(x))).toEqual([]);
    expect(actions.filter((x) => !written.includes(x))).toEqual([]);

    // Names, symbols and the masked address may be Latin; nothing else may.
    const allowed = [a.symbol, far, 'alice', 'bob', 'risk1', 'http://127.0.0.1:9/cgi-bin/webhook/send?key=***', 'QR'];
    const raw: string[] = [];
    for (const r of rows) {
      expect(r.action_label, r.action).toBe(auditActionLabel(r.action));
      expect(r.action_label, r.action).toMatch(/[\u4e00-\u9fff]/);
      let text = auditDetails(r.payload, r);
      for (const ok of allowed) text = text.split(ok).join('');
      const latin = text.match(/[A-Za-z_]{2,}/g);
      if (latin) raw.push(`${r.action_label}: ${latin.join(' ')} ← ${auditDetails(r.payload, r)}`);
    }
    expect(raw).toEqual([]);

    // Old and new values named: 授信 says its old limit as a limit, not as a status.
    // The first 授信 (rows come newest first; the later ones went through approval).
    const credit = rows.filter((r) => r.action === 'set-credit-line').at(-1)!;
    expect(auditDetails(credit.payload, credit)).toBe(
      `原授信额度: 0 元，备注: 无，客户编号: ${a.pricers.alice!.id}（甲铜材有限公司），授信额度: 10,000 元`,
    );
    const rate = rows.find((r) => r.action === 'set-margin-settings')!;
    expect(auditDetails(rate.payload, rate)).toBe('原默认保证金比例: 0%，公司默认保证金比例: 10%');
    // What the reader of the log sees for the new rows, each a sentence of named fields (shown on failure).
    // The trader's direct 转月 (the first one; the accepted application's comes later).
    const roll = rows.filter((r) => r.action === 'roll-contract').at(-1)!;
    expect(auditDetails(roll.payload, roll)).toMatch(/转月手数: 5，/);
    expect(auditDetails(roll.payload, roll)).toMatch(/转入期货合约: /);
  });
});
