import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import { tradingDayIn } from '../../../test/days';

/*
 * 点价协议 (issue 43 item 3, docs/agreement.md) over HTTP on the real app: a customer who has not
 * accepted the current version is refused a fix and a 条件单 (409 with the link to the agreement) and
 * nothing is frozen; accepting records the version, time, address and browser; a new required version
 * asks again; the trader records the signed paper against it. The harness's fixture acceptance is off.
 */

let h: Harness;
let t: Tenant;
let other: Tenant;
let contractId: number;
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) 协议测试';

async function pricerCall(url: string, body: unknown, jwt: string) {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${jwt}`, 'user-agent': UA },
    payload: body as Record<string, unknown>,
  });
  return { status: res.statusCode, body: res.json() };
}
const jwt = (name: string) => t.pricers[name]!.jwt;
const fix = (name: string) =>
  pricerCall('/api/pricer/rpc/submit-order', { contract_id: contractId, quantity: 1, price: 0 }, jwt(name));
const frozen = async () =>
  (await h.db.selectFrom('contracts').select('frozen_quantity').where('id', '=', contractId).executeTakeFirstOrThrow())
    .frozen_quantity;

beforeAll(async () => {
  h = await startHarness({}, { agreement: 'manual' });
  t = await setupTenant(h, 'trader-agreement', '协议贸易', ['ann', 'ben']);
  other = await setupTenant(h, 'trader-agreement-2', '别家贸易', ['cat']);
  contractId = (await createContract(h, t, 'ann', tradingDayIn(20))).id;
});
afterAll(() => h?.close());

describe('点价协议 gate', () => {
  it('refuses a fix and a 条件单 before the customer accepts: 409 请先签署点价协议 with the link, nothing frozen', async () => {
    const refused = await fix('ann');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'agreement_required',
      message: '请先签署点价协议',
      link: '/api/pricer/view/agreement',
    });
    const conditional = await pricerCall(
      '/api/pricer/rpc/create-conditional-order',
      { contract_id: contractId, quantity: 1, trigger_op: '>=', trigger_price: 90_000, order_price: 0 },
      jwt('ann'),
    );
    expect(conditional.status).toBe(409);
    expect(conditional.body.error.message).toBe('请先签署点价协议');
    expect(await frozen()).toBe(0);
    expect(await h.db.selectFrom('orders').select('id').execute()).toEqual([]);
    expect(await h.db.selectFrom('conditional_orders').select('id').execute()).toEqual([]);
  });

  it('shows the built-in version 1 to a company that wrote none, not accepted yet', async () => {
    const view = await pricerCall('/api/pricer/view/agreement', {}, jwt('ann'));
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({
      version: 1,
      title: '点价交易协议',
      required_version: 1,
      accepted: false,
      acceptance: null,
    });
    expect(view.body.data.text).toContain('第一条');
  });

  it('accepting records the version, time, address and browser; the fix then goes through', async () => {
    const before = Date.now();
    const accepted = await pricerCall('/api/pricer/rpc/accept-agreement', { version: 1 }, jwt('ann'));
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.accepted).toBe(true);
    expect(accepted.body.data.acceptance).toMatchObject({ version: 1, ip: '127.0.0.1', user_agent: UA });
    const at = Date.parse(accepted.body.data.acceptance.accepted_at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    // A second press keeps the first acceptance.
    const again = await pricerCall('/api/pricer/rpc/accept-agreement', { version: 1 }, jwt('ann'));
    expect(again.body.data.acceptance.accepted_at).toBe(accepted.body.data.acceptance.accepted_at);
    const audit = await h.db
      .selectFrom('audit_log')
      .select(['actor', 'ip', 'user_agent'])
      .where('action', '=', 'accept-agreement')
      .execute();
    expect(audit).toEqual([{ actor: `pricer:${t.pricers.ann!.id}`, ip: '127.0.0.1', user_agent: UA }]);

    const fixed = await fix('ann');
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(await frozen()).toBe(1);
    // Another customer of the company has not accepted: still refused.
    expect((await fix('ben')).status).toBe(409);
  });

  it('refuses a version that is not the current one, and bad input names the field', async () => {
    const stale = await pricerCall('/api/pricer/rpc/accept-agreement', { version: 7 }, jwt('ben'));
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      message: '点价协议已更新为第 1 版，请阅读新版本后再同意',
      field: 'version',
    });
    const bad = await pricerCall('/api/pricer/rpc/accept-agreement', { version: 'one' }, jwt('ben'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('version');
    const blank = await h.call('/api/trader/rpc/save-agreement', { title: ' ', text: '正文', required: true }, t.token);
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({ field: 'title' });
  });

  it('a new version not required leaves the gate open; a required one asks everyone again', async () => {
    const v2 = await h.call(
      '/api/trader/rpc/save-agreement',
      { title: '点价协议（2027 版）', text: '第一条 新增夜盘点价条款。', required: false },
      t.token,
    );
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.data).toMatchObject({ version: 2, required: false, created_by: 'trader-agreement' });
    expect((await fix('ann')).status).toBe(200);
    const seen = await pricerCall('/api/pricer/view/agreement', {}, jwt('ann'));
    expect(seen.body.data).toMatchObject({ version: 2, required_version: 1, accepted: true });

    const v3 = await h.call(
      '/api/trader/rpc/save-agreement',
      { title: '点价协议（2027 修订）', text: '第一条 修订保证金条款。', required: true },
      t.token,
    );
    expect(v3.body.data).toMatchObject({ version: 3, required: true });
    const asked = await pricerCall('/api/pricer/view/agreement', {}, jwt('ann'));
    expect(asked.body.data).toMatchObject({
      version: 3,
      title: '点价协议（2027 修订）',
      required_version: 3,
      accepted: false,
      acceptance: { version: 1 },
    });
    expect((await fix('ann')).status).toBe(409);
    expect((await pricerCall('/api/pricer/rpc/accept-agreement', { version: 3 }, jwt('ann'))).status).toBe(200);
    expect((await fix('ann')).status).toBe(200);
    // Another company's agreement is its own: still the built-in version 1 there.
    const theirs = await pricerCall('/api/pricer/view/agreement', {}, other.pricers.cat!.jwt);
    expect(theirs.body.data).toMatchObject({ version: 1, accepted: false });
  });

  it('the trader records the signed paper against a version; the console lists every customer', async () => {
    const recorded = await h.call(
      '/api/trader/rpc/record-signed-agreement',
      {
        user_id: t.pricers.ann!.id,
        version: 3,
        reference: 'HT-2027-0001',
        signed_on: '2026-11-20',
        file_name: '点价协议-安.pdf',
      },
      t.token,
    );
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body.data).toMatchObject({ user_id: t.pricers.ann!.id, version: 3, reference: 'HT-2027-0001' });
    // Recording again replaces it.
    const replaced = await h.call(
      '/api/trader/rpc/record-signed-agreement',
      { user_id: t.pricers.ann!.id, version: 3, reference: 'HT-2027-0002', signed_on: '2026-11-21' },
      t.token,
    );
    expect(replaced.body.data).toMatchObject({ reference: 'HT-2027-0002', signed_on: '2026-11-21', file_name: null });

    const overview = await h.call('/api/trader/view/agreements', {}, t.token);
    expect(overview.status).toBe(200);
    expect(overview.body.data.templates.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(overview.body.data.required_version).toBe(3);
    const rows = overview.body.data.customers as { username: string; accepted: boolean; signed: unknown }[];
    expect(rows.map((c) => [c.username, c.accepted])).toEqual([
      ['ann', true],
      ['ben', false],
    ]);
    expect(rows[0]!.signed).toMatchObject({ version: 3, reference: 'HT-2027-0002', recorded_by: 'trader-agreement' });

    // Another company's customer, an unknown version, a bad date: refused, nothing recorded.
    const foreign = await h.call(
      '/api/trader/rpc/record-signed-agreement',
      { user_id: other.pricers.cat!.id, version: 1, reference: 'X', signed_on: '2026-11-20' },
      t.token,
    );
    expect(foreign.status).toBe(404);
    const unknown = await h.call(
      '/api/trader/rpc/record-signed-agreement',
      { user_id: t.pricers.ben!.id, version: 9, reference: 'X', signed_on: '2026-11-20' },
      t.token,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.field).toBe('version');
    const badDate = await h.call(
      '/api/trader/rpc/record-signed-agreement',
      { user_id: t.pricers.ben!.id, version: 3, reference: 'X', signed_on: '2026-02-30' },
      t.token,
    );
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.field).toBe('signed_on');
    expect(await h.db.selectFrom('agreement_signatures').select('pricer_id').execute()).toHaveLength(1);
  });

  it('two versions saved at once get two numbers', async () => {
    const saves = await Promise.all(
      [1, 2].map((n) =>
        h.call('/api/trader/rpc/save-agreement', { title: `并发 ${n}`, text: '正文', required: false }, t.token),
      ),
    );
    expect(saves.map((s) => s.status)).toEqual([200, 200]);
    expect(saves.map((s) => s.body.data.version).sort()).toEqual([4, 5]);
  });
});
