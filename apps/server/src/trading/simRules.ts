import { isTradingDay } from '@pfp/contract';
import { shanghaiInstant, shanghaiTime } from '../platform/time';
import type { GatewayOrder } from './gateway';
import type { SimOrderStatus } from '../platform/db/schema';
import { price, volume, type Quote, type QuoteSource } from './quotes';
import { ORDER_TEXTS } from './orderLife';

/**
 * The rules of the simulated exchange (simBroker.ts): what it refuses and why, when a day's resting
 * orders die, and what an order can take from a quote.
 */

export const SIM_MESSAGES = {
  offTick: '价格不是最小变动价位的整数倍',
  outsideLimits: '价格超出涨跌停板',
  unknownInstrument: '合约不存在',
  noQuote: '合约暂无行情',
  notTrading: '当前不在交易时间',
  badVolume: '报单数量无效',
  badPrice: '限价单价格无效',
  cancelled: ORDER_TEXTS.cancelled,
  expired: '收盘自动撤单',
  fakRest: '市价单剩余未成交部分已撤销',
  fakNone: '市价单无对手盘可成交，已撤销',
} as const;

/** An order in the simulated book (resting, or being placed). */
export interface Resting {
  ref: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  limitPrice: number;
  volume: number;
  traded: number;
  seq: number;
  expiresAt: number;
  trades: number;
}

/** Liquidity of one quote level already taken since the symbol last ticked. */
export interface Used {
  bid: number;
  ask: number;
}

/** `u` after `v` more lots were taken: a BUY takes the ask side, a SELL the bid. */
export const taking = (u: Used, direction: 'BUY' | 'SELL', v: number): Used =>
  direction === 'BUY' ? { bid: u.bid, ask: u.ask + v } : { bid: u.bid + v, ask: u.ask };

/** The n-th fill of an order (stable: a replay reports the same id). */
export const tradeIdOf = (tenantId: number, ref: string, n: number) => `SIM-${tenantId}-${ref}-${n}`;

const DAY_MS = 86_400_000;
const pad2 = (n: number) => String(n).padStart(2, '0');
const EPS = 1e-9;

/**
 * The end of the simulated trading day an order placed at `at` belongs to: the next `closeTime`
 * (Asia/Shanghai, no DST) strictly after `at`, on a trading day of the exchange calendar (a
 * Friday-night order lives until Monday's close, as the exchanges count night sessions into the next
 * trading day; an order before a holiday until the close of the first trading day after it).
 */
export function nextClose(at: Date, closeTime = '15:00'): Date {
  const m = /^(\d{1,2}):(\d{2})$/.exec(closeTime);
  if (!m) throw new Error(`closeTime must be HH:MM, got ${closeTime}`);
  const local = shanghaiTime(at);
  let t = shanghaiInstant(local.y, local.m, local.d, Number(m[1]), Number(m[2]));
  if (t <= at.getTime()) t += DAY_MS;
  for (;;) {
    const local = shanghaiTime(t);
    if (isTradingDay('SHFE', `${local.y}-${pad2(local.m)}-${pad2(local.d)}`)) return new Date(t);
    t += DAY_MS;
  }
}

/** Whether `p` lies on the tick grid (tolerant of binary floating point). */
export function onTickGrid(p: number, tick: number): boolean {
  const n = p / tick;
  return Math.abs(n - Math.round(n)) < 1e-6;
}

/** Why the exchange refuses `order` at `at` (a SIM_MESSAGES text), or undefined when it takes it. */
export function refusal(
  order: GatewayOrder,
  at: Date,
  quotes: QuoteSource,
  isTrading: ((symbol: string, at: Date) => boolean) | undefined,
): string | undefined {
  if (!Number.isSafeInteger(order.volume) || order.volume <= 0) return SIM_MESSAGES.badVolume;
  const tick = quotes.priceTick(order.symbol);
  if (tick === undefined || !(tick > 0)) return SIM_MESSAGES.unknownInstrument;
  if (isTrading && !isTrading(order.symbol, at)) return SIM_MESSAGES.notTrading;
  const q = quotes.getQuote(order.symbol);
  if (!q) return SIM_MESSAGES.noQuote;
  if (order.priceType === 'LIMIT') {
    const p = order.limitPrice;
    if (!Number.isFinite(p) || p <= 0) return SIM_MESSAGES.badPrice;
    if (!onTickGrid(p, tick)) return SIM_MESSAGES.offTick;
    const upper = price(q.upper_limit);
    const lower = price(q.lower_limit);
    if ((upper !== undefined && p > upper + EPS) || (lower !== undefined && p < lower - EPS)) {
      return SIM_MESSAGES.outsideLimits;
    }
  }
  return undefined;
}

/** What `o` can take from quote `q` given the liquidity already used; MARKET orders have limitPrice 0. */
export function fillable(
  o: Resting,
  q: Quote,
  used: Used,
  market: boolean,
): { volume: number; price: number } | undefined {
  const left = o.volume - o.traded;
  if (left <= 0) return undefined;
  if (o.direction === 'BUY') {
    const ask = price(q.ask_price1);
    if (ask === undefined || (!market && ask > o.limitPrice + EPS)) return undefined;
    const v = Math.min(left, volume(q.ask_volume1) - used.ask);
    return v > 0 ? { volume: v, price: ask } : undefined;
  }
  const bid = price(q.bid_price1);
  if (bid === undefined || (!market && bid < o.limitPrice - EPS)) return undefined;
  const v = Math.min(left, volume(q.bid_volume1) - used.bid);
  return v > 0 ? { volume: v, price: bid } : undefined;
}

/** An order priced at insertion, not yet persisted. */
export interface Placed {
  order: GatewayOrder;
  o: Resting;
  fill?: { volume: number; price: number } | undefined;
  status: SimOrderStatus;
  message: string;
}

/**
 * Validates and prices one order sent at `at`, against its symbol's quote with `taken` of the quote's
 * liquidity already used: rejected, filled, cancelled (a MARKET order's rest: FAK) or resting (ALIVE).
 */
export function placeOrder(
  order: GatewayOrder,
  at: Date,
  closeTime: string,
  quotes: QuoteSource,
  isTrading: ((symbol: string, at: Date) => boolean) | undefined,
  taken: Used,
): Placed {
  const rejection = refusal(order, at, quotes, isTrading);
  const market = order.priceType === 'MARKET';
  const o: Resting = {
    ref: order.orderId,
    symbol: order.symbol,
    direction: order.direction,
    limitPrice: market ? 0 : order.limitPrice,
    volume: order.volume,
    traded: 0,
    seq: 0,
    expiresAt: nextClose(at, closeTime).getTime(),
    trades: 0,
  };
  if (rejection) return { order, o, status: 'REJECTED', message: rejection };
  const q = quotes.getQuote(order.symbol);
  const fill = q ? fillable(o, q, taken, market) : undefined;
  const traded = fill?.volume ?? 0;
  if (traded === o.volume) return { order, o, fill, status: 'FILLED', message: '' };
  if (market)
    return { order, o, fill, status: 'CANCELLED', message: traded > 0 ? SIM_MESSAGES.fakRest : SIM_MESSAGES.fakNone };
  return { order, o, fill, status: 'ALIVE', message: '' };
}
