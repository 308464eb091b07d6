import { formatLots, formatNumber, zh } from '@pfp/i18n';
import type { OrderStatus, PricerContract } from '@pfp/contract';
import type { OrderConditions, TradedGroup } from '../shared/api';

const t = zh.pricer;

/** SPEC §3 history filter, as the panel holds it; empty strings and 'all' mean "no condition". */
export interface HistoryFilter {
  start_date: string;
  end_date: string;
  contract_id: string;
  status: string;
}

export const EMPTY_FILTER: HistoryFilter = { start_date: '', end_date: '', contract_id: 'all', status: 'all' };

export const STATUS_OPTIONS = ['PENDING', 'ALIVE', 'FINISHED', 'CANCELLED'] as const;

const isSet = (value: string) => value !== '' && value !== 'all';

/** The badge: how many of the four conditions are in force. */
export function countActive(filter: HistoryFilter): number {
  return [filter.start_date, filter.end_date, filter.contract_id, filter.status].filter(isSet).length;
}

/** The text of the current filter, e.g. 开始日期：2026-01-01，状态：已完成; 无 when none. */
export function describeFilter(
  filter: HistoryFilter,
  contracts: readonly Pick<PricerContract, 'id' | 'name'>[],
): string {
  const parts: string[] = [];
  if (isSet(filter.start_date)) parts.push(t.filterPart(t.startDate, filter.start_date));
  if (isSet(filter.end_date)) parts.push(t.filterPart(t.endDate, filter.end_date));
  if (isSet(filter.contract_id)) {
    const name = contracts.find((c) => String(c.id) === filter.contract_id)?.name ?? `#${filter.contract_id}`;
    parts.push(t.filterPart(t.contract, name));
  }
  if (isSet(filter.status)) {
    parts.push(t.filterPart(t.col.status, t.status[filter.status as keyof typeof t.status] ?? filter.status));
  }
  return parts.length > 0 ? parts.join('，') : t.none;
}

/** SPEC §7 my-orders: empty values and 'all' are left out. */
export function historyParams(filter: HistoryFilter): OrderConditions {
  const params: OrderConditions = {};
  if (filter.start_date) params.start_date = filter.start_date;
  if (filter.end_date) params.end_date = filter.end_date;
  if (filter.contract_id && filter.contract_id !== 'all') params.contract_id = Number(filter.contract_id);
  if (filter.status && filter.status !== 'all') params.status = filter.status as OrderStatus;
  return params;
}

/** Dates as YYYY-MM-DD compare as strings. */
export function dateRangeError(filter: HistoryFilter): string | undefined {
  return filter.start_date && filter.end_date && filter.start_date > filter.end_date ? t.dateRangeInvalid : undefined;
}

export interface HistorySummary {
  orders: number;
  ordered: number;
  traded: number;
}

/** Totals from the orders grouped by traded volume: traded lots = Σ value × count. */
export function summarise(groups: readonly TradedGroup[]): HistorySummary {
  let orders = 0;
  let ordered = 0;
  let traded = 0;
  for (const g of groups) {
    const count = Number(g.count_id) || 0;
    orders += count;
    ordered += Number(g.sum_volume_orign) || 0;
    traded += (Number(g.volume_traded) || 0) * count;
  }
  return { orders, ordered, traded };
}

/** 共 n 笔订单，委托 x 手，成交 y 手 */
export function summaryText(s: HistorySummary): string {
  return t.summary(formatNumber(s.orders), formatLots(s.ordered), formatLots(s.traded));
}
