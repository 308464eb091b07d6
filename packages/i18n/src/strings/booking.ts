/**
 * The audit rows of the books' own changes (issue 45 item 4): a fill booked and an order's unfilled rest
 * going back to its contract, written by the order router in the booking's transaction, so that the audit
 * log alone replays every contract's lots (docs/ha.md).
 */
export const booking = {
  audit: {
    actions: {
      'book-fill': '成交入账',
      'order-ended': '订单结束',
    } as Record<string, string>,
    /** The broker's own trade id (SIM-… on the simulated broker) stays in the row's data, not in 内容. */
    actionFields: { 'book-fill': { trade_id: '' } } as Record<string, Record<string, string>>,
    fields: {
      trade_id: '成交编号',
      from_remaining: '已撤单后成交手数',
      released: '退回合同手数',
      message: '说明',
    } as Record<string, string>,
  },
};
