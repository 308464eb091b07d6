/** 均价依据 of a 均价点价 contract (issue 43 item 2, docs/fixing.md): 结算价 or 成交价. */
export const averageBasis = {
  label: '均价依据',
  /** Short names (tables, the statement). */
  bases: { settlement: '结算价', fills: '成交价' },
  /** 点价方式 with its basis: '均价点价（结算价）'. */
  mode: (basis: 'settlement' | 'fills') => `均价点价（${basis === 'settlement' ? '结算价' : '成交价'}）`,
  /** What each basis means, for the form and the confirmation. */
  meaning: {
    settlement: '结算价均价：每个交易日收盘后按交易所当日结算价点价',
    fills: '成交价均价：每个交易日 14:50 按本方市价委托的成交价点价',
  },
  formHelp: '结算价为交易所每日结算价（默认）；成交价为本方每日市价委托的成交价',
  /** The schedule's window line (a contract from before issue 43 has no basis: the old line). */
  window: (start: string, end: string, basis: 'settlement' | 'fills' | null, time: string) =>
    basis === 'settlement'
      ? `均价区间 ${start} ~ ${end}，每个交易日收盘（${time}）按交易所当日结算价点价`
      : basis === 'fills'
        ? `均价区间 ${start} ~ ${end}，每个交易日 ${time} 按成交价自动点价`
        : `均价区间 ${start} ~ ${end}，每个交易日 ${time} 自动点价`,
  /** The line naming the basis: 均价依据：结算价. */
  line: (basis: 'settlement' | 'fills') => `均价依据：${basis === 'settlement' ? '结算价' : '成交价'}`,
  /** The schedule's price column. */
  priceColumn: { settlement: '结算价', fills: '成交价' },
  /** The contract history's line of a 结算价 day. */
  historyFix: (day: string, lots: number, price: string) => `均价点价 ${lots} 手，按 ${day} 结算价 ${price}`,
  /** The order a settlement day books (its 状态信息). */
  booked: (day: string) => `按 ${day} 结算价点价`,
  /** The confirmation of a day's 均价点价. */
  confirmation: {
    mode: '点价方式',
    basis: {
      settlement: '结算价（交易所当日结算价）',
      fills: '成交价（本方当日市价成交价）',
    },
    /** The futures price's label when it is the settlement price. */
    settlementPrice: '期货结算价（元）',
    /** The formula under a 结算价 day's figures (the futures price is the settlement, not a fill). */
    settlementFormula: '点价价格 = 期货结算价 + 基差；金额 = 点价价格 × 成交手数 × 合约乘数',
    /** 点价人 of a day the system fixed by the schedule (no person pressed 点价). */
    fixedBySystem: '系统按均价计划自动点价',
  },
  errors: {
    pointHasBasis: '点价合同不需要均价依据（average_basis）',
  },
} as const;
