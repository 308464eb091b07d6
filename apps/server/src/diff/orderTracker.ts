import type { GatewayEvent } from '../trading/gateway';
import { ORDER_TEXTS } from '../trading/orderLife';
import { getObject, isJsonObject, num, str, type JsonObject } from './mergePatch';

/**
 * What became of our orders, read from the account section a DIFF trade server keeps up to date
 * (`trade[user]`: `orders[order_id]`, `trades[trade_id]`), as the gateway's events (tradeGateway.ts):
 * - accepted: the order got an exchange_order_id (or a trade);
 * - trade: each record of `trades` with our order_id, once per trade id;
 * - cancelled: FINISHED with volume_left > 0 after something reached the exchange (message = last_msg);
 * - rejected: FINISHED without exchange_order_id and without trades (message = last_msg, else the last
 *   error notify).
 * A final event waits until the trade records add up to volume_orign − volume_left, so a `cancelled`
 * never overtakes the trades before it.
 */

interface Tracked {
  orderId: string;
  accepted: boolean;
  trades: Set<string>;
  tradedVolume: number;
  done: boolean;
}

export interface TradeRecord {
  tradeId: string;
  volume: number;
  price: number;
  at: Date;
  ns: number;
}

/** Done orders remembered (so a repeated insert of a finished order sends nothing and emits nothing). */
const MAX_DONE = 50_000;

export class OrderTracker {
  private readonly tracked = new Map<string, Tracked>();
  private readonly active = new Set<string>();

  /** `account`: the account section as it is now (`trade[user]`), undefined before it arrives. */
  constructor(private readonly account: () => JsonObject | undefined) {}

  /** Whether the order (by broker order id) is followed. */
  has(id: string): boolean {
    return this.tracked.has(id);
  }

  /** Whether the order's final event was given. */
  isDone(id: string): boolean {
    return this.tracked.get(id)?.done === true;
  }

  /** The orders whose final event is still to come. */
  activeIds(): string[] {
    return [...this.active];
  }

  orderNode(brokerOrderId: string): JsonObject | undefined {
    return getObject(this.account(), 'orders', brokerOrderId);
  }

  /** Starts following an order (our `orderId`, broker order id `id`). */
  track(orderId: string, id: string): void {
    this.follow(orderId, id);
  }

  private follow(orderId: string, id: string): Tracked {
    let tracked = this.tracked.get(id);
    if (!tracked) {
      tracked = { orderId, accepted: false, trades: new Set(), tradedVolume: 0, done: false };
      this.tracked.set(id, tracked);
    }
    if (!tracked.done) this.active.add(id);
    return tracked;
  }

  /** Starts following an order found on the server, taking what it shows now as already reported. */
  adopt(orderId: string, id: string): void {
    const tracked = this.follow(orderId, id);
    const order = this.orderNode(id);
    const trades = this.tradesByOrder(new Set([id])).get(id) ?? [];
    for (const trade of trades) {
      tracked.trades.add(trade.tradeId);
      tracked.tradedVolume += trade.volume;
    }
    if (str(order?.exchange_order_id).trim() !== '' || trades.length > 0) tracked.accepted = true;
    if (order?.status === 'FINISHED' && this.consistent(order, tracked)) this.finish(id, tracked);
  }

  private consistent(order: JsonObject, tracked: Tracked): boolean {
    const traded = num(order.volume_orign) - num(order.volume_left);
    return !Number.isFinite(traded) || tracked.tradedVolume >= traded;
  }

  private finish(id: string, tracked: Tracked): void {
    tracked.done = true;
    this.active.delete(id);
    if (this.tracked.size > MAX_DONE) {
      for (const [key, value] of this.tracked) {
        if (this.tracked.size <= MAX_DONE) break;
        if (value.done) this.tracked.delete(key);
      }
    }
  }

  /** Trade records of the given broker order ids, oldest first. */
  tradesByOrder(ids: Set<string>): Map<string, TradeRecord[]> {
    const out = new Map<string, TradeRecord[]>();
    const trades = getObject(this.account(), 'trades');
    if (!trades) return out;
    for (const [tradeId, trade] of Object.entries(trades)) {
      if (!isJsonObject(trade)) continue;
      const orderId = str(trade.order_id);
      if (!ids.has(orderId)) continue;
      const ns = num(trade.trade_date_time);
      const record: TradeRecord = {
        tradeId,
        volume: num(trade.volume),
        price: num(trade.price),
        at: Number.isFinite(ns) ? new Date(Math.round(ns / 1e6)) : new Date(),
        ns: Number.isFinite(ns) ? ns : 0,
      };
      const list = out.get(orderId);
      if (list) list.push(record);
      else out.set(orderId, [record]);
    }
    for (const list of out.values()) list.sort((a, b) => a.ns - b.ns || (a.tradeId < b.tradeId ? -1 : 1));
    return out;
  }

  /** The events of the given orders not given yet (`lastError`: the last error notify, for a rejection). */
  scan(ids: string[], lastError: string): GatewayEvent[] {
    const byOrder = this.tradesByOrder(new Set(ids));
    const events: GatewayEvent[] = [];
    for (const id of ids) {
      const tracked = this.tracked.get(id);
      if (!tracked || tracked.done) continue;
      const order = this.orderNode(id);
      const trades = byOrder.get(id) ?? [];
      const exchangeOrderId = str(order?.exchange_order_id).trim();
      if (!tracked.accepted && (exchangeOrderId !== '' || trades.length > 0)) {
        tracked.accepted = true;
        events.push(
          exchangeOrderId !== ''
            ? { type: 'accepted', orderId: tracked.orderId, exchangeOrderId }
            : { type: 'accepted', orderId: tracked.orderId },
        );
      }
      for (const trade of trades) {
        if (tracked.trades.has(trade.tradeId)) continue;
        tracked.trades.add(trade.tradeId);
        tracked.tradedVolume += trade.volume;
        const { tradeId, volume, price, at } = trade;
        events.push({ type: 'trade', orderId: tracked.orderId, tradeId, volume, price, at });
      }
      if (!order || order.status !== 'FINISHED' || !this.consistent(order, tracked)) continue;
      const left = num(order.volume_left);
      const traded = num(order.volume_orign) - left;
      const lastMsg = str(order.last_msg);
      if (left > 0) {
        if (traded === 0 && !tracked.accepted) {
          events.push({
            type: 'rejected',
            orderId: tracked.orderId,
            message: lastMsg || lastError || '报单被拒绝',
          });
        } else {
          events.push({ type: 'cancelled', orderId: tracked.orderId, message: lastMsg || ORDER_TEXTS.cancelled });
        }
      }
      this.finish(id, tracked);
    }
    return events;
  }
}
