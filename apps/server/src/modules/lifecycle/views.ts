import { formatNumber, zh } from '@pfp/i18n';
import {
  extensionEvent,
  rollConfirmation,
  type contractHistory as historySchema,
  type ContractSchedule,
  type rollApplicationsRequest,
  type RollQuote,
  type rollQuoteInput,
  type ScheduleDay,
} from '@pfp/contract';
import type { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { FIXING_CLOSE_HOUR, shanghaiToday } from '../contracts/fixingTerms';
import { fixingDay, fixingTimeText, type FixingTime } from './average';
import { closedDay } from './settlement';
import { tradingDaysIn } from '../../market/calendar';
import { projectShares } from './terms';
import { runView, type ViewDef, type ViewResult } from '../../platform/views/engine';
import type { QuoteOf } from '../../platform/quote';
import { round2 } from '../margin/arithmetic';
import { rollTarget } from './roll';

type ContractHistory = z.output<typeof historySchema>;
type HistoryEvent = ContractHistory['items'][number];

const H = zh.lifecycle.history;

/** Whose contract: the trader's company, or one customer of it (another's is the view's 404). */
export interface ContractScope {
  tenantId: number;
  pricerId?: number;
}

async function scopedContract(db: Kysely<DB>, scope: ContractScope, id: number) {
  let q = db.selectFrom('v_contracts').selectAll().where('id', '=', id).where('tenant_id', '=', scope.tenantId);
  if (scope.pricerId !== undefined) q = q.where('pricer_id', '=', scope.pricerId);
  const c = await q.executeTakeFirst();
  if (!c) throw notFound(zh.lifecycle.errors.contractNotFound);
  return c;
}

/**
 * An average contract's schedule: each trading day of the window (and any catch-up day after it)
 * with its planned and fixed lots, the day's price and the running average; the days to come show
 * the lots left spread as the job will spread them. A point contract has no days.
 */
export async function contractSchedule(
  db: Kysely<DB>,
  scope: ContractScope,
  contractId: number,
  fixingTime: FixingTime,
  now: Date = new Date(),
): Promise<ContractSchedule> {
  const c = await scopedContract(db, scope, contractId);
  const basis = Number(c.basis);
  const executed = c.executed_quantity;
  const onSettlement = c.average_basis === 'settlement';
  const head = {
    contract_id: c.id,
    pricing_mode: c.pricing_mode,
    average_start: c.average_start,
    average_end: c.average_end,
    average_basis: c.average_basis ?? null,
    // 结算价: booked after the close.
    fixing_time: onSettlement ? `${FIXING_CLOSE_HOUR}:00` : fixingTimeText(fixingTime),
    total_quantity: c.total_quantity,
    executed_quantity: executed,
    avg_price: executed > 0 ? Number(c.avg_price) : null,
    avg_fixed_price: executed > 0 ? Number(c.avg_price) + basis : null,
    basis,
  };
  if (c.pricing_mode !== 'average' || !c.average_start || !c.average_end) return { ...head, days: [] };
  const fixings = await db
    .selectFrom('average_fixings as f')
    .innerJoin('orders as o', 'o.id', 'f.order_id')
    .select(['f.day', 'f.planned_lots', 'f.order_id', 'o.status', 'o.volume_traded', 'o.trade_price'])
    .where('f.contract_id', '=', c.id)
    .orderBy('f.day')
    .execute();
  const byDay = new Map(fixings.map((f) => [String(f.day), f]));
  const days = [...new Set([...tradingDaysIn(c.average_start, c.average_end), ...byDay.keys()])].sort();
  // Days still to come: today while its fixing has not happened and the close has not passed, and after.
  // 结算价: the last closed day is still to be booked (until the next close), and every later day.
  const today = shanghaiToday(now);
  const todayOpen =
    fixingDay(now, fixingTime) !== undefined || now.getTime() < Date.parse(`${today}T${head.fixing_time}:00+08:00`);
  const booking = closedDay(now);
  const future = days.filter(
    (d) => !byDay.has(d) && (onSettlement ? d >= booking : d > today || (d === today && todayOpen)),
  );
  const left = c.status === 'active' || c.status === 'paused' ? c.remaining_quantity : 0;
  const projected = new Map(future.map((d, i) => [d, projectShares(left, future.length)[i] ?? 0]));
  let lots = 0;
  let money = 0;
  const out: ScheduleDay[] = days.map((d) => {
    const f = byDay.get(d);
    if (!f) {
      const planned = projected.get(d);
      return {
        date: d,
        planned_lots: planned ?? 0,
        fixed_lots: 0,
        price: null,
        average_so_far: lots ? money / lots : null,
        status: planned === undefined ? 'skipped' : 'planned',
        order_id: null,
      };
    }
    const traded = Number(f.volume_traded);
    const price = traded > 0 ? Number(f.trade_price) : null;
    lots += traded;
    money += traded * (price ?? 0);
    const status =
      f.status === 'FINISHED' ? 'filled' : f.status === 'CANCELLED' ? (traded > 0 ? 'filled' : 'skipped') : 'working';
    return {
      date: d,
      planned_lots: f.planned_lots,
      fixed_lots: traded,
      price,
      average_so_far: lots ? Math.round((money / lots) * 10_000) / 10_000 : null,
      status,
      order_id: Number(f.order_id),
    };
  });
  return { ...head, days: out };
}

/** The contract's life in one list, oldest first: created, each fix, rolls in and out, extensions. */
export async function contractHistory(
  db: Kysely<DB>,
  scope: ContractScope,
  contractId: number,
): Promise<ContractHistory> {
  const c = await scopedContract(db, scope, contractId);
  const unit = c.unit ?? '';
  const lotsText = (lots: number) => (c.multiplier ? `${lots * c.multiplier} ${unit}`.trim() : `${lots}`);
  // A fix's price as the desk shows prices: '86,120.00 元/吨' (it read '86120', no unit).
  const priceText = (price: number) => `${formatNumber(price, 2)} ${unit ? `元/${unit}` : '元'}`;
  const items: HistoryEvent[] = [
    {
      at: c.created_at,
      kind: 'created',
      // The total as agreed: rolled-out lots stay in it (migration 028).
      text: H.created(c.total_quantity, lotsText(c.total_quantity), c.instrument_id, String(Number(c.basis))),
      order_id: null,
      roll: null,
      fee: 0,
    },
  ];
  const fills = await db
    .selectFrom('orders as o')
    .leftJoin('average_fixings as af', (j) =>
      j.onRef('af.order_id', '=', 'o.id').onRef('af.contract_id', '=', 'o.contract_id'),
    )
    .select((eb) => [
      'af.day',
      'o.id',
      'o.volume_traded',
      'o.trade_price',
      'o.updated_at',
      eb
        .selectFrom('trades as t')
        .select((e) => e.fn.max('t.created_at').as('at'))
        .whereRef('t.order_id', '=', 'o.id')
        .as('at'),
    ])
    .where('o.contract_id', '=', c.id)
    .where('o.volume_traded', '>', 0)
    .orderBy('o.id')
    .execute();
  for (const f of fills)
    items.push({
      at: (f.at as Date | null) ?? f.updated_at,
      kind: 'fix',
      // A 结算价 day's booking says so (issue 43): its price is the exchange's settlement, not a fill.
      text:
        f.day && c.average_basis === 'settlement'
          ? zh.averageBasis.historyFix(String(f.day), f.volume_traded, priceText(Number(f.trade_price)))
          : H.fix(f.volume_traded, priceText(Number(f.trade_price))),
      order_id: f.id,
      roll: null,
      fee: 0,
    });
  const events = await db
    .selectFrom('contract_events')
    .selectAll()
    .where('contract_id', '=', c.id)
    .orderBy('id')
    .execute();
  for (const e of events) {
    // A JSON column read through the contract's schema of what was written (roll.ts, extend.ts).
    const p: unknown = typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload;
    if (e.kind === 'roll') {
      const r = rollConfirmation.parse(p);
      const out = r.from_contract_id === c.id;
      items.push({
        at: e.created_at,
        kind: out ? 'roll_out' : 'roll_in',
        text: out
          ? H.rollOut(r.quantity, r.to_instrument_id, r.to_contract_id)
          : H.rollIn(r.quantity, r.from_instrument_id, r.from_contract_id),
        order_id: null,
        roll: r,
        fee: r.fee,
      });
    } else {
      const x = extensionEvent.parse(p);
      items.push({
        at: e.created_at,
        kind: 'extension',
        text: H.extension(x.from ?? '—', x.to),
        order_id: null,
        roll: null,
        fee: x.fee,
      });
    }
  }
  items.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { contract_id: c.id, items };
}

/** The customers' 转月 applications (v_roll_applications: the status as of the read). */
export const rollApplicationsView: ViewDef = {
  name: 'roll-applications',
  relation: 'v_roll_applications',
  columns: {
    id: { type: 'number' },
    tenant_id: { type: 'number' },
    pricer_id: { type: 'number' },
    pricer_name: { type: 'text' },
    contract_id: { type: 'number' },
    contract_name: { type: 'text' },
    direction: { type: 'text' },
    from_instrument_id: { type: 'text' },
    to_instrument_id: { type: 'text' },
    quantity: { type: 'number' },
    multiplier: { type: 'number' },
    unit: { type: 'text' },
    basis: { type: 'number' },
    status: { type: 'text' },
    status_str: { type: 'text' },
    spread: { type: 'number' },
    fee_per_unit: { type: 'number' },
    fee: { type: 'number' },
    valid_until: { type: 'date' },
    priced_by: { type: 'text' },
    priced_at: { type: 'date' },
    accepted_at: { type: 'date' },
    to_contract_id: { type: 'number' },
    created_at: { type: 'date' },
  },
  defaultSort: [{ field: 'id', ascending: false }],
  searchColumns: ['pricer_name', 'contract_name', 'from_instrument_id', 'to_instrument_id'],
};

/** The trader's company's applications, or one customer's (with an optional status). */
export function rollApplications(
  db: Kysely<DB>,
  scope: ContractScope,
  body: z.output<typeof rollApplicationsRequest>,
): Promise<ViewResult> {
  const where: Record<string, string | number> = { tenant_id: scope.tenantId };
  if (scope.pricerId !== undefined) where.pricer_id = scope.pricerId;
  if (body.status) where.status = body.status;
  return runView(db, rollApplicationsView, body, where);
}

const price = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/**
 * The live market of a roll (what the customer sees before applying, the trader before pricing): both
 * futures' best bid and ask, and the 月差 (from − to) one could roll at now: from.bid − to.ask … from.ask − to.bid.
 */
export async function rollQuote(
  db: Kysely<DB>,
  scope: ContractScope,
  input: z.output<typeof rollQuoteInput>,
  quoteOf: QuoteOf | undefined,
): Promise<RollQuote> {
  const c = await scopedContract(db, scope, input.contract_id);
  const months = (
    await db
      .selectFrom('instruments')
      .select('symbol')
      .where('product_name', '=', c.product_name)
      .where('expired', '=', false)
      .where('symbol', '<>', c.instrument_id)
      .orderBy('symbol')
      .execute()
  ).map((i) => i.symbol);
  const symbol = input.to_instrument_id ?? months.find((m) => m > c.instrument_id) ?? months[0] ?? '';
  const to = await rollTarget(db, c, symbol);
  const side = (symbol: string) => {
    const q = quoteOf?.(symbol);
    return { symbol, bid: price(q?.bid_price1), ask: price(q?.ask_price1), last: price(q?.last_price) };
  };
  const from = side(c.instrument_id);
  const next = side(to.symbol);
  const diff = (a: number | null, b: number | null) => (a !== null && b !== null ? round2(a - b) : null);
  return {
    from,
    to: next,
    spread_low: diff(from.bid, next.ask),
    spread_high: diff(from.ask, next.bid),
    multiplier: to.volume_multiple,
    unit: to.unit,
    price_tick: Number(to.price_tick),
    months,
  };
}
