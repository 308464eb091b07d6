/** UI strings: the volatility page's fitted smiles (issue 44, docs/smile.md). */
export const smile = {
  title: '微笑曲线拟合',
  open: '微笑拟合',
  chart: '微笑拟合图',
  marketPoints: '市场报价点',
  fitted: '拟合曲线',
  table: '各期权链拟合误差',
  chain: '期权链',
  expiry: '到期日',
  points: '点数',
  rmse: '均方根误差',
  maxError: '最大误差',
  errorUnit: '误差单位：波动率点（1 点 = 1%）',
  flat: '平坦',
  flatHint: '拟合未通过无套利检查，按平值波动率取平',
  fittedAt: (time: string) => `拟合时间 ${time}（北京时间）`,
  noChains: '该品种暂无足够的期权报价拟合微笑',
  loading: '正在加载拟合结果...',
  error: (message: string) => `加载拟合结果时出错: ${message}`,
  loadFailed: '网络或服务器异常，请稍后重试',
  tooltip: (name: string, strike: string, vol: string) => `${name} 行权价 ${strike}: ${vol}`,
  /** 含权报价's note (the server's, apps/server modules/pricing/surfaceMarket.ts): where its vol was read. */
  surfaceNote: {
    read: (vol: string, product: string, strike: number, date: string, rule: string) =>
      `波动率 ${vol} 取自${product}期权微笑曲面：行权价 ${strike}、${date}，${rule}`,
    slice: (chain: string, expiry: string) => `${chain} 期权链（${expiry} 到期）的拟合微笑`,
    interpolated: (near: string, far: string) => `${near} 与 ${far} 两期权链之间按总方差线性插值`,
    beforeFirst: (chain: string, expiry: string) =>
      `早于最近的 ${chain} 期权链（${expiry} 到期），按其同一价值度的波动率外推`,
    afterLast: (chain: string, expiry: string) =>
      `晚于最远的 ${chain} 期权链（${expiry} 到期），总方差按其平值方差率外推`,
  },
} as const;
