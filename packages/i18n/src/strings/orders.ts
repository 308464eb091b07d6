/**
 * last_msg of an order: the texts the server writes on each step of an order's life (the order
 * lists show them as they are). One place, so the router, the gateways and the cancel agree;
 * the server reads them as trading/orderLife.ts's ORDER_TEXTS.
 */
export const orders = {
  messages: {
    /** Committed, not yet taken for a gateway. */
    waiting: '等待发送',
    /** Taken for a gateway (the claim step). */
    sent: '已发送',
    accepted: '已报单',
    partFilled: '部分成交',
    filled: '全部成交',
    cancelled: '已撤单',
    vanished: '报单已失效（交易柜台无此报单）',
    /** Cancelled because its contract's fixing deadline passed. */
    deadline: '已过点价截止日',
  },
} as const;
