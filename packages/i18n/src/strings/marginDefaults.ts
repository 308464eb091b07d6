/**
 * Issue 41 (docs/margin.md "Which rate a contract gets", "Value"): margin on by default — the company's
 * rates, a customer's and a contract's rate with the confirmation of a 0 — and the value of every
 * contract and customer.
 */

/** 0.1 → '10%', 0.125 → '12.5%', 0.1234 → '12.34%' (a rate has at most 4 decimals: 2 of a percent). */
export const ratePercent = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;

export const marginDefaults = {
  rate: '保证金比例',
  ratePercent,
  /** In lists: the rate, or that the contract holds none. */
  rateCell: (rate: number) => (rate > 0 ? ratePercent(rate) : '不收'),
  /** Under a contract's status in the list. */
  listRate: (rate: number) => (rate > 0 ? `保证金 ${ratePercent(rate)}` : '不收保证金'),
  rateField: '保证金比例（%）',
  rateInvalid: '保证金比例应在 0 到 100% 之间，最多两位小数',
  sources: {
    contract: '本合同约定',
    customer: '客户约定',
    product: '品种默认',
    company: '公司默认',
  } as Record<string, string>,
  /** Under the contract form's field: where the proposed rate comes from. */
  defaultHint: (rate: number, source: string) =>
    `默认 ${ratePercent(rate)}（${source}）；已点价的手数按此比例占用保证金`,
  pickFirst: '选择客户和品种后显示默认比例',
  fixedOnContract: '合同的保证金比例创建后不能修改',
  zeroConfirm: '确认不收保证金',
  zeroConfirmHelp: '比例为 0：该合同点价后不占用保证金，行情不利时也不会触发追加保证金',
  zeroConfirmRequired: '保证金比例为 0，请勾选“确认不收保证金”',
  customerField: '客户保证金比例（%）',
  customerPlaceholder: '留空：按公司默认',
  customerHelp: '该客户新建合同的默认比例，优先于品种和公司默认',
  customerZeroHelp: '比例为 0：该客户新建的合同默认不收保证金，点价不占用保证金',
  settings: {
    title: '保证金设置',
    companyRate: '公司默认保证金比例（%）',
    companyHelp: '新建合同未单独约定时使用：合同约定 → 客户约定 → 品种默认 → 公司默认',
    productRates: '品种默认比例',
    product: '品种',
    productPlaceholder: '选择品种',
    add: '添加品种',
    remove: (product: string) => `删除 ${product}`,
    removeShort: '删除',
    saved: '保证金设置已保存',
    failed: (message: string) => `保证金设置保存失败：${message}`,
    loadFailed: '保证金设置加载失败',
    existingNote: '修改只影响之后新建的合同，已有合同的比例不变',
    zeroCompanyConfirm: '确认公司默认不收保证金',
  },
  values: {
    title: '合同价值与浮动盈亏',
    subtitle:
      '已点价未结算的手数：按点价价格（期货成交均价 + 基差）与按市价（期货最新价 + 基差）计值，不论是否收保证金',
    customersTitle: '客户合计',
    customer: '客户',
    contract: '合同',
    rate: '保证金',
    openLots: '未结算',
    fixedPrice: '点价价格',
    marketPrice: '市价',
    pnlPerUnit: '浮动盈亏/单位',
    fixedValue: '点价货值',
    marketValue: '市值',
    pnl: '浮动盈亏',
    noQuote: '暂无行情',
    unpriced: (n: number) => `${n} 份合同暂无行情，按点价货值计`,
    empty: '暂无合同',
    loadFailed: (message: string) => `合同价值加载失败：${message}`,
    perUnit: (unit: string | null) => `元/${unit ?? '单位'}`,
    tableLabel: '合同价值',
    customersLabel: '客户价值合计',
  },
  desk: {
    title: '持仓价值',
    openLots: '已点价未结算',
    fixedValue: '点价货值',
    marketValue: '市值',
    pnl: '浮动盈亏',
    none: '尚未点价',
  },
  confirm: {
    rate: '保证金比例',
    none: '不收保证金',
  },
} as const;
