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
  /** F: the average futures fill price; O: the limit price (0 = market); W: the order (or trigger) price. */
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

/** Margin one fixing needs: (futures price + basis) × lots × multiplier × rate. */
export function marginFor(rate: number, futuresPrice: number, basis: number, lots: number, multiplier: number) {
  return round2((futuresPrice + basis) * lots * multiplier * rate);
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
 * available = balance + credit_line − margin_required + min(floating_pnl, 0); a margin call while it is
 * below 0, for the amount that brings it back to 0. An open market order is valued at the live price.
 */
export function accountFigures(
  account: { balance: number; credit_line: number },
  rows: readonly MarginRow[],
  lastPrice: (symbol: string) => number | undefined,
): AccountFigures {
  let margin = 0;
  let pnl = 0;
  for (const r of rows) {
    const market = lastPrice(r.instrument_id);
    // A contract without a margin rate is outside the margin terms ("0: no margin check"): its fixed lots
    // never put the customer in a margin call.
    if (r.kind === 'F' && r.rate > 0) pnl += floatingPnl(r.direction, r.price, market, r.lots, r.multiplier);
    if (r.rate > 0) {
      const price = r.price > 0 ? r.price : (market ?? 0);
      margin += (price + r.basis) * r.lots * r.multiplier * r.rate;
    }
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

/** 1,234,567.80 */
export const yuan = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
