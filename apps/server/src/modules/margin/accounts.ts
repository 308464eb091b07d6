import type { PricerAccount } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import { raisePricerDataVersion } from '../../platform/db/dataVersions';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { figuresFromSums, type InstrumentSums } from './arithmetic';
import type { LastPriceOf } from './market';

/** Whose rows: one customer, or every customer of a company. */
export type Scope = { tenantId: number; pricerId: number } | { tenantId: number; pricerId?: undefined };

const inScope = (scope: Scope, alias: string) =>
  scope.pricerId === undefined
    ? sql`${sql.ref(`${alias}.tenant_id`)} = ${scope.tenantId}::integer`
    : sql`${sql.ref(`${alias}.pricer_id`)} = ${scope.pricerId}::integer and ${sql.ref(`${alias}.tenant_id`)} = ${scope.tenantId}::integer`;

/** A customer's account row and what holds their margin, summed per instrument: marked by `markToMarket`. */
export interface AccountRow {
  pricer_id: number;
  pricer_name: string;
  balance: number;
  credit_line: number;
  in_call: boolean;
  sums: InstrumentSums[];
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * The customers of a company (or one) with their account rows (none yet: zero balance, no credit) and
 * what holds their margin summed per instrument (arithmetic.ts `sumRows`, here in SQL): ONE statement,
 * a row per customer and instrument (and basis of open market orders), whatever the number of their
 * contracts, orders and 条件单. Each holding's margin is floored at 0 (issue 40). Row by
 * row, then summed: for a company (1,000 customers with an order each) it takes about a third less time than
 * sql.ts's v_margin_sums, which sums each contract's orders first — the shape the fixing's check
 * wants (one customer, many orders). Both say what holds margin; a change to one is a change to both
 * (margin.api.test.ts compares the check's refusals with this view's figures).
 */
export async function accountRows(db: Kysely<DB>, scope: Scope): Promise<AccountRow[]> {
  const { rows } = await sql<{
    pricer_id: number;
    pricer_name: string;
    balance: string | number;
    credit_line: string | number;
    in_call: boolean;
    instrument_id: string | null;
    priced: string | number | null;
    at_market: string | number | null;
    at_market_basis: string | number | null;
    net_lots: string | number | null;
    net_value: string | number | null;
  }>`
    with held as (
      select c.pricer_id, c.instrument_id, c.direction, c.margin_rate as rate, coalesce(i.volume_multiple, 1) as mult,
             c.executed_quantity - c.settled_quantity as lots, c.avg_price as price, c.basis, true as fixed
        from contracts c left join instruments i on i.symbol = c.instrument_id
       where ${inScope(scope, 'c')} and c.executed_quantity > c.settled_quantity and c.margin_rate > 0
      union all
      select o.pricer_id, o.instrument_id, o.direction, c.margin_rate, coalesce(i.volume_multiple, 1),
             o.volume_orign - o.volume_traded, o.limit_price, o.basis, false
        from orders o join contracts c on c.id = o.contract_id left join instruments i on i.symbol = o.instrument_id
       where ${inScope(scope, 'o')} and o.status in ('PENDING', 'ALIVE') and c.margin_rate > 0 and o.volume_orign > o.volume_traded
      union all
      select w.pricer_id, w.instrument_id, w.direction, c.margin_rate, coalesce(i.volume_multiple, 1), w.quantity,
             coalesce(w.margin_price, case when w.order_price > 0 then w.order_price else w.trigger_price end), c.basis, false
        from conditional_orders w join contracts c on c.id = w.contract_id left join instruments i on i.symbol = w.instrument_id
       where ${inScope(scope, 'w')} and w.status = 'WAITING' and c.margin_rate > 0
    ),
    sums as (
      select pricer_id, instrument_id,
             sum(case when price > 0 then greatest(price + basis, 0) * lots * mult * rate else 0 end) as priced,
             sum(case when price > 0 then 0 else lots * mult * rate end) as at_market,
             sum(case when price > 0 then 0 else basis * lots * mult * rate end) as at_market_basis,
             sum(case when not fixed then 0 when direction = 'BUY' then lots * mult else -lots * mult end) as net_lots,
             sum(case when not fixed then 0 when direction = 'BUY' then price * lots * mult else -price * lots * mult end)
               as net_value
        from held
       -- open market orders apart per basis: each is floored at 0 at the live price (figuresFromSums)
       group by pricer_id, instrument_id, case when price > 0 then null else basis end
    )
    select u.id as pricer_id, coalesce(nullif(btrim(u.full_name), ''), u.username) as pricer_name, coalesce(a.balance, 0) as balance,
           coalesce(a.credit_line, 0) as credit_line, coalesce(a.in_call, false) as in_call,
           s.instrument_id, s.priced, s.at_market, s.at_market_basis, s.net_lots, s.net_value
      from pricer_users u
      left join pricer_accounts a on a.pricer_id = u.id
      left join sums s on s.pricer_id = u.id
     where ${scope.pricerId === undefined ? sql`true` : sql`u.id = ${scope.pricerId}::integer`}
       and u.tenant_id = ${scope.tenantId}::integer
     order by u.id`.execute(db);
  const out: AccountRow[] = [];
  for (const r of rows) {
    let last = out[out.length - 1];
    if (last?.pricer_id !== r.pricer_id) {
      last = {
        pricer_id: r.pricer_id,
        pricer_name: r.pricer_name,
        balance: n(r.balance),
        credit_line: n(r.credit_line),
        in_call: Boolean(r.in_call),
        sums: [],
      };
      out.push(last);
    }
    if (r.instrument_id !== null)
      last.sums.push({
        instrument_id: r.instrument_id,
        priced: n(r.priced),
        at_market: n(r.at_market),
        at_market_basis: n(r.at_market_basis),
        net_lots: n(r.net_lots),
        net_value: n(r.net_value),
      });
  }
  return out;
}

/** The account marked to the market `lastPrice` (pure: the live desk marks it again on every tick, live/hub.ts). */
export function markToMarket(a: AccountRow, lastPrice: LastPriceOf): PricerAccount {
  return { pricer_id: a.pricer_id, pricer_name: a.pricer_name, ...figuresFromSums(a, a.sums, lastPrice) };
}

/** The instruments whose price moves the account's figures: fixed lots (floating P/L) and open market orders. */
export function pricedBy(a: AccountRow): Set<string> {
  return new Set(a.sums.filter((s) => s.net_lots !== 0 || s.at_market !== 0).map((s) => s.instrument_id));
}

const byCall = (x: PricerAccount, y: PricerAccount) =>
  Number(y.margin_call) - Number(x.margin_call) || y.call_amount - x.call_amount || x.pricer_id - y.pricer_id;

/**
 * The accounts of a company's customers (or of one), marked to the live market: margin calls first,
 * the largest first. A read: it writes nothing — the margin watcher (watch.ts) is the one writer of calls.
 */
export async function readAccounts(db: Kysely<DB>, scope: Scope, lastPrice: LastPriceOf): Promise<PricerAccount[]> {
  const accounts = await accountRows(db, scope);
  return accounts.map((a) => markToMarket(a, lastPrice)).sort(byCall);
}

/** One customer's account row and holdings; 404 for anyone not a customer of this company. */
export async function readHoldings(db: Kysely<DB>, who: { tenantId: number; pricerId: number }): Promise<AccountRow> {
  const [row] = await accountRows(db, who);
  if (!row) throw notFound('客户不存在');
  return row;
}

/** One customer's account (a read); 404 for anyone not a customer of this company. */
export async function readAccount(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  lastPrice: LastPriceOf,
): Promise<PricerAccount> {
  const [account] = await readAccounts(db, who, lastPrice);
  if (!account) throw notFound('客户不存在');
  return account;
}

/** What lockAccount answers: the account (locked when `locked`) and the contract's margin terms. */
export interface LockedAccount {
  balance: number;
  credit_line: number;
  /** The recorded margin call (a hint: the figures decide). */
  in_call: boolean;
  /** Whether the row is locked to the end of the transaction. */
  locked: boolean;
  margin_rate: number;
  multiplier: number;
}

/**
 * Locks the customer's account row to the end of the transaction (created on first use), so that
 * what holds their margin is read after any concurrent fixing of theirs has committed. When
 * `onlyIfContract` names a contract without a margin rate nothing is locked: the account is answered
 * as last committed (`locked` false). Without `onlyIfContract` (the account-only writes: the ledger, the
 * credit line, a fee collected) the customer's data version is raised first, so an open desk sees the
 * new account (a fixing's contract write raises it already).
 */
export async function lockAccount(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  onlyIfContract?: number,
): Promise<LockedAccount> {
  if (onlyIfContract === undefined) await raisePricerDataVersion(db, who.pricerId);
  const { rows } = await sql<LockedAccount>`
    with c as (
      select c.margin_rate, coalesce(i.volume_multiple, 1) as multiplier
        from contracts c left join instruments i on i.symbol = c.instrument_id
       where c.id = ${onlyIfContract ?? 0}::integer
    ),
    a as (
      insert into pricer_accounts (pricer_id, tenant_id)
      select ${who.pricerId}::integer, ${who.tenantId}::integer
       where ${onlyIfContract === undefined} or exists (select from c where c.margin_rate > 0)
      on conflict (pricer_id) do update set updated_at = pricer_accounts.updated_at
      returning balance, credit_line
    )
    select coalesce(a.balance, p.balance, 0) as balance, coalesce(a.credit_line, p.credit_line, 0) as credit_line,
           coalesce(p.in_call, false) as in_call, a.balance is not null as locked,
           coalesce((select margin_rate from c), 0) as margin_rate, coalesce((select multiplier from c), 1) as multiplier
      from (select 1) one
      left join a on true
      left join pricer_accounts p on p.pricer_id = ${who.pricerId}::integer`.execute(db);
  const r = rows[0]!;
  return {
    balance: Number(r.balance),
    credit_line: Number(r.credit_line),
    in_call: Boolean(r.in_call),
    locked: Boolean(r.locked),
    margin_rate: Number(r.margin_rate),
    multiplier: Number(r.multiplier),
  };
}
