import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { findInstrument } from '../../market/catalogue';

/**
 * 敞口 (docs/fixing.md): per instrument, what customers have fixed, what they may still fix, and the
 * hedge on the tenant's futures account, with the mismatch (hedge net − fixed net).
 *
 * A customer's fixing is executed on the tenant's account in the same direction (a customer's BUY
 * buys futures), so a fully hedged book has hedge net = fixed net and mismatch 0.
 */

export interface HedgePosition {
  instrument_id: string;
  long: number;
  short: number;
}

export interface ExposureItem {
  instrument_id: string;
  product_name: string | null;
  /** 'YYYY-MM' of the future's delivery month (from the catalogue), null when unknown. */
  delivery_month: string | null;
  fixed_buy: number;
  fixed_sell: number;
  unfixed_buy: number;
  unfixed_sell: number;
  hedge_long: number | null;
  hedge_short: number | null;
  /** (hedge_long − hedge_short) − (fixed_buy − fixed_sell); null when the hedge is unknown. */
  mismatch: number | null;
  /** The instrument's multiplier and unit: lots × multiplier is the goods (issue 29). */
  multiplier: number | null;
  unit: string | null;
}

export interface Exposure {
  items: ExposureItem[];
  total_count: number;
  /** Where the hedge comes from: the simulated broker's book, the real account, or nowhere (null). */
  hedge_source: 'sim' | 'account' | null;
  /** Why the hedge is unknown (Chinese), when it is. */
  hedge_message?: string;
}

/** The simulated broker's net positions of a tenant, from its own books (sim_orders / sim_trades). */
export async function simPositions(db: Kysely<DB>, tenantId: number): Promise<HedgePosition[]> {
  const { rows } = await sql<{ symbol: string; long: number | string; short: number | string }>`
    select o.symbol,
           coalesce(sum(case when o.direction = 'BUY' and o.offset_flag = 'OPEN' then t.volume
                             when o.direction = 'SELL' and o.offset_flag = 'CLOSE' then -t.volume end), 0) as long,
           coalesce(sum(case when o.direction = 'SELL' and o.offset_flag = 'OPEN' then t.volume
                             when o.direction = 'BUY' and o.offset_flag = 'CLOSE' then -t.volume end), 0) as short
      from sim_trades t
      join sim_orders o on o.tenant_id = t.tenant_id and o.order_ref = t.order_ref
     where t.tenant_id = ${tenantId}
     group by o.symbol`.execute(db);
  return rows.map((r) => ({ instrument_id: r.symbol, long: Number(r.long), short: Number(r.short) }));
}

function deliveryMonth(symbol: string): string | null {
  const spec = findInstrument(symbol);
  if (spec?.kind === 'future') return `${spec.year}-${String(spec.month).padStart(2, '0')}`;
  // Outside the catalogue: the symbol's trailing year-month digits (cu2601 → 2026-01, SR601 → 2026-01).
  const m = /(\d{3,4})$/.exec(symbol);
  if (!m) return null;
  const digits = m[1]!;
  const yy = digits.length === 4 ? digits.slice(0, 2) : `2${digits[0]}`;
  return `20${yy.slice(-2)}-${digits.slice(-2)}`;
}

/**
 * The tenant's exposure. `hedge`: the account's positions, or null with a reason when they cannot be
 * known here (e.g. a real account whose gateway is not connected).
 */
export async function tenantExposure(
  db: Kysely<DB>,
  tenantId: number,
  hedge: { source: 'sim' | 'account'; positions: HedgePosition[] } | { source: null; message: string },
): Promise<Exposure> {
  // Unfixed = lots still open for fixing (remaining of active/paused contracts) plus lots in flight
  // (frozen, whatever the status: an order at the broker may still fill).
  const { rows } = await sql<{
    instrument_id: string;
    product_name: string;
    fixed_buy: number | string;
    fixed_sell: number | string;
    unfixed_buy: number | string;
    unfixed_sell: number | string;
    multiplier: number | null;
    unit: string | null;
  }>`
    select instrument_id, min(product_name) as product_name,
           (select i.volume_multiple from instruments i where i.symbol = instrument_id) as multiplier,
           (select i.unit from instruments i where i.symbol = instrument_id) as unit,
           coalesce(sum(executed_quantity) filter (where direction = 'BUY'), 0) as fixed_buy,
           coalesce(sum(executed_quantity) filter (where direction = 'SELL'), 0) as fixed_sell,
           coalesce(sum(frozen_quantity + case when status in ('active', 'paused') then remaining_quantity else 0 end)
                      filter (where direction = 'BUY'), 0) as unfixed_buy,
           coalesce(sum(frozen_quantity + case when status in ('active', 'paused') then remaining_quantity else 0 end)
                      filter (where direction = 'SELL'), 0) as unfixed_sell
      from contracts
     where tenant_id = ${tenantId}
     group by instrument_id`.execute(db);
  const positions = new Map(hedge.source ? hedge.positions.map((p) => [p.instrument_id, p]) : []);
  const symbols = [...new Set([...rows.map((r) => r.instrument_id), ...positions.keys()])].sort();
  const byInstrument = new Map(rows.map((r) => [r.instrument_id, r]));
  const items = symbols.map((symbol): ExposureItem => {
    const r = byInstrument.get(symbol);
    const p = positions.get(symbol);
    const fixed_buy = Number(r?.fixed_buy ?? 0);
    const fixed_sell = Number(r?.fixed_sell ?? 0);
    const hedge_long = hedge.source ? (p?.long ?? 0) : null;
    const hedge_short = hedge.source ? (p?.short ?? 0) : null;
    return {
      instrument_id: symbol,
      product_name: r?.product_name ?? null,
      delivery_month: deliveryMonth(symbol),
      fixed_buy,
      fixed_sell,
      unfixed_buy: Number(r?.unfixed_buy ?? 0),
      unfixed_sell: Number(r?.unfixed_sell ?? 0),
      // Lots and the goods they stand for, side by side (issue 29).
      multiplier: r?.multiplier ?? null,
      unit: r?.unit ?? null,
      hedge_long,
      hedge_short,
      mismatch:
        hedge_long === null || hedge_short === null ? null : hedge_long - hedge_short - (fixed_buy - fixed_sell),
    };
  });
  return {
    items,
    total_count: items.length,
    hedge_source: hedge.source,
    ...(hedge.source === null ? { hedge_message: hedge.message } : {}),
  };
}
