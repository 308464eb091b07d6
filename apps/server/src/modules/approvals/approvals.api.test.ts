import { zh } from '@pfp/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';

/*
 * Maker-checker (issue 42, docs/roles.md) over HTTP on the real app: a held call answers 202 and changes
 * nothing; another staff member with 风控 approves it, once; the maker never approves their own; a request
 * whose subject changed is stale; two approvers at once apply it once (PGlite and PostgreSQL).
 */

let h: Harness;
let a: Tenant;
let finance: string;
let risk1: string;
let risk2: string;
let riskSub1: string;
let alice: number;

async function staff(username: string, fullName: string, roles: string[]) {
  const res = await h.call(
    '/api/trader/rpc/create-staff',
    { username, password: 'staff-pass-1', full_name: fullName, roles },
    a.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { sub: res.body.data.user_id as string, token: await h.idp.sign({}, { sub: res.body.data.user_id }) };
}
const balance = async () =>
  Number(
    (await h.db.selectFrom('pricer_accounts').select('balance').where('pricer_id', '=', alice).executeTakeFirst())
      ?.balance ?? 0,
  );
const creditLine = async () =>
  Number(
    (await h.db.selectFrom('pricer_accounts').select('credit_line').where('pricer_id', '=', alice).executeTakeFirst())
      ?.credit_line ?? 0,
  );
const ledgerRows = async () =>
  h.db
    .selectFrom('funds_ledger')
    .select(['amount', 'actor', 'checker', 'bank_ref'])
    .where('pricer_id', '=', alice)
    .orderBy('id')
    .execute();
const deposit = (token: string, amount: number, ref = 'ICBC-20261128-001') =>
  h.call(
    '/api/trader/rpc/record-funds',
    { pricer_id: alice, kind: 'deposit', amount, bank_ref: ref, note: '货款' },
    token,
  );
const approve = (token: string, id: number) => h.call('/api/trader/rpc/approve-request', { request_id: id }, token);

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'approvals-owner', '甲贸易', ['alice']);
  alice = a.pricers.alice!.id;
  // A one-person company first: the policy holds nothing while no second 风控 exists.
  const alone = await deposit(a.token, 500_000, 'ALONE-1');
  expect(alone.status, JSON.stringify(alone.body)).toBe(200);
  finance = (await staff('fin-1', '钱财务', ['finance'])).token;
  const r1 = await staff('risk-1', '李风控', ['risk']);
  risk1 = r1.token;
  riskSub1 = r1.sub;
  risk2 = (await staff('risk-2', '赵风控', ['risk'])).token;
});
afterAll(() => h.close());

describe('maker-checker', () => {
  it('a one-person company is never locked out: its large deposit applied at once', async () => {
    expect(await balance()).toBe(500_000);
  });

  it('a deposit over the threshold is held (202), changes nothing, and another person with 风控 approves it once', async () => {
    const before = await balance();
    const held = await deposit(finance, 200_000);
    expect(held.status).toBe(202);
    expect(held.body.data).toEqual({ request_id: expect.any(Number), status: 'pending' });
    const id = held.body.data.request_id as number;
    expect(await balance()).toBe(before);

    const inbox = await h.call('/api/trader/view/approval-requests', { status: 'pending' }, risk1);
    expect(inbox.body.data.pending_for_me).toBe(1);
    expect(inbox.body.data.items[0]).toMatchObject({
      id,
      action: 'record-funds',
      subject_label: 'alice',
      before: { balance: before },
      after: { balance: before + 200_000 },
      maker_name: '钱财务',
      status: 'pending',
    });
    // Under the threshold: applied at once.
    expect((await deposit(finance, 1_000, 'SMALL-1')).status).toBe(200);

    // finance may not approve (role), nor may anyone approve their own.
    const byFinance = await approve(finance, id);
    expect(byFinance.status).toBe(403);
    expect(byFinance.body.error.message).toContain('风控');

    const ok = await approve(risk1, id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ request_id: id, status: 'approved' });
    expect(await balance()).toBe(before + 201_000);
    const rows = await ledgerRows();
    expect(rows.at(-1)).toMatchObject({ amount: 200_000, checker: riskSub1, bank_ref: 'ICBC-20261128-001' });
    const ledger = await h.call('/api/trader/view/funds-ledger', { pricer_id: alice }, a.token);
    expect(ledger.body.data.items[0]).toMatchObject({
      maker_name: '钱财务',
      checker_name: '李风控',
      bank_ref: 'ICBC-20261128-001',
    });

    const again = await approve(risk2, id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'request_decided', message: zh.roles.approvals.decided });
    expect(await balance()).toBe(before + 201_000);

    const notes = await h.call('/api/trader/view/notifications', {}, finance);
    expect(notes.body.data.items.map((n: { text: string }) => n.text)).toContain(
      '您提交的「出入金与调整 · alice」已复核通过并生效',
    );
  });

  it('the maker can never approve their own request, even holding 风控', async () => {
    // risk1 raises a credit line (held: risk2 may check it) and tries to approve it.
    const held = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 80_000 }, risk1);
    expect(held.status).toBe(202);
    const own = await approve(risk1, held.body.data.request_id);
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: 'self_approval', message: '不能复核自己提交的申请' });
    expect(await creditLine()).toBe(0);
    const rej = await h.call(
      '/api/trader/rpc/reject-request',
      { request_id: held.body.data.request_id, reason: '额度过高' },
      risk2,
    );
    expect(rej.status).toBe(200);
    expect(await creditLine()).toBe(0);
    const notes = await h.call('/api/trader/view/notifications', {}, risk1);
    expect(notes.body.data.items[0].text).toBe('您提交的「修改授信额度 · alice」被驳回：额度过高');
  });

  it('a request whose subject changed since it was made is refused as stale and applies nothing', async () => {
    const first = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 80_000 }, risk1);
    const second = await h.call('/api/trader/rpc/set-credit-line', { pricer_id: alice, credit_line: 60_000 }, risk2);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect((await approve(risk1, second.body.data.request_id)).status).toBe(200);
    expect(await creditLine()).toBe(60_000);
    const stale = await approve(risk2, first.body.data.request_id);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'request_stale', message: zh.roles.approvals.stale });
    expect(await creditLine()).toBe(60_000);
    const row = await h.db
      .selectFrom('approval_requests')
      .select(['status', 'reason'])
      .where('id', '=', first.body.data.request_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', reason: zh.roles.approvals.stale });
  });

  it('the company owner (a staff row written without a name) is named by its sign-in, never by its id', async () => {
    await h.db
      .insertInto('traders')
      .values({ id: 'approvals-owner', username: 'owner-1', password_hash: 'x', name: '周老板' })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const held = await deposit(a.token, 300_000, 'OWNER-1');
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const id = held.body.data.request_id as number;
    const list = await h.call('/api/trader/view/approval-requests', {}, risk1);
    const mine = list.body.data.items.find((r: { id: number }) => r.id === id);
    expect(mine).toMatchObject({ maker: 'approvals-owner', maker_name: '周老板' });
    expect((await approve(risk1, id)).status).toBe(200);
    const ledger = await h.call('/api/trader/view/funds-ledger', { pricer_id: alice }, a.token);
    expect(ledger.body.data.items[0]).toMatchObject({
      maker_name: '周老板',
      checker_name: '李风控',
      bank_ref: 'OWNER-1',
    });
  });

  it('two approvers at once: the call applies exactly once (20 rounds)', async () => {
    const rounds = 20;
    const outcomes: Record<string, number> = {};
    const start = await balance();
    const startRows = (await ledgerRows()).length;
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      const held = await deposit(finance, 150_000, `RACE-${i}`);
      expect(held.status).toBe(202);
      const both = await Promise.all([
        approve(risk1, held.body.data.request_id),
        approve(risk2, held.body.data.request_id),
      ]);
      const key = both
        .map((r) => r.status)
        .sort()
        .join('+');
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    const ms = performance.now() - t0;
    console.log(
      `race (${process.env.TEST_DB}): ${rounds} rounds of two approvers at once → ${JSON.stringify(outcomes)}; ${(await ledgerRows()).length - startRows} ledger rows; ${(ms / rounds).toFixed(0)} ms a round`,
    );
    expect(outcomes).toEqual({ '200+409': rounds });
    expect((await ledgerRows()).length - startRows).toBe(rounds);
    expect(await balance()).toBe(start + rounds * 150_000);
  });

  it('the policy is the admin’s: only listed calls are held, and a viewer cannot change it', async () => {
    const viewer = (await staff('view-1', '孙只读', ['viewer'])).token;
    expect((await h.call('/api/trader/rpc/set-approval-policy', { actions: [] }, viewer)).status).toBe(403);
    const set = await h.call(
      '/api/trader/rpc/set-approval-policy',
      { actions: ['set-credit-line'], thresholds: { funds_amount: 0 } },
      a.token,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({
      actions: ['set-credit-line'],
      thresholds: { funds_amount: 0 },
      has_checker: true,
    });
    expect((await deposit(finance, 900_000, 'NOT-HELD')).status).toBe(200);
    const bad = await h.call('/api/trader/rpc/set-approval-policy', { actions: ['drop-table'] }, a.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('需复核的操作无效');
  });
});
