import { zh } from '@pfp/i18n';
import type { OrderStatus } from '@pfp/contract';

/**
 * An order's life in one place: its state machine, the texts its `last_msg` shows at each step,
 * the claim step (taken for a gateway before anything is sent), and the port through which the
 * fixing calls tell trading what they did.
 */

/**
 * The order's state machine: every status change of an order is one of these events, and the
 * table says where each event leads from each status. Absent = not allowed (the caller leaves
 * the order alone, or refuses). Submit, cancel (modules/orders) and the router's appliers
 * (trading/apply.ts: claim, accept, fill, end by cancel / reject / expiry) all go through it.
 */
export const ORDER_TRANSITIONS = {
  /** The router takes it for a gateway (outbox): from then on it is the broker's. */
  claim: { PENDING: 'ALIVE' },
  /** The broker confirmed it. */
  accept: { PENDING: 'ALIVE', ALIVE: 'ALIVE' },
  /** A fill that leaves lots open (a late fill of a cancelled order keeps it cancelled). */
  partFill: { PENDING: 'ALIVE', ALIVE: 'ALIVE', CANCELLED: 'CANCELLED' },
  /** The fill that completes it (also after our books had cancelled it: the lots were traded). */
  fill: { PENDING: 'FINISHED', ALIVE: 'FINISHED', CANCELLED: 'FINISHED' },
  /** The unfilled rest died at the broker: cancelled, rejected, FAK remainder, expired. */
  end: { PENDING: 'CANCELLED', ALIVE: 'CANCELLED' },
  /** Cancelled here: it never reached a broker. */
  cancel: { PENDING: 'CANCELLED' },
  /** A cancel sent to the broker; the order stays ALIVE until the broker answers. */
  requestCancel: { ALIVE: 'ALIVE' },
} as const satisfies Record<string, Partial<Record<OrderStatus, OrderStatus>>>;

export type OrderTransition = keyof typeof ORDER_TRANSITIONS;

/** Where `event` leads from `status`, or undefined when it is not allowed. */
export function nextStatus(status: OrderStatus, event: OrderTransition): OrderStatus | undefined {
  return (ORDER_TRANSITIONS[event] as Partial<Record<OrderStatus, OrderStatus>>)[status];
}

/** An order in one of these is over: no event moves it except a late fill (see `fill`). */
export const isFinal = (status: OrderStatus) => status === 'FINISHED' || status === 'CANCELLED';

/** What an order's `last_msg` says at each step of its life (the customer and the trader read it). */
export const ORDER_TEXTS = zh.orders.messages;

/**
 * The cancel reasons of the trader's controls (pause, 停用): a fill the exchange reports after one of
 * them asked for the cancel is booked (it happened) and flagged (docs/fixing.md "Pause and 停用").
 */
export const STOP_REASONS: readonly string[] = [ORDER_TEXTS.paused, ORDER_TEXTS.deactivated];

/**
 * The claim step (the outbox): an order taken for a gateway is ALIVE '已发送' with its order_dispatch
 * row, committed before anything is sent. The router's claim (trading/apply.ts) and the one-statement
 * submit (modules/orders) both write exactly this.
 */
export const CLAIM = {
  from: 'PENDING',
  to: ORDER_TRANSITIONS.claim.PENDING,
  text: ORDER_TEXTS.sent,
} as const satisfies { from: OrderStatus; to: OrderStatus; text: string };

/** An order taken for a gateway (committed ALIVE '已发送' with its dispatch record), with what sending it needs. */
export interface ClaimedOrder {
  id: number;
  direction: 'BUY' | 'SELL';
  instrument_id: string;
  volume_orign: number;
  limit_price: number;
  /** The gateway the order is (now) bound to; another than asked if it was bound before. */
  gatewayKey: string;
}

/** A claimed order's row as SQL returns it (ids and prices may come back as strings). */
export function claimedOrder(
  row: {
    id: number | string;
    direction: 'BUY' | 'SELL';
    instrument_id: string;
    volume_orign: number;
    limit_price: number | string;
  },
  gatewayKey: string,
): ClaimedOrder {
  return {
    id: Number(row.id),
    direction: row.direction,
    instrument_id: row.instrument_id,
    volume_orign: row.volume_orign,
    limit_price: Number(row.limit_price),
    gatewayKey,
  };
}

/** What the fixing calls (modules/orders, modules/conditional, deadlines) tell trading: the trading port. */
export interface TradingPort {
  /**
   * The gateway this process's router would take a new order of the tenant for right now
   * (undefined: the tenant's router does not run here, or has no gateway). The one-statement submit
   * then takes the order for it itself, exactly as the router's claim would, and reports it claimed:
   * one commit less between a fixing and the broker (docs/performance.md, "Trading at 1,000 fixings
   * per second"). The outbox holds: the dispatch is committed before anything is sent.
   */
  claimFor?(tenantId: number): string | undefined;
  /** An order is committed: PENDING (the router may take it) or already `claimed` (the router sends it). */
  created(orderId: number, tenantId: number, claimed?: ClaimedOrder): void;
  /** A cancel of an order that is already at the broker was requested. */
  cancelRequested(orderId: number, tenantId: number): void;
  /** A conditional order was created or ended by a call: the engine watching its tenant looks again. */
  conditionChanged?(conditionId: number, tenantId: number): void;
}
