/**
 * Limit prices the exchange would refuse are refused at submit (docs/security.md): off the
 * instrument's tick grid (which includes prices that would round to 0 in numeric(18, 4)), or
 * outside the day's limit band.
 */
export const PRICE_MESSAGES = {
  offTick: '价格不是最小变动价位的整数倍',
  outsideBand: '价格超出涨跌停板',
} as const;

export interface PriceBand {
  lower: number;
  upper: number;
}

/**
 * The Chinese reason a limit price is refused, or null when the exchange would take it. 0 = market
 * order. Without a known tick (an instrument missing from the table) only the storable precision
 * (4 decimals) is checked; the broker refuses what is left.
 */
export function limitPriceProblem(price: number, tick: number | undefined, band: PriceBand | undefined): string | null {
  if (price === 0) return null;
  if (Math.round(price * 1e4) === 0) return PRICE_MESSAGES.offTick; // would be stored as 0: a market order
  if (tick && tick > 0) {
    const steps = price / tick;
    // Relative tolerance for binary fractions (0.1 + 0.2); a real off-grid price is off by ≥ 1e-4 of a tick.
    if (Math.round(steps) < 1 || Math.abs(steps - Math.round(steps)) > 1e-6) return PRICE_MESSAGES.offTick;
  }
  if (band && (price < band.lower || price > band.upper)) return PRICE_MESSAGES.outsideBand;
  return null;
}
