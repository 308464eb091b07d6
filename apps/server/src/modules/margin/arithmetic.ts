import type { Direction } from '../../platform/db/schema';

/**
 * The margin arithmetic (docs/margin.md), pure: what a customer's fixings hold and how the fixed lots
 * stand against the live market. Amounts in 元, rounded to the fen at the end.
 */

/** What holds margin: fixed, not yet settled lots (F), the unfilled rest of open orders (O), waiting 条件单 (W). */
export interface MarginRow {
  kind: 'F' | 'O' | 'W';
  pricer_id: number;
  instrument_id: string;
  direction: Direction;
  /** 保证金比例 of the contract. */
  rate: number;
  /** The instrument's multiplier (volume_multiple). */
  multiplier: number;
  lots: number;
  /** F: the average futures fill price; O: the limit price (0 = market); W: the margin price (migration 022). */
  price: number;
  basis: number;
}

export interface AccountFigures {
  balance: number;
  credit_line: number;
  margin_required: number;
  floating_pnl: number;
  available: number;
  margin_call: boolean;
  call_amount: number;
}

export const round2 = (v: number) => Math.round((v + Number.EPSILON * Math.sign(v)) * 100) / 100 || 0;

/**
 * Margin one fixing needs: (futures price + basis) × lots × multiplier × rate, never below 0 (a goods
 * price at or below 0 holds nothing; it must not free the margin of other holdings: issue 40).
 */
export function marginFor(rate: number, futuresPrice: number, basis: number, lots: number, multiplier: number) {
  return round2(Math.max(futuresPrice + basis, 0) * lots * multiplier * rate);
}

/**
 * A buyer who fixed the futures at F gains (market − F) × lots × multiplier, a seller (F − market) ×
 * lots × multiplier. 0 while the market price is not known.
 */
export function floatingPnl(
  direction: Direction,
  fixedAt: number,
  market: number | undefined,
  lots: number,
  multiplier: number,
) {
  if (market === undefined) return 0;
  return (direction === 'BUY' ? market - fixedAt : fixedAt - market) * lots * multiplier;
}

/**
 * What holds a customer's margin on one instrument, summed: the accounts view reads these in SQL
 * (accounts.ts), so that 1,000 customers are one statement and one row per customer and instrument —
 * and one more per basis of its open market orders, whose margin is floored at 0 at the live price.
 */
export interface InstrumentSums {
  instrument_id: string;
  /** Σ max(price + basis, 0) × lots × multiplier × rate of what has a price (fixed lots, limit orders, 条件单). */
  priced: number;
  /** Open market orders, valued at the live price: Σ lots × multiplier × rate … */
  at_market: number;
  /** … and Σ basis × lots × multiplier × rate. */
  at_market_basis: number;
  /** Fixed, not yet settled lots of contracts with a rate: Σ lots × multiplier, a sale negative … */
  net_lots: number;
  /** … and Σ F × lots × multiplier, a sale negative. */
  net_value: number;
}

/** The rows of one customer summed per instrument (what accounts.ts's SQL does for every customer). */
export function sumRows(rows: readonly MarginRow[]): InstrumentSums[] {
  const by = new Map<string, InstrumentSums>();
  for (const r of rows) {
    if (!(r.rate > 0)) continue; // rate 0: outside the margin terms, its lots never put a customer in a call
    const key = r.price > 0 ? r.instrument_id : `${r.instrument_id} ${r.basis}`;
    let s = by.get(key);
    if (!s) {
      s = { instrument_id: r.instrument_id, priced: 0, at_market: 0, at_market_basis: 0, net_lots: 0, net_value: 0 };
      by.set(key, s);
    }
    const weight = r.lots * r.multiplier;
    if (r.price > 0) s.priced += Math.max(r.price + r.basis, 0) * weight * r.rate;
    else {
      s.at_market += weight * r.rate;
      s.at_market_basis += r.basis * weight * r.rate;
    }
    if (r.kind === 'F') {
      const sign = r.direction === 'BUY' ? 1 : -1;
      s.net_lots += sign * weight;
      s.net_value += sign * r.price * weight;
    }
  }
  return [...by.values()];
}

/**
 * available = balance + credit_line − margin_required + min(floating_pnl, 0); a margin call while it is
 * below 0, for the amount that brings it back to 0. An open market order is valued at the live price;
 * floating P/L per instrument is market × net lots − net value (a buyer's (market − F) × lots ×
 * multiplier, a seller's (F − market) × …), 0 while the market price is not known.
 */
export function figuresFromSums(
  account: { balance: number; credit_line: number },
  sums: readonly InstrumentSums[],
  lastPrice: (symbol: string) => number | undefined,
): AccountFigures {
  let margin = 0;
  let pnl = 0;
  for (const s of sums) {
    const market = lastPrice(s.instrument_id);
    margin += s.priced + Math.max((market ?? 0) * s.at_market + s.at_market_basis, 0);
    if (market !== undefined) pnl += market * s.net_lots - s.net_value;
  }
  const margin_required = round2(margin);
  const floating_pnl = round2(pnl);
  const available = round2(account.balance + account.credit_line - margin_required + Math.min(floating_pnl, 0));
  return {
    balance: round2(account.balance),
    credit_line: round2(account.credit_line),
    margin_required,
    floating_pnl,
    available,
    margin_call: available < 0,
    call_amount: available < 0 ? round2(-available) : 0,
  };
}

/** The figures of one customer from what holds their margin, row by row (the fixing's check). */
export function accountFigures(
  account: { balance: number; credit_line: number },
  rows: readonly MarginRow[],
  lastPrice: (symbol: string) => number | undefined,
): AccountFigures {
  return figuresFromSums(account, sumRows(rows), lastPrice);
}

/** 1,234,567.80 */
export const yuan = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
