import type { StatusGroup } from '../shared/api';

export interface ContractStats {
  total: number;
  active: number;
  paused: number;
  /** Σ executed / Σ total quantity (0 with no lots). */
  executionRate: number;
}

const num = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
  return Number.isFinite(n) ? n : 0;
};

/** From the contracts view grouped by status: count_id, sum_total_quantity, sum_executed_quantity. */
export function computeContractStats(groups: readonly StatusGroup[]): ContractStats {
  let total = 0;
  let active = 0;
  let paused = 0;
  let lots = 0;
  let executed = 0;
  for (const group of groups) {
    const count = num(group.count_id);
    total += count;
    if (group.status === 'active') active += count;
    if (group.status === 'paused') paused += count;
    lots += num(group.sum_total_quantity);
    executed += num(group.sum_executed_quantity);
  }
  return { total, active, paused, executionRate: lots > 0 ? executed / lots : 0 };
}
