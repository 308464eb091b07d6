import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outOfSessionText } from '../../market/calendar';
import { findInstrument, productOfInstrument } from '../../market/catalogue';
import { startHarness, type Harness } from '../../../test/harness';
import { tradingDayIn } from '../../../test/days';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';

/**
 * Fixes only in the product's sessions (issue 43 item 5, docs/calendar.md "Sessions"): with a DIFF
 * feed or MARKET_SESSIONS=real the server is given `outOfSession`; here it is asked at a chosen
 * instant — Thursday 2026-12-03 22:00 Beijing, the night session of Friday's trading day.
 */
const NIGHT = new Date('2026-12-03T14:00:00Z');

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await startHarness({
    outOfSession: (symbol: string) => {
      const spec = findInstrument(symbol);
      return spec ? outOfSessionText(productOfInstrument(spec), NIGHT) : undefined;
    },
  });
  t = await setupTenant(h, 'trader-sessions', '时段贸易', ['nina']);
});
afterAll(() => h.close());

const fix = (contract_id: number) =>
  h.call('/api/pricer/rpc/submit-order', { contract_id, quantity: 1 }, t.pricers.nina!.jwt);

describe('a fix in the night session', () => {
  it('goes through on copper (night session to 01:00) and is refused on apples (no night session), nothing frozen', async () => {
    const copper = await createContract<{ id: number }>(h, t, 'nina', tradingDayIn(20), { margin_rate: 0 });
    const night = await fix(copper.id);
    expect(night.status, JSON.stringify(night.body)).toBe(200);

    const apple = await h.db
      .selectFrom('instruments')
      .select(['symbol', 'product_name'])
      .where('product_name', '=', '苹果')
      .where('expired', '=', false)
      .orderBy('symbol')
      .offset(1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const apples = await createContract<{ id: number }>(h, t, 'nina', tradingDayIn(20), {
      product_name: apple.product_name,
      instrument_id: apple.symbol,
      basis: 0,
      margin_rate: 0,
    });
    const refused = await fix(apples.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('market_closed');
    expect(refused.body.error.message).toBe(
      '苹果当前不在交易时段，不能点价。交易时段（北京时间）：日盘 09:00–10:15、10:30–11:30、13:30–15:00（无夜盘）',
    );
    const after = await h.call('/api/trader/view/contracts', { filter: `id = ${apples.id}` }, t.token);
    expect(after.body.data.items[0]).toMatchObject({ remaining_quantity: 20, frozen_quantity: 0 });
  });
});
