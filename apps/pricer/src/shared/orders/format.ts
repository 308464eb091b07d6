import { formatLots, formatPercent, formatPrice, zh } from '@pfp/i18n';
import type { Direction, OrderRow } from '@pfp/contract';

const t = zh.pricer;

/** SPEC §4: PENDING, ALIVE, FINISHED; CANCELLED or any other value reads as cancelled. */
export function statusLabel(order: { status: string; status_str?: string }): string {
  if (order.status_str) return order.status_str;
  const known = t.status[order.status as keyof typeof t.status];
  return known ?? t.status.CANCELLED;
}

export function statusColor(status: string): string {
  switch (status) {
    case 'PENDING':
      return 'gray';
    case 'ALIVE':
      return 'blue';
    case 'FINISHED':
      return 'green';
    default:
      return 'orange';
  }
}

export function directionLabel(direction: Direction | string): string {
  return t.direction[direction as Direction] ?? direction;
}

export function directionColor(direction: Direction | string): string {
  return direction === 'SELL' ? 'teal' : 'red';
}

/** Traded lots as a number (the view sends them as a string). */
export function tradedLots(order: Pick<OrderRow, 'volume_traded'>): number {
  const n = Number(order.volume_traded);
  return Number.isFinite(n) ? n : 0;
}

/** A limit price, or 市价 for a market order (price 0). */
export function limitPriceText(price: number | null | undefined): string {
  return price ? formatPrice(price) : t.market;
}

/** The average fill price; '-' before anything traded. */
export function tradePriceText(order: Pick<OrderRow, 'trade_price' | 'volume_traded'>): string {
  return tradedLots(order) > 0 && order.trade_price ? formatPrice(order.trade_price) : '-';
}

export interface FillRate {
  ratio: number | null;
  text: string;
  complete: boolean;
}

/** SPEC §9: history fill rate = traded / ordered volume, one decimal, green at 100%. */
export function fillRate(order: Pick<OrderRow, 'volume_orign' | 'volume_traded'>): FillRate {
  const ordered = order.volume_orign;
  if (!(ordered > 0)) return { ratio: null, text: '-', complete: false };
  const ratio = tradedLots(order) / ordered;
  return { ratio, text: formatPercent(ratio, 1), complete: ratio >= 1 };
}

export function lotsText(lots: number | string | null | undefined): string {
  return formatLots(typeof lots === 'string' ? Number(lots) : lots);
}

/** SPEC §4: a customer may cancel only ALIVE orders. */
export function canCancel(order: Pick<OrderRow, 'status'>): boolean {
  return order.status === 'ALIVE';
}
