import { sql, type Kysely } from 'kysely';
import { confirmationInput, statementQuery, type ConfirmationRecord } from '@pfp/contract';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import { conflict, invalid, notFound } from '../../platform/errors';
import { audit } from '../audit/audit';
import { shanghaiDayEnd, shanghaiDayStart } from '../../platform/time';

/**
 * 点价确认单 (docs/fixing.md): one per order with at least one filled lot, read from v_confirmations.
 * Who may see which: a trader every confirmation of the tenant, a customer only their own.
 */

/** The contract's confirmation as the server holds it: Dates (the wire carries ISO strings). */
export type Confirmation = ConfirmationRecord;

export interface ConfirmationScope {
  tenantId: number;
  /** A customer: only their own. */
  pricerId?: number;
}

export const confirmationParams = confirmationInput;

const COLUMNS = [
  'order_id',
  'confirmation_no',
  'company_name',
  'pricer_id',
  'pricer_name',
  'contract_id',
  'contract_name',
  'product_name',
  'instrument_id',
  'instrument_name',
  'direction',
  'lots',
  'futures_price',
  'basis',
  'fixed_price',
  'multiplier',
  'amount',
  'fixed_at',
  'ordered_at',
  'status',
  'acknowledged_at',
  'unit',
  'pricer_full_name',
  'fixed_by',
  'average_basis',
] as const;

export async function getConfirmation(
  db: Kysely<DB>,
  scope: ConfirmationScope,
  orderId: number,
): Promise<Confirmation> {
  let order = db.selectFrom('orders').select('id').where('id', '=', orderId).where('tenant_id', '=', scope.tenantId);
  if (scope.pricerId !== undefined) order = order.where('pricer_id', '=', scope.pricerId);
  if (!(await order.executeTakeFirst())) throw notFound('订单不存在');
  const row = await db.selectFrom('v_confirmations').select(COLUMNS).where('order_id', '=', orderId).executeTakeFirst();
  if (!row) throw notFound('该订单尚未成交，没有点价确认单');
  return row;
}

/** Where an acknowledgement came from (kept as evidence). */
export interface AckSource {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The customer acknowledges their confirmation (确认无误, issue 29): the first acknowledgement is kept
 * with its time, address and browser; a second answers the same confirmation, unchanged. Another
 * customer's order is 404 (not theirs to see), an order without a filled lot 409 (nothing to confirm).
 */
export async function acknowledgeConfirmation(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  orderId: number,
  source: AckSource,
): Promise<Confirmation> {
  return db.transaction().execute(async (tx) => {
    const order = await tx
      .selectFrom('orders')
      .select(['id', 'volume_traded'])
      .where('id', '=', orderId)
      .where('tenant_id', '=', who.tenantId)
      .where('pricer_id', '=', who.pricerId)
      .executeTakeFirst();
    if (!order) throw notFound('订单不存在');
    if (!(order.volume_traded > 0)) throw conflict('该订单尚未成交，没有可确认的点价确认单');
    const inserted = await tx
      .insertInto('confirmation_acks')
      .values({
        order_id: orderId,
        tenant_id: who.tenantId,
        pricer_id: who.pricerId,
        ip: source.ip?.slice(0, 100) ?? null,
        user_agent: source.userAgent?.slice(0, 500) ?? null,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .returning('order_id')
      .executeTakeFirst();
    if (inserted)
      await audit(tx, {
        tenantId: who.tenantId,
        actor: `pricer:${who.pricerId}`,
        action: 'acknowledge-confirmation',
        payload: { order_id: orderId, ip: source.ip },
      });
    return getConfirmation(tx, who, orderId);
  });
}

/** The statement's query string: a date range (Beijing calendar days, inclusive) and the file format. */
export const statementParams = statementQuery;

export type StatementParams = z.infer<typeof statementParams>;

/** Refuses a customer the tenant does not have (so an export never silently answers an empty file). */
export async function assertPricerOfTenant(db: Kysely<DB>, tenantId: number, pricerId: number) {
  const u = await db
    .selectFrom('pricer_users')
    .select('id')
    .where('id', '=', pricerId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!u) throw invalid('客户不存在', 'pricer_id');
}

/**
 * Every confirmation whose last fill is in [start_date, end_date] (Beijing days), by order id, in
 * batches (keyset on order_id: timestamps are µs in PostgreSQL but ms in JS, no safe key) so that a
 * long statement is streamed, never held whole.
 */
export async function* confirmationsInRange(
  db: Kysely<DB>,
  scope: ConfirmationScope,
  range: { start_date: string; end_date: string },
  batch = 500,
): AsyncGenerator<Confirmation[]> {
  const from = shanghaiDayStart(range.start_date);
  const to = shanghaiDayEnd(range.end_date);
  let after = 0;
  for (;;) {
    let q = db
      .selectFrom('v_confirmations')
      .select(COLUMNS)
      .where('tenant_id', '=', scope.tenantId)
      // Orders with a fill in the range (trades_tenant_created), then those whose last fill is in it.
      .where(
        'order_id',
        'in',
        sql<number>`(select tr.order_id from trades tr
                      where tr.tenant_id = ${scope.tenantId} and tr.created_at >= ${from} and tr.created_at < ${to})`,
      )
      .where(sql<boolean>`fixed_at >= ${from} and fixed_at < ${to}`);
    if (scope.pricerId !== undefined) q = q.where('pricer_id', '=', scope.pricerId);
    const rows = await q.where('order_id', '>', after).orderBy('order_id').limit(batch).execute();
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!.order_id;
  }
}

/** One contract of a statement's summary (对账汇总), as at the end of the statement's range. */
export interface ContractSummary {
  contract_id: number;
  contract_name: string;
  pricer_name: string;
  product_name: string;
  instrument_id: string;
  direction: 'BUY' | 'SELL';
  total_lots: number;
  fixed_lots: number;
  unfixed_lots: number;
  multiplier: number | null;
  unit: string | null;
  /** Σ fixed price × lots / Σ lots; null before any fill. */
  avg_fixed_price: number | null;
  amount: number;
  /** The roll and extension fees charged on the contract (元, issue 32; docs/fixing.md). */
  fees: number;
}

/**
 * The statement's per-contract summary: every contract open in the range (issue 41 §5) — created in it,
 * fixed in it, or still to be fixed during it (active or paused, or expired within it) — fixed or not;
 * its total, what was fixed up to the end of the range (the confirmations, so the figures add up with
 * the listed rows and earlier ones), what remains unfixed (total − rolled out − fixed), the average
 * fixed price and the amount (Σ fixed price × lots × multiplier). The per-customer statement with
 * balances and movements is modules/statements (docs/statements.md); this is the export's page of it.
 * One row a contract: a statement holds a customer's contracts, never millions, so it is read whole.
 */
export async function contractSummaries(
  db: Kysely<DB>,
  scope: ConfirmationScope,
  range: { start_date: string; end_date: string },
): Promise<ContractSummary[]> {
  const from = shanghaiDayStart(range.start_date);
  const to = shanghaiDayEnd(range.end_date);
  const pricer = scope.pricerId === undefined ? sql`true` : sql`c.pricer_id = ${scope.pricerId}`;
  const { rows } = await sql<ContractSummary>`
    with fixed_in as (
      select distinct v.contract_id from v_confirmations v
       where v.tenant_id = ${scope.tenantId}
         and v.order_id in (select tr.order_id from trades tr
                             where tr.tenant_id = ${scope.tenantId} and tr.created_at >= ${from} and tr.created_at < ${to})
         and v.fixed_at >= ${from} and v.fixed_at < ${to}
    ), listed as (
      select c.id from contracts c
       where c.tenant_id = ${scope.tenantId} and ${pricer} and c.created_at < ${to}
         and (c.created_at >= ${from} or c.status in ('active', 'paused')
              or (c.status = 'expired' and c.fixing_deadline >= ${range.start_date})
              or c.id in (select contract_id from fixed_in))
    ), fixed as (
      select v.contract_id, sum(v.lots)::integer as lots, sum(v.fixed_price * v.lots) as price_lots,
             sum(coalesce(v.amount, 0)) as amount
        from v_confirmations v
       where v.tenant_id = ${scope.tenantId} and v.contract_id in (select id from listed) and v.fixed_at < ${to}
       group by v.contract_id
    )
    select c.id as contract_id, c.name as contract_name, coalesce(nullif(btrim(p.full_name), ''), p.username) as pricer_name,
           c.product_name, c.instrument_id, c.direction,
           c.total_quantity as total_lots, coalesce(f.lots, 0) as fixed_lots,
           greatest(c.total_quantity - c.rolled_out_quantity - coalesce(f.lots, 0), 0) as unfixed_lots,
           i.volume_multiple as multiplier, i.unit,
           case when f.lots > 0 then round(f.price_lots / f.lots, 4) end as avg_fixed_price, coalesce(f.amount, 0) as amount,
           coalesce(c.fees, 0) as fees
      from listed l
      join contracts c on c.id = l.id
      join pricer_users p on p.id = c.pricer_id
      left join fixed f on f.contract_id = c.id
      left join instruments i on i.symbol = c.instrument_id
     order by c.id`.execute(db);
  // numeric columns arrive as text from some drivers: the summary is numbers.
  return rows.map((r) => ({
    ...r,
    total_lots: Number(r.total_lots),
    fixed_lots: Number(r.fixed_lots),
    unfixed_lots: Number(r.unfixed_lots),
    multiplier: r.multiplier === null ? null : Number(r.multiplier),
    avg_fixed_price: r.avg_fixed_price === null ? null : Number(r.avg_fixed_price),
    amount: Number(r.amount),
    fees: Number(r.fees),
  }));
}
