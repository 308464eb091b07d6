import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { addCalendarDays, tradingDayOnOrAfter } from '@pfp/contract';
import { tradingDayIn } from '../../../test/days';

/*
 * Amounts that round to 0 and money products the numeric columns cannot hold (issue 40 item 4): a
 * Chinese 400 naming the field that changes nothing — they used to reach the ledger's CHECK or a
 * numeric overflow and answer 500.
 */

let h: Harness;
let a: Tenant;
let far: string;
// Deadlines on trading days (docs/calendar.md), the second one later than the first.
const DEADLINE = tradingDayIn(20);
const LATER = tradingDayOnOrAfter('SHFE', addCalendarDays(DEADLINE, 5));

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'trader-bounds', '界限贸易', ['alice']);
  const copper = (await h.call('/api/trader/view/instruments', { product_name: '铜' }, a.token)).body.data.items;
  far = copper.map((i: { symbol: string }) => i.symbol).find((s: string) => s > a.symbol);
});
afterAll(async () => {
  await h?.close();
});

const snapshot = async () => ({
  contracts: await h.db.selectFrom('contracts').selectAll().orderBy('id').execute(),
  ledger: await h.db.selectFrom('funds_ledger').selectAll().orderBy('id').execute(),
  accounts: await h.db.selectFrom('pricer_accounts').selectAll().orderBy('pricer_id').execute(),
});

/** Sends `json` as written (JSON.stringify would spell 5e-324 the same, but keep the probe's text). */
const raw = (url: string, json: string) =>
  h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
    payload: json,
  });

describe('money input bounds', () => {
  it('refuses an amount that rounds to 0 yuan (1e-9, 1e-300, 5e-324) with a Chinese 400 naming it', async () => {
    const alice = a.pricers.alice!.id;
    const before = await snapshot();
    for (const kind of ['deposit', 'withdraw', 'adjust'])
      for (const amount of ['1e-9', '1e-300', '5e-324', '-1e-9', '0.004']) {
        if (amount.startsWith('-') && kind !== 'adjust') continue;
        const res = await raw(
          '/api/trader/rpc/record-funds',
          `{"pricer_id":${alice},"kind":"${kind}","amount":${amount}}`,
        );
        expect(res.statusCode, `${kind} ${amount}: ${res.body}`).toBe(400);
        expect(res.json().error).toMatchObject({ field: 'amount', message: '金额最多两位小数' });
      }
    for (const credit of ['1e-9', '5e-324']) {
      const res = await raw('/api/trader/rpc/set-credit-line', `{"pricer_id":${alice},"credit_line":${credit}}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ field: 'credit_line', message: '授信额度最多两位小数' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a roll fee whose total (fee × lots × multiplier) the ledger cannot hold, naming fee_per_unit', async () => {
    const { id } = await createContract(h, a, 'alice', DEADLINE, { total_quantity: 2_000 });
    const before = await snapshot();
    const res = await h.call(
      '/api/trader/rpc/roll-contract',
      { contract_id: id, to_instrument_id: far, agreed_via: 'phone', quantity: 2_000, spread: 0, fee_per_unit: 1e12 },
      a.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.field).toBe('fee_per_unit');
    expect(res.body.error.message).toBe('转月费合计（转月费 × 手数 × 合约乘数）不能超过 1,000,000,000,000 元');
    expect(await snapshot()).toEqual(before);
    // The same roll at a fee the ledger holds goes through.
    const ok = await h.call(
      '/api/trader/rpc/roll-contract',
      {
        contract_id: id,
        to_instrument_id: far,
        agreed_via: 'phone',
        quantity: 2_000,
        spread: 0,
        fee_per_unit: 100_000_000,
      },
      a.token,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.confirmation.fee).toBe(1e12);
  });

  it('refuses a deposit or fee that would take the balance or a contract’s fees past what they hold', async () => {
    const alice = a.pricers.alice!.id;
    const { id } = await createContract(h, a, 'alice', DEADLINE);
    const opened = await h.call(
      '/api/trader/rpc/record-funds',
      { pricer_id: alice, kind: 'deposit', amount: 1 },
      a.token,
    );
    expect(opened.status).toBe(200);
    await h.db
      .updateTable('pricer_accounts')
      .set({ balance: 9_999_000_000_000_000 })
      .where('pricer_id', '=', alice)
      .execute();
    await h.db.updateTable('contracts').set({ fees: 9_999_000_000_000_000 }).where('id', '=', id).execute();
    const before = await snapshot();
    const deposit = await h.call(
      '/api/trader/rpc/record-funds',
      { pricer_id: alice, kind: 'deposit', amount: 1e12 },
      a.token,
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(400);
    expect(deposit.body.error).toMatchObject({ field: 'amount', message: '入账后余额将超过 10,000,000,000,000 元' });
    const extend = await h.call(
      '/api/trader/rpc/extend-deadline',
      { contract_id: id, fixing_deadline: LATER, fee: 1e12 },
      a.token,
    );
    expect(extend.status, JSON.stringify(extend.body)).toBe(400);
    expect(extend.body.error.field).toBe('fee');
    expect(await snapshot()).toEqual(before);
  });
});
