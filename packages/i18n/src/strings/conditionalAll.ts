/** The customer's 条件单 across all their contracts (issue 29), on the history page. */
export const conditionalAll = {
  title: '我的条件单',
  subtitle: '全部合同的条件单：等待中的可撤销；已触发的显示它创建的订单，成交后在点价历史中查看确认单。',
  contract: '合同',
  /** Under an order's status in the history: the 条件单 that sent it. */
  firedBy: (id: number) => `条件单 #${id} 触发`,
} as const;
