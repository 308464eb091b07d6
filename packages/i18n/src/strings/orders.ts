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
    /** Cancelled because the trader paused its contract (暂停). */
    paused: '合同已暂停，已撤单',
    /** Cancelled because the trader deactivated its customer (停用). */
    deactivated: '客户已停用，已撤单',
    /** A fill the exchange reported after we had asked it to cancel the order (pause, 停用, deadline). */
    filledAfterStop: (reason: string, lots: number) => `${reason}，但撤单前交易所又成交 ${lots} 手`,
  },
} as const;
