/** UI strings: app. */
export const app = {
  title: '快期点价宝',
  volatilityTitle: '期权波动率曲线',
  traderHeader: '点价宝 · 管理端',
  customerDefaultTitle: '点价宝',
  vendorCredit: '技术支持：信易科技',
} as const;
