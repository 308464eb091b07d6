import type { GatewayOrder } from '../trading/gateway';
import type { DiffMessage } from './connection';
import { num, type JsonObject } from './mergePatch';

/** What a DIFF trade server is sent for an order: the insert_order packet, by the exchanges' rules (TqSdk's). */

/** Exchanges taking market orders (price_type ANY): TqSdk refuses them on CFFEX, SHFE, INE and for DCE options. */
const MARKET_ORDER_EXCHANGES = new Set(['DCE', 'CZCE', 'GFEX']);

/** Exchanges where CLOSE closes only positions opened before today and today's need CLOSETODAY. */
const CLOSE_TODAY_EXCHANGES = new Set(['SHFE', 'INE']);

export function splitSymbol(symbol: string): { exchangeId: string; instrumentId: string } | undefined {
  const match = /^([A-Z]+)\.([A-Za-z0-9-]+)$/.exec(symbol);
  return match ? { exchangeId: match[1] ?? '', instrumentId: match[2] ?? '' } : undefined;
}

/** 'm2601-C-3000', 'cu2601C80000', 'SR601C6000', 'IO2601-C-4000'. */
function isOption(instrumentId: string): boolean {
  return /\d-?[CP]-?\d/.test(instrumentId);
}

/** Whether the exchange accepts a market (price_type ANY) order for this symbol, by TqSdk's rule. */
export function supportsMarketOrders(symbol: string): boolean {
  const parts = splitSymbol(symbol);
  if (!parts || !MARKET_ORDER_EXCHANGES.has(parts.exchangeId)) return false;
  return !(parts.exchangeId === 'DCE' && isOption(parts.instrumentId));
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The insert_order packet of an order (`closeToday`: send offset CLOSETODAY instead of CLOSE):
 * - LIMIT: price_type LIMIT, time_condition GFD (good for the day), volume_condition ANY;
 * - MARKET where the exchange has market orders: price_type ANY, time_condition IOC (TqSdk's market order);
 * - MARKET elsewhere (SHFE, INE, CFFEX, DCE options): FAK (LIMIT + IOC + volume ANY) at the limit-up price to
 *   buy / limit-down price to sell, or at the order's own limit price when those are unknown.
 * Throws (with a Chinese message) for an order that cannot be sent.
 */
export function buildInsertOrder(
  order: GatewayOrder,
  userId: string,
  brokerOrderId: string,
  limits?: { upper_limit: number; lower_limit: number },
  closeToday = false,
): DiffMessage {
  const parts = splitSymbol(order.symbol);
  if (!parts) throw new Error(`合约代码不合法：${order.symbol}`);
  if (!Number.isInteger(order.volume) || order.volume <= 0) throw new Error(`下单手数不合法：${order.volume}`);
  const base: DiffMessage = {
    aid: 'insert_order',
    user_id: userId,
    order_id: brokerOrderId,
    exchange_id: parts.exchangeId,
    instrument_id: parts.instrumentId,
    direction: order.direction,
    offset: order.offset === 'CLOSE' && closeToday ? 'CLOSETODAY' : order.offset,
    volume: order.volume,
    volume_condition: 'ANY',
  };
  if (order.priceType === 'LIMIT') {
    const price = positive(order.limitPrice);
    if (price === undefined) throw new Error(`限价单价格不合法：${order.limitPrice}`);
    return { ...base, price_type: 'LIMIT', limit_price: price, time_condition: 'GFD' };
  }
  if (supportsMarketOrders(order.symbol)) return { ...base, price_type: 'ANY', time_condition: 'IOC' };
  const price =
    positive(order.direction === 'BUY' ? limits?.upper_limit : limits?.lower_limit) ?? positive(order.limitPrice);
  if (price === undefined) throw new Error(`${order.symbol} 不支持市价单，且没有涨跌停价可用`);
  return { ...base, price_type: 'LIMIT', limit_price: price, time_condition: 'IOC' };
}

/**
 * SHFE/INE: whether a CLOSE must go out as CLOSETODAY, from the account's position in the symbol
 * (`trade[user].positions[symbol]`: pos_*_his / pos_*_today as TqSdk reads them, else the spec's volume_*;
 * minus volume_*_frozen_* when given): CLOSE when the older lots cover the volume, else CLOSETODAY when
 * today's do. An order needing both is sent as CLOSE and the broker rejects it (split it into two orders).
 */
export function closesToday(order: GatewayOrder, position: JsonObject | undefined): boolean {
  const parts = splitSymbol(order.symbol);
  if (order.offset !== 'CLOSE' || !parts || !CLOSE_TODAY_EXCHANGES.has(parts.exchangeId)) return false;
  if (!position) return false;
  const side = order.direction === 'SELL' ? 'long' : 'short';
  const lots = (period: 'his' | 'today'): number => {
    const held = num(position[`pos_${side}_${period}`]);
    const total = Number.isFinite(held) ? held : num(position[`volume_${side}_${period}`]);
    const frozen = num(position[`volume_${side}_frozen_${period}`]);
    return (Number.isFinite(total) ? total : 0) - (Number.isFinite(frozen) ? frozen : 0);
  };
  return lots('his') < order.volume && lots('today') >= order.volume;
}
