import type { OrderStatus } from '@pfp/contract';

/**
 * The order's state machine: every status change of an order is one of these events, and the
 * table says where each event leads from each status. Absent = not allowed (the caller leaves
 * the order alone, or refuses). Submit, cancel (domain/orders.ts) and the router's appliers
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

/** last_msg of an order taken for a gateway (`claim`: by the router, or by the submit itself). */
export const SENT_MESSAGE = '已发送';

export type OrderEvent = keyof typeof ORDER_TRANSITIONS;

/** Where `event` leads from `status`, or undefined when it is not allowed. */
export function nextStatus(status: OrderStatus, event: OrderEvent): OrderStatus | undefined {
  return (ORDER_TRANSITIONS[event] as Partial<Record<OrderStatus, OrderStatus>>)[status];
}

/** An order in one of these is over: no event moves it except a late fill (see `fill`). */
export const isFinal = (status: OrderStatus) => status === 'FINISHED' || status === 'CANCELLED';
