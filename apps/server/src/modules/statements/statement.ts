import { createHash } from 'node:crypto';
import type { statement, statementResponse } from '@pfp/contract';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { shanghaiDayEnd, shanghaiDayStart } from '../../platform/time';
import { round2 } from '../margin/arithmetic';
import { feeOut, feeQuery } from './fees';

/**
 * The statement of a period for one customer (对账单, docs/statements.md): for funds, fee receivables
 * and the lots of every contract open in the period, opening + movements = closing. Each opening and
 * closing is read from the records as at that instant (the ledger's balance after the last entry
 * before it; the fees charged and not yet settled then; a contract's lots less its fills and rolls
 * before it), the movements from what happened between — so the identities are checks of the
 * records, and a closing at today equals the live figures (the account's balance, the contract's lots).
 */

export type Statement = z.output<typeof statement>;
type Response = z.output<typeof statementResponse>;
export interface Period {
  start_date: string;
  end_date: string;
}
export interface Who {
  tenantId: number;
  pricerId: number;
}

interface ContractLots {
  contract_id: number;
  contract_name: string;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  status: string;
  basis: number;
  fixing_deadline: string | null;
  multiplier: number | null;
  unit: string | null;
  original: number;
  created_in: boolean;
  fixed_before: number;
  fixed_by_end: number;
  rolled_before: number;
  rolled_by_end: number;
  period_price_lots: number;
  period_amount: number;
  fees: number;
  events_in: number;
}

async function contractLots(db: Kysely<DB>, who: Who, p: Period): Promise<Statement['contracts']> {
  const from = shanghaiDayStart(p.start_date);
  const to = shanghaiDayEnd(p.end_date);
  const { rows } = await sql<ContractLots>`
    with fills as (
      select o.contract_id,
             coalesce(sum(tr.volume) filter (where tr.created_at < ${from}), 0) as fixed_before,
             coalesce(sum(tr.volume) filter (where tr.created_at < ${to}), 0) as fixed_by_end,
             coalesce(sum(tr.volume * (tr.price + o.basis)) filter (where tr.created_at >= ${from} and tr.created_at < ${to}), 0)
               as period_price_lots
        from trades tr join orders o on o.id = tr.order_id
       where o.tenant_id = ${who.tenantId} and o.pricer_id = ${who.pricerId}
       group by o.contract_id
    ), rolls as (
      select e.contract_id,
             coalesce(sum((e.payload->>'quantity')::integer) filter (where e.created_at < ${from}), 0) as rolled_before,
             coalesce(sum((e.payload->>'quantity')::integer) filter (where e.created_at < ${to}), 0) as rolled_by_end
        from contract_events e
       where e.tenant_id = ${who.tenantId} and e.kind = 'roll' and (e.payload->>'from_contract_id')::integer = e.contract_id
       group by e.contract_id
    ), events as (
      select e.contract_id, count(*) as events_in from contract_events e
       where e.tenant_id = ${who.tenantId} and e.created_at >= ${from} and e.created_at < ${to}
       group by e.contract_id
    ), fees as (
      select f.contract_id, sum(f.amount) as fees from fee_receivables f
       where f.pricer_id = ${who.pricerId} and f.created_at >= ${from} and f.created_at < ${to}
       group by f.contract_id
    )
    select c.id as contract_id, c.name as contract_name, c.product_name, c.instrument_id, c.direction, c.status,
           c.basis, c.fixing_deadline, i.volume_multiple as multiplier, i.unit,
           c.total_quantity as original, c.created_at >= ${from} as created_in,
           coalesce(fl.fixed_before, 0) as fixed_before, coalesce(fl.fixed_by_end, 0) as fixed_by_end,
           coalesce(r.rolled_before, 0) as rolled_before, coalesce(r.rolled_by_end, 0) as rolled_by_end,
           coalesce(fl.period_price_lots, 0) as period_price_lots, coalesce(fe.fees, 0) as fees,
           coalesce(ev.events_in, 0) as events_in, 0 as period_amount
      from contracts c
      left join instruments i on i.symbol = c.instrument_id
      left join fills fl on fl.contract_id = c.id
      left join rolls r on r.contract_id = c.id
      left join events ev on ev.contract_id = c.id
      left join fees fe on fe.contract_id = c.id
     where c.tenant_id = ${who.tenantId} and c.pricer_id = ${who.pricerId} and c.created_at < ${to}
     order by c.id`.execute(db);
  const out: Statement['contracts'] = [];
  for (const raw of rows) {
    const n = (v: unknown) => Number(v ?? 0);
    const original = n(raw.original);
    const fixedBefore = n(raw.fixed_before);
    const fixedByEnd = n(raw.fixed_by_end);
    const rolledBefore = n(raw.rolled_before);
    const rolledByEnd = n(raw.rolled_by_end);
    const created = Boolean(raw.created_in);
    const opening = created ? 0 : original - fixedBefore - rolledBefore;
    const fixed = fixedByEnd - fixedBefore;
    const rolledOut = rolledByEnd - rolledBefore;
    const fees = round2(n(raw.fees));
    const moved = created || fixed > 0 || rolledOut > 0 || fees > 0 || n(raw.events_in) > 0;
    // Open in the period: something happened on it, or it began the period with lots to fix and was
    // not already past its deadline and expired before the period began.
    const stale = raw.status === 'expired' && raw.fixing_deadline !== null && raw.fixing_deadline < p.start_date;
    if (!moved && !(opening > 0 && !stale)) continue;
    const multiplier = raw.multiplier === null ? null : n(raw.multiplier);
    const priceLots = n(raw.period_price_lots);
    out.push({
      contract_id: raw.contract_id,
      contract_name: raw.contract_name,
      product_name: raw.product_name,
      instrument_id: raw.instrument_id,
      direction: raw.direction,
      status: raw.status,
      basis: n(raw.basis),
      fixing_deadline: raw.fixing_deadline,
      multiplier,
      unit: raw.unit,
      opening_unfixed: opening,
      added: created ? original : 0,
      fixed,
      rolled_out: rolledOut,
      closing_unfixed: original - fixedByEnd - rolledByEnd,
      opening_fixed: fixedBefore,
      closing_fixed: fixedByEnd,
      avg_fixed_price: fixed > 0 ? Math.round((priceLots / fixed) * 10_000) / 10_000 : null,
      fixed_amount: round2(priceLots * (multiplier ?? 1)),
      fees,
    });
  }
  return out;
}

async function funds(db: Kysely<DB>, who: Who, p: Period): Promise<Statement['funds']> {
  const from = shanghaiDayStart(p.start_date);
  const to = shanghaiDayEnd(p.end_date);
  const balanceBefore = async (t: typeof from) => {
    const row = await db
      .selectFrom('funds_ledger')
      .select('balance_after')
      .where('pricer_id', '=', who.pricerId)
      .where('tenant_id', '=', who.tenantId)
      .where(sql<boolean>`created_at < ${t}`)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return Number(row?.balance_after ?? 0);
  };
  const entries = (
    await db
      .selectFrom('funds_ledger as l')
      .leftJoin('fee_receivables as f', 'f.ledger_entry_id', 'l.id')
      .select(['l.id', 'l.created_at', 'l.kind', 'f.id as fee_id', 'l.amount', 'l.balance_after', 'l.note'])
      .where('l.pricer_id', '=', who.pricerId)
      .where('l.tenant_id', '=', who.tenantId)
      .where(sql<boolean>`l.created_at >= ${from} and l.created_at < ${to}`)
      .orderBy('l.id')
      .execute()
  ).map((e) => ({
    ...e,
    id: Number(e.id),
    fee_id: e.fee_id === null ? null : Number(e.fee_id),
    amount: Number(e.amount),
    balance_after: Number(e.balance_after),
  }));
  const sum = (f: (e: (typeof entries)[number]) => boolean) =>
    round2(entries.filter(f).reduce((a, e) => a + e.amount, 0));
  return {
    opening: await balanceBefore(from),
    deposits: sum((e) => e.kind === 'deposit'),
    withdrawals: sum((e) => e.kind === 'withdraw'),
    adjustments: sum((e) => e.kind === 'adjust' && e.fee_id === null),
    fees_collected: sum((e) => e.fee_id !== null),
    closing: await balanceBefore(to),
    entries,
  };
}

async function fees(db: Kysely<DB>, who: Who, p: Period): Promise<Statement['fees']> {
  const from = shanghaiDayStart(p.start_date);
  const to = shanghaiDayEnd(p.end_date);
  // Charged before the end and not settled before the start: everything the period's figures touch.
  const rows = (
    await feeQuery(db, who.tenantId)
      .where('f.pricer_id', '=', who.pricerId)
      .where(sql<boolean>`f.created_at < ${to} and (f.settled_at is null or f.settled_at >= ${from})`)
      .select([sql<boolean>`f.created_at < ${from}`.as('before'), sql<boolean>`f.settled_at < ${to}`.as('settled_in')])
      .orderBy('f.id')
      .execute()
  ).map((r) => ({ ...r, ...feeOut(r) }));
  const sum = (f: (r: (typeof rows)[number]) => boolean) => round2(rows.filter(f).reduce((a, r) => a + r.amount, 0));
  return {
    opening: sum((r) => r.before),
    charged: sum((r) => !r.before),
    collected: sum((r) => r.settled_in === true && r.status === 'collected'),
    offset: sum((r) => r.settled_in === true && r.status === 'offset'),
    waived: sum((r) => r.settled_in === true && r.status === 'waived'),
    closing: sum((r) => r.settled_in !== true),
    items: rows.map(({ before: _b, settled_in: _s, ...r }) => r),
  };
}

/** The figures a response answers: everything but the response itself. */
export function statementDigest(s: Omit<Statement, 'digest' | 'response'>): string {
  return createHash('sha256').update(JSON.stringify(s)).digest('hex');
}

export async function buildStatement(db: Kysely<DB>, who: Who, p: Period): Promise<Statement> {
  const pricer = await db
    .selectFrom('pricer_users as u')
    .innerJoin('tenants as t', 't.id', 'u.tenant_id')
    .select(['u.id', 'u.username', 'u.full_name', 't.company_name'])
    .where('u.id', '=', who.pricerId)
    .where('u.tenant_id', '=', who.tenantId)
    .executeTakeFirst();
  if (!pricer) throw notFound('客户不存在');
  const contracts = await contractLots(db, who, p);
  const total = (k: keyof Statement['lots']) => contracts.reduce((a, c) => a + c[k], 0);
  const body = {
    pricer_id: pricer.id,
    pricer_name: pricer.username,
    pricer_full_name: pricer.full_name || pricer.username,
    company_name: pricer.company_name,
    start_date: p.start_date,
    end_date: p.end_date,
    funds: await funds(db, who, p),
    fees: await fees(db, who, p),
    lots: {
      opening_unfixed: total('opening_unfixed'),
      added: total('added'),
      fixed: total('fixed'),
      rolled_out: total('rolled_out'),
      closing_unfixed: total('closing_unfixed'),
    },
    contracts,
  };
  const digest = statementDigest(body);
  return { ...body, digest, response: await latestResponse(db, who, p, digest) };
}

async function latestResponse(db: Kysely<DB>, who: Who, p: Period, digest: string): Promise<Response | null> {
  const r = await db
    .selectFrom('statement_responses')
    .select(['response', 'note', 'created_at', 'digest'])
    .where('pricer_id', '=', who.pricerId)
    .where('tenant_id', '=', who.tenantId)
    .where('start_date', '=', p.start_date)
    .where('end_date', '=', p.end_date)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? { response: r.response, note: r.note, created_at: r.created_at, current: r.digest === digest } : null;
}
