/** UI strings: trader. */
export const trader = {
  breadcrumbRoot: '贸易商管理后台',
  nav: { dashboard: '仪表盘', pricers: '客户管理', contracts: '合同管理' },
  notConfigured: '尚未配置',
  notConfiguredHint: '请点击设置按钮完成系统配置',
  dashboardTitle: '实时监控',
  dashboardSubtitle: '实时监控订单动态与系统运行状态',
  pricersTitle: '客户管理',
  pricersSubtitle: '管理点价客户账户',
  contractsTitle: '合同管理',
  contractsSubtitle: '管理点价合同与执行进度',
  comingSoon: '功能即将上线',
} as const;
