/** A contract's whole life (issue 32, docs/fixing.md): 转月, 延期, 均价点价 — the server's refusals and the screens. */
export const lifecycle = {
  errors: {
    contractNotFound: '合同不存在',
    sameMonth: '转入的期货合约不能与原合约相同',
    otherProduct: (product: string) => `转入的期货合约必须是同一品种（${product}）`,
    instrumentUnknown: '转入的期货合约不存在或已到期',
    notRollable: (status: string) => `合同${status}，不能转月`,
    averageNotRollable: '均价点价合同由系统按日点价，不能转月',
    moreThanRemain: (remaining: number, frozen: number) =>
      `转月数量超过未点价数量（可转 ${remaining} 手${frozen ? `，另有 ${frozen} 手被委托或条件单占用` : ''}）`,
    heldLots: (orders: string, conditions: string) =>
      `转月的手数被未完成的委托或等待中的条件单占用，请先撤销：${[orders, conditions].filter(Boolean).join('；')}`,
    heldOrders: (ids: string) => `委托 ${ids}`,
    heldConditions: (ids: string) => `条件单 ${ids}`,
    spreadTick: (tick: string) => `月差必须是最小变动价位 ${tick} 的整数倍`,
    deadlinePastExpiry: (latest: string, expiry: string) =>
      `点价截止日不能晚于 ${latest}（期货合约最后交易日 ${expiry} 前一周）`,
    deadlineNotLater: (current: string) => `新点价截止日必须晚于当前截止日 ${current}`,
    completed: '合同已全部执行，不能延期',
    averageWindow: {
      missing: '均价点价合同必须填写均价开始日和均价结束日',
      order: '均价结束日不能早于均价开始日',
      past: '均价开始日不能早于今天',
      noTradingDay: '均价区间内没有交易日',
      afterDeadline: (deadline: string) => `均价结束日不能晚于点价截止日 ${deadline}`,
      pointHasWindow: '点价合同不需要均价区间',
    },
    averageByHand: '均价点价合同由系统每日自动点价，不能手动点价',
  },
  audit: {
    roll: '转月',
    extension: '延期',
    averageFix: '均价点价',
  },
  history: {
    created: (lots: number, unit: string, instrument: string, basis: string) =>
      `创建合同：${lots} 手（${unit}），${instrument}，基差 ${basis}`,
    fix: (lots: number, price: string) => `点价成交 ${lots} 手，成交价 ${price}`,
    rollOut: (lots: number, to: string, id: number) => `转月转出 ${lots} 手至 ${to}（新合同 #${id}）`,
    rollIn: (lots: number, from: string, id: number) => `由 ${from}（合同 #${id}）转月转入 ${lots} 手`,
    extension: (from: string, to: string) => `点价截止日由 ${from} 延至 ${to}`,
    fee: (yuan: string) => `费用 ${yuan} 元`,
  },
  ledgerNote: {
    roll: (id: number, lots: number) => `转月费：合同 #${id}，${lots} 手`,
    extension: (id: number, to: string) => `延期费：合同 #${id}，点价截止日延至 ${to}`,
  },
  scheduleStatus: { filled: '已成交', working: '执行中', planned: '待执行', skipped: '未执行（顺延）' },
  pricingModes: { point: '点价', average: '均价点价' },
} as const;
