import type { StatusGroup } from '../shared/api';

export interface OrderStats {
  total: number;
  finished: number;
  /** PENDING + ALIVE. */
  active: number;
  /** finished / total (0 with no orders). */
  successRate: number;
  /** Σ trade_price × volume_traded over FINISHED orders. */
  amount: number;
}

const num = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
  return Number.isFinite(n) ? n : 0;
};

/**
 * SPEC §9 formulas, from the orders view grouped by status (count_id, sum_turnover). The amount is the
 * SPEC's, over FINISHED orders, in 元 with the multiplier: turnover (trade_price × traded lots ×
 * multiplier; issue 29: the SPEC's price × lots missed the multiplier).
 */
export function computeOrderStats(groups: readonly StatusGroup[]): OrderStats {
  let total = 0;
  let finished = 0;
  let active = 0;
  let amount = 0;
  for (const group of groups) {
    const count = num(group.count_id);
    total += count;
    if (group.status === 'FINISHED') {
      finished += count;
      amount += num(group.sum_turnover);
    }
    if (group.status === 'PENDING' || group.status === 'ALIVE') active += count;
  }
  return { total, finished, active, successRate: total > 0 ? finished / total : 0, amount };
}
