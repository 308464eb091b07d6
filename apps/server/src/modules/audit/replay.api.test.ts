import { afterAll, beforeAll, expect, it } from 'vitest';
import { tradingDayIn } from '../../../test/days';
import { callOk, quoteCopperMonths, startDesk } from '../../../test/desk';
import type { Harness } from '../../../test/harness';
import { replay } from '../../../test/replay/auditReplay';
import { createContract, setupTenant, type Tenant } from '../../../test/tenants';
import type { FakeQuotes } from '../../../test/trading/testSupport';
import type { TradingService } from '../../trading/service';
import { triggerConditional } from '../conditional/conditional';
import { notifyFills } from '../notifications/notify';

/*
 * The books equal a replay of the audit log (issue 45 item 4, docs/ha.md): fills booked by the order router,
 * an order's unfilled rest back to its contract, a PENDING order cancelled, 条件单 created, cancelled and
 * fired, money in, a roll — then test/replay/auditReplay.ts, from the audit rows alone, finds every
 * contract's lots, every account's balance and every 条件单's state the database has.
 */

let h: Harness;
let service: TradingService;
let quotes: FakeQuotes;
let stop: () => Promise<void>;
let a: Tenant;
let far: string;
const DEADLINE = tradingDayIn(20);

beforeAll(async () => {
  ({ h, service, quotes, stop } = await startDesk({ quote: (q) => q.quoteOf, fillsBooked: notifyFills }));
  a = await setupTenant(h, 'trader-replay', '乙贸易', ['carol', 'dave']);
  far = await quoteCopperMonths(h, quotes, a);
});
afterAll(() => stop?.());

const ok = (path: string, body: Record<string, unknown>, token = a.token) => callOk(h, path, body, token);
const pricer = (call: string, body: Record<string, unknown>, who = 'carol') =>
  ok(`/api/pricer/rpc/${call}`, body, a.pricers[who]!.jwt);

it("recomputes every contract's lots, account balance and 条件单 state from the audit rows alone", async () => {
  const carol = a.pricers.carol!.id;
  await ok('/api/trader/rpc/record-funds', { pricer_id: carol, kind: 'deposit', amount: 2_000_000, note: '保证金' });
  const c = (await createContract(h, a, 'carol', DEADLINE, { margin_rate: 0.1 })).id;
  // Filled at once (two lots), and one resting below the market, cancelled at the broker (order-ended).
  await pricer('submit-order', { contract_id: c, quantity: 2, price: 0 });
  const resting = await pricer('submit-order', { contract_id: c, quantity: 3, price: 78_500 });
  await service.idle();
  await pricer('cancel-order', { order_id: resting.id });
  await service.idle();
  // 条件单: one cancelled (its lots back), one fired and filled.
  const cond = (trigger_price: number) =>
    pricer('create-conditional-order', {
      contract_id: c,
      quantity: 1,
      trigger_op: '<=',
      trigger_price,
      order_price: 0,
    });
  await pricer('cancel-conditional-order', { id: (await cond(60_000)).id });
  const fired = await cond(79_000);
  await triggerConditional(h.db, fired.id, 78_990);
  await service.idle();
  await cond(70_000); // still waiting
  // A roll, and a withdrawal.
  const rolled = (await createContract(h, a, 'dave', DEADLINE)).id;
  await ok('/api/trader/rpc/roll-contract', {
    contract_id: rolled,
    to_instrument_id: far,
    quantity: 4,
    spread: 30,
    fee_per_unit: 0,
    agreed_via: 'phone',
  });
  await ok('/api/trader/rpc/record-funds', { pricer_id: carol, kind: 'withdraw', amount: 1_000, note: '出金' });

  const rows = await h.db
    .selectFrom('audit_log')
    .select(['id', 'action', 'payload'])
    .where('tenant_id', '=', a.tenantId)
    .orderBy('id')
    .execute();
  const replayed = replay(
    rows.map((r) => ({
      id: Number(r.id),
      action: r.action,
      payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    })),
  );
  expect(replayed.orphans).toEqual([]);

  const contracts = await h.db
    .selectFrom('contracts')
    .select([
      'id',
      'total_quantity',
      'remaining_quantity',
      'frozen_quantity',
      'executed_quantity',
      'rolled_out_quantity',
    ])
    .where('tenant_id', '=', a.tenantId)
    .orderBy('id')
    .execute();
  expect(contracts).toHaveLength(3);
  for (const k of contracts)
    expect(replayed.contracts[Number(k.id)], `contract ${k.id}`).toEqual({
      total: k.total_quantity,
      remaining: k.remaining_quantity,
      frozen: k.frozen_quantity,
      executed: k.executed_quantity,
      rolled_out: k.rolled_out_quantity,
    });
  // The market fixing filled its 2 lots, the cancelled order's 3 came back; the fired and the waiting 条件单 hold theirs.
  expect(replayed.contracts[c]).toMatchObject({ executed: 2, frozen: 2, remaining: 16 });

  const accounts = await h.db
    .selectFrom('pricer_accounts')
    .select(['pricer_id', 'balance'])
    .where('tenant_id', '=', a.tenantId)
    .execute();
  for (const acc of accounts)
    expect(replayed.accounts[acc.pricer_id] ?? 0, `account ${acc.pricer_id}`).toBe(Number(acc.balance));
  expect(replayed.accounts[carol]).toBe(1_999_000);

  const conditionals = await h.db
    .selectFrom('conditional_orders')
    .select(['id', 'status'])
    .where('tenant_id', '=', a.tenantId)
    .execute();
  expect(Object.fromEntries(conditionals.map((k) => [k.id, k.status]))).toEqual(replayed.conditionals);
});
