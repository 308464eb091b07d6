/** UI strings: errors. */
export const errors = {
  requestFailed: '请求失败',
  subscribeFailed: '视图订阅失败',
  unauthorized: '未授权访问',
  authFailed: (body: string) => `认证失败: ${body}`,
  /** The exchange's price rules: the desk's form and the (simulated) exchange say the same. */
  priceOffTick: '价格不是最小变动价位的整数倍',
  priceOutsideLimits: '价格超出涨跌停板',
} as const;
