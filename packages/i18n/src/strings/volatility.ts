/** UI strings: volatility. */
export const volatility = {
  future: '期货合约',
  futurePlaceholder: '请选择期货合约',
  curveTypes: '曲线类型',
  curveTypesPlaceholder: '请选择曲线类型',
  exchange: '交易所',
  product: '品种',
  strike: '行权价',
  impliedVol: '隐含波动率',
  loading: '正在加载曲线数据...',
  error: (message: string) => `加载数据时出错: ${message}`,
  empty: '请先选择期货合约和曲线类型以显示图表.',
} as const;
