import type { deskSnapshot, snapshot, Snapshot } from '@pfp/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../platform/db/schema';
import type { QuoteOf } from '../../platform/quote';
import { notFixableReason } from '../contracts/fixingTerms';
import { markToMarket, readHoldings, type AccountRow } from '../margin/accounts';

/** Orders a snapshot carries: the latest ones (the history page pages through the rest). */
const SNAPSHOT_ORDERS = 200;

const price = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/**
 * The customer desk's poll (SPEC §7 my-data-snapshot): the customer's contracts with their
 * instruments, the latest orders, and per instrument the last price and what the desk checks a
 * limit price against before sending it: the tick and the day's limit band.
 */
export async function pricerSnapshot(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  quote: QuoteOf,
  /** Reads the customer's rows through a cache (domain/customerReads.ts); default: reads them. */
  remembered: <T>(load: () => Promise<T>) => Promise<T> = (load) => load(),
): Promise<z.output<typeof snapshot>> {
  const [[contracts, orders], desk] = await Promise.all([
    remembered(() => Promise.all([contractRows(db, who), latestOrders(db, who)])),
    deskParts(db, who, quote),
  ]);
  return { ...desk.build(contracts), orders };
}

/**
 * What the live desk pushes (docs/live.md): the snapshot without its orders — the desk shows the open contract's,
 * pushed beside it, not the latest 200 of every contract — and what holds the customer's margin, which the desk's
 * account is marked to again on every tick of its instruments.
 */
export async function pricerDeskSnapshot(
  db: Kysely<DB>,
  who: { tenantId: number; pricerId: number },
  quote: QuoteOf,
): Promise<{ data: z.output<typeof deskSnapshot>; holdings: AccountRow }> {
  const [contracts, desk] = await Promise.all([contractRows(db, who), deskParts(db, who, quote)]);
  return { data: desk.build(contracts), holdings: desk.holdings };
}

/** The account and the confirm switch (read fresh, not through the customer's cached rows), then the contracts' market. */
async function deskParts(db: Kysely<DB>, who: { tenantId: number; pricerId: number }, quote: QuoteOf) {
  const [holdings, settings] = await Promise.all([
    readHoldings(db, who),
    // The trader's switch applies at the next poll.
    db
      .selectFrom('pricer_users')
      .select('confirm_before_fix')
      .where('id', '=', who.pricerId)
      .where('tenant_id', '=', who.tenantId)
      .executeTakeFirst(),
  ]);
  const account = markToMarket(holdings, (s) => price(quote(s)?.last_price) ?? undefined);
  const build = (contracts: Awaited<ReturnType<typeof contractRows>>) => {
    const market_data: Snapshot['market_data'] = {};
    for (const c of contracts) {
      const q = quote(c.instrument_id);
      market_data[c.instrument_id] = {
        last_price: price(q?.last_price),
        price_tick: c.price_tick,
        upper_limit: price(q?.upper_limit),
        lower_limit: price(q?.lower_limit),
        bid_price: price(q?.bid_price1),
        ask_price: price(q?.ask_price1),
      };
    }
    const now = new Date();
    return {
      // Why a contract cannot be fixed, by the server's clock (the desk disables fixing with it; docs/fixing.md).
      contracts: contracts.map((c) => ({ ...c, not_fixable_reason: notFixableReason(c, now) })),
      timestamp: now.toISOString(),
      market_data,
      account,
      // Default on: only the trader's explicit switch turns the desk's confirm sheet off.
      confirm_before_fix: settings?.confirm_before_fix ?? true,
    };
  };
  return { holdings, build };
}

/** The customer's contracts, with their instruments. */
function contractRows(db: Kysely<DB>, who: { tenantId: number; pricerId: number }) {
  return db
    .selectFrom('v_contracts')
    .innerJoin('instruments', 'instruments.symbol', 'v_contracts.instrument_id')
    .select([
      'v_contracts.id',
      'v_contracts.name',
      'v_contracts.product_name',
      'v_contracts.instrument_id',
      'instruments.name as instrument_name',
      'instruments.price_tick',
      'instruments.unit',
      'v_contracts.direction',
      'v_contracts.total_quantity',
      'v_contracts.remaining_quantity',
      'v_contracts.executed_quantity',
      'v_contracts.frozen_quantity',
      'v_contracts.avg_price',
      'v_contracts.status',
      'v_contracts.created_at',
      'v_contracts.basis',
      'v_contracts.fixing_deadline',
      'v_contracts.avg_fixed_price',
      'v_contracts.multiplier',
      'v_contracts.margin_rate',
      'v_contracts.settled_quantity',
      'v_contracts.pricing_mode',
      'v_contracts.average_start',
      'v_contracts.average_end',
      'v_contracts.average_basis',
      'v_contracts.rolled_out_quantity',
    ])
    .where('v_contracts.tenant_id', '=', who.tenantId)
    .where('v_contracts.pricer_id', '=', who.pricerId)
    .orderBy('v_contracts.id', 'desc')
    .execute();
}

/** The customer's latest orders, of every contract. */
function latestOrders(db: Kysely<DB>, who: { tenantId: number; pricerId: number }) {
  return db
    .selectFrom('v_orders')
    .selectAll()
    .where('tenant_id', '=', who.tenantId)
    .where('pricer_id', '=', who.pricerId)
    .orderBy('id', 'desc')
    .limit(SNAPSHOT_ORDERS)
    .execute();
}
