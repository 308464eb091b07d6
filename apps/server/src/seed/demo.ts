import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../platform/auth/passwords';
import type { DB } from '../platform/db/schema';
import { shanghaiToday } from '../modules/contracts/fixingTerms';
import { exchangeOfSymbol, NEW_COMPANY_MARGIN_RATE, tradingDayOnOrAfter, tradingDayOnOrBefore } from '@pfp/contract';
import { addDays, addMonths, dateKey } from '../market/calendar';
import { findInstrument } from '../market/catalogue';
import { addPrimaryPerson } from '../modules/authorised/authorised';
import { ensureAgreement } from '../modules/agreement/agreement';

/** The embedded provider's demo trader (`trader` / `trader123`) has this subject. */
export const DEMO_TRADER_SUB = '6f1c3d2e-0000-4000-8000-000000000001';
export const DEMO_COMPANY = '演示贸易有限公司';
export const DEMO_PRICERS = ['pricer1', 'pricer2'] as const;
export const DEMO_PRICER_PASSWORD = 'pricer123';

/** The demo customers' legal identity (issue 29): what their confirmations and statements print. */
export const DEMO_IDENTITY: Record<(typeof DEMO_PRICERS)[number], { full_name: string; contact_name: string }> = {
  pricer1: { full_name: '华东铜缆制造有限公司', contact_name: '王经理' },
  pricer2: { full_name: '江南饲料科技有限公司', contact_name: '李经理' },
};

interface DemoContract {
  product: string;
  direction: 'BUY' | 'SELL';
  lots: number;
  /** 基差 as the trade quotes it for the product (on its tick grid). */
  basis: number;
  /** Fixing deadline this many months out (negative days: already past, the contract is expired). */
  months?: number;
  pastDays?: number;
}

/** Which products the demo contracts use, by pricer, with the basis and deadline the trade would agree. */
const DEMO_CONTRACTS: Record<(typeof DEMO_PRICERS)[number], DemoContract[]> = {
  pricer1: [
    { product: '铜', direction: 'BUY', lots: 100, basis: 150, months: 2 },
    { product: '豆粕', direction: 'SELL', lots: 300, basis: 40, months: 1 },
    { product: '螺纹钢', direction: 'BUY', lots: 200, basis: 60, months: 3 },
  ],
  pricer2: [
    { product: '白糖', direction: 'BUY', lots: 120, basis: 50, months: 2 },
    { product: '铝', direction: 'SELL', lots: 80, basis: -60, months: 1 },
    { product: '铜', direction: 'SELL', lots: 50, basis: -120, pastDays: 10 },
  ],
};

/**
 * The demo's money (docs/margin.md): pricer2 fixes with margin (10 % on its contracts) against a deposit
 * and a credit line, so the trader's 资金与保证金 page and the desk's 可用保证金 show it working. pricer1
 * (the end-to-end suites' customer) stays without margin, as before: its own rate is 0 (issue 41), over
 * the company's default of 10 % that every other customer's new contracts get.
 */
const DEMO_MARGIN: Partial<
  Record<(typeof DEMO_PRICERS)[number], { rate: number; deposits: number[]; credit: number }>
> = {
  pricer2: { rate: 0.1, deposits: [150_000, 50_000], credit: 50_000 },
};

/**
 * pricer2 close to a margin call (issue 31 §6): with a live price at seeding, its first contract (白糖,
 * BUY) has these lots fixed at that price, and its deposits leave it available ≈ 8 % of the margin they
 * hold: the simulated market moving ~0.8 % against it puts it in a call, a move the other way takes it
 * further out.
 */
export const DEMO_FIXED = { pricer: 'pricer2', lots: 30, headroom: 0.08 } as const;

/**
 * The deadline of a demo contract: `months` out, but a week before the futures' last trading day at
 * the latest (nobody fixes on a future that no longer trades), and never sooner than a week away; a
 * trading day of the exchange.
 */
export function demoDeadline(c: Pick<DemoContract, 'months' | 'pastDays'>, symbol: string, now = new Date()): string {
  const [y, m, d] = shanghaiToday(now).split('-').map(Number) as [number, number, number];
  const today = { y, m, d };
  if (c.pastDays) return dateKey(addDays(today, -c.pastDays));
  const target = addMonths(y, m, c.months ?? 1);
  let deadline = dateKey({ ...target, d: Math.min(d, 28) });
  const expiry = findInstrument(symbol, now)?.expiry;
  if (expiry) {
    const [ey, em, ed] = expiry.split('-').map(Number) as [number, number, number];
    const latest = dateKey(addDays({ y: ey, m: em, d: ed }, -7));
    if (latest < deadline) deadline = latest;
  }
  const earliest = dateKey(addDays(today, 7));
  // A deadline is a trading day of the future's exchange (docs/calendar.md).
  const exchange = exchangeOfSymbol(symbol) ?? 'SHFE';
  return deadline < earliest ? tradingDayOnOrAfter(exchange, earliest) : tradingDayOnOrBefore(exchange, deadline);
}

/**
 * The demo's customers have accepted the built-in 点价协议 (docs/agreement.md: the suites fix with
 * them at once); pricer1's signed paper is on file too, so the console's page shows both.
 */
async function demoAgreement(tx: Kysely<DB>, tenantId: number, pricerId: number, username: string) {
  await tx
    .insertInto('agreement_acceptances')
    .values({ pricer_id: pricerId, tenant_id: tenantId, version: 1 })
    .execute();
  if (username === 'pricer1')
    await tx
      .insertInto('agreement_signatures')
      .values({
        pricer_id: pricerId,
        tenant_id: tenantId,
        version: 1,
        reference: 'DJXY-2026-001',
        signed_on: shanghaiToday(),
        file_name: '点价协议-华东铜缆.pdf',
        recorded_by: DEMO_TRADER_SUB,
      })
      .execute();
}

/**
 * Tenant 1 with the demo trader, two pricers and active contracts on the nearest listed
 * futures. Idempotent: does nothing once the demo tenant exists. `lastPrice` (the market's live price)
 * lets pricer2 start with fixed lots close to a margin call (DEMO_FIXED); without it, none.
 */
export async function seedDemo(
  db: Kysely<DB>,
  lastPrice: (symbol: string) => number | null | undefined = () => undefined,
): Promise<boolean> {
  const existing = await db
    .selectFrom('tenants')
    .select('id')
    .where('owner_sub', '=', DEMO_TRADER_SUB)
    .executeTakeFirst();
  if (existing) return false;
  const hash = await hashPassword(DEMO_PRICER_PASSWORD);
  return db.transaction().execute(async (tx) => {
    // Replicas starting together on a fresh database (the ha profile's two servers) seed once: the
    // first holds the lock to its commit, the others then find the demo tenant and leave it.
    await sql`select pg_advisory_xact_lock(hashtext('pfp:seed-demo'))`.execute(tx);
    const seeded = await tx
      .selectFrom('tenants')
      .select('id')
      .where('owner_sub', '=', DEMO_TRADER_SUB)
      .executeTakeFirst();
    if (seeded) return false;
    const taken = await tx.selectFrom('tenants').select('id').where('id', '=', 1).executeTakeFirst();
    const tenant = await tx
      .insertInto('tenants')
      .values({
        ...(taken ? {} : { id: 1 }),
        owner_sub: DEMO_TRADER_SUB,
        company_name: DEMO_COMPANY,
        is_sim: true,
        default_margin_rate: NEW_COMPANY_MARGIN_RATE,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`select setval('tenants_id_seq', (select max(id) from tenants))`.execute(tx);
    await ensureAgreement(tx, tenant.id);
    for (const username of DEMO_PRICERS) {
      const pricer = await tx
        .insertInto('pricer_users')
        .values({
          tenant_id: tenant.id,
          username,
          password_hash: hash,
          phone: null,
          status: 'pending',
          ...DEMO_IDENTITY[username],
          margin_rate: DEMO_MARGIN[username] ? null : 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The login is the company's first 授权点价人 (docs/authorised-pricers.md).
      await addPrimaryPerson(tx, {
        tenantId: tenant.id,
        pricerId: pricer.id,
        username,
        name: DEMO_IDENTITY[username].contact_name,
        phone: null,
        actor: 'seed',
      });
      await demoAgreement(tx, tenant.id, pricer.id, username);
      let heldMargin = 0;
      for (const [index, c] of DEMO_CONTRACTS[username].entries()) {
        const instrument = await tx
          .selectFrom('instruments')
          .select(['symbol', 'name', 'product_name', 'price_tick', 'volume_multiple'])
          .where('product_name', '=', c.product)
          .where('expired', '=', false)
          .orderBy('symbol')
          .offset(1) // the next-but-one listed month: liquid and not about to expire
          .limit(1)
          .executeTakeFirst();
        if (!instrument) continue;
        const rate = DEMO_MARGIN[username]?.rate ?? 0;
        const live = lastPrice(instrument.symbol);
        const fixAt =
          username === DEMO_FIXED.pricer && index === 0 && typeof live === 'number' && live > 0
            ? Math.round(live / instrument.price_tick) * instrument.price_tick
            : 0;
        const fixed = fixAt > 0 ? DEMO_FIXED.lots : 0;
        const contract = await tx
          .insertInto('contracts')
          .values({
            tenant_id: tenant.id,
            name: `${instrument.name}-${username}${c.pastDays ? '-已到期' : ''}`,
            pricer_id: pricer.id,
            product_name: instrument.product_name,
            instrument_id: instrument.symbol,
            direction: c.direction,
            total_quantity: c.lots,
            remaining_quantity: c.lots - fixed,
            executed_quantity: fixed,
            avg_price: fixAt,
            traded_amount: fixAt * fixed,
            status: c.pastDays ? 'expired' : 'active',
            basis: c.basis,
            fixing_deadline: demoDeadline(c, instrument.symbol),
            margin_rate: rate,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (fixed) {
          // The fixing as the trading service leaves it: a filled market order and its trade.
          const order = await tx
            .insertInto('orders')
            .values({
              tenant_id: tenant.id,
              contract_id: contract.id,
              pricer_id: pricer.id,
              instrument_id: instrument.symbol,
              direction: c.direction,
              volume_orign: fixed,
              volume_traded: fixed,
              limit_price: 0,
              trade_price: fixAt,
              basis: c.basis,
              status: 'FINISHED',
              last_msg: '全部成交',
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await tx
            .insertInto('trades')
            .values({ tenant_id: tenant.id, order_id: order.id, trade_id: 'demo-1', volume: fixed, price: fixAt })
            .execute();
          heldMargin += (fixAt + c.basis) * fixed * instrument.volume_multiple * rate;
        }
      }
      const money = DEMO_MARGIN[username];
      if (money) {
        let balance = 0;
        // Held margin: deposits that leave available ≈ headroom × margin (whole thousands, at least the first).
        const needed = Math.ceil(((1 + DEMO_FIXED.headroom) * heldMargin - money.credit) / 1000) * 1000;
        const first = money.deposits[0]!;
        const deposits = !(heldMargin > 0 && needed > 0)
          ? money.deposits
          : needed > first
            ? [first, needed - first]
            : [needed];
        for (const amount of deposits) {
          balance += amount;
          await tx
            .insertInto('funds_ledger')
            .values({
              tenant_id: tenant.id,
              pricer_id: pricer.id,
              kind: 'deposit',
              amount,
              balance_after: balance,
              note: '演示入金',
              actor: DEMO_TRADER_SUB,
            })
            .execute();
        }
        await tx
          .insertInto('pricer_accounts')
          .values({ pricer_id: pricer.id, tenant_id: tenant.id, balance, credit_line: money.credit })
          .execute();
      }
    }
    return true;
  });
}

/** How the operator adds the first trader when there is none (no demo: issue 30). */
export const NO_TRADER_HINT =
  'no trader can sign in yet: add one with `pnpm trader:add --username <name> --password <password>` (with the embedded database, while the server is stopped)';

/** A start without the demo and without any trader of the embedded provider tells the operator how to add one. */
export async function hintFirstTrader(db: Kysely<DB>, log: { warn: (msg: string) => void }): Promise<boolean> {
  const any = await db.selectFrom('traders').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  log.warn(NO_TRADER_HINT);
  return true;
}
