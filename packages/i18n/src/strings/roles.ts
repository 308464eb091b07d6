/** Staff and roles, maker-checker approvals (issue 42, docs/roles.md). */
const labels: Record<string, string> = {
  admin: '管理员',
  trader: '交易员',
  risk: '风控',
  finance: '财务',
  viewer: '只读',
};
const roleList = (roles: readonly string[]) => roles.map((r) => labels[r] ?? r).join('、');

export const roles = {
  labels,
  roleList,
  /** What each role does, as the staff page explains it. */
  duties: {
    admin: '员工、系统配置、通知推送、复核规则',
    trader: '客户、合同、报价、撤单',
    risk: '复核申请、授信额度、保证金比例、解除锁定',
    finance: '出入金、结算交货',
    viewer: '审计日志、报表（只读）',
  } as Record<string, string>,
  /** The server's 403 for a call the caller's roles may not make. */
  refused: (needed: readonly string[], mine: readonly string[]) =>
    `此操作需要「${roleList(needed)}」角色，您的角色是「${mine.length ? roleList(mine) : '无'}」`,
  disabled: '您的员工账户已停用，请联系管理员',
  staff: {
    nav: '员工与角色',
    title: '员工与角色',
    subtitle: '每位员工只能执行其角色允许的操作；角色修改立即生效',
    add: '新增员工',
    columns: { name: '姓名', username: '用户名', roles: '角色', status: '状态', actions: '操作' },
    active: '在职',
    disabled: '已停用',
    edit: '修改角色',
    disable: '停用',
    enable: '启用',
    disableConfirm: (name: string) =>
      `停用员工「${name}」？停用后其登录立即失效，无法再执行任何操作；其已提交的复核申请仍待处理。`,
    form: {
      title: '新增员工',
      editTitle: (name: string) => `修改角色 · ${name}`,
      username: '用户名',
      password: '初始密码',
      passwordHint: '至少 8 个字符；员工用此用户名和密码登录控制台',
      fullName: '姓名',
      roles: '角色',
      save: '保存',
      cancel: '取消',
    },
    created: (name: string) => `已新增员工「${name}」`,
    updated: (name: string) => `已更新员工「${name}」`,
    usernameTaken: '用户名已存在',
    notFound: '员工不存在',
    lastAdmin: '公司至少需要一位在职的管理员',
    self: '不能停用自己的账户',
  },
  policy: {
    title: '复核规则（双人复核）',
    subtitle: '勾选的操作提交后须由另一位风控复核通过才生效；公司没有第二位风控时直接生效',
    actions: {
      'record-funds': '出入金与调整（超过金额阈值）',
      'set-credit-line': '修改授信额度',
      'settle-lots': '结算交货',
      'unlock-pricer': '解除客户登录锁定',
      'update-pricer-status': '重新启用客户',
      'create-contract': '新建合同（超过手数阈值）',
      'roll-contract': '直接转月（线下约定的转月）',
      'settle-fee': '减免费用',
    } as Record<string, string>,
    fundsAmount: '出入金阈值（元）',
    contractQuantity: '合同手数阈值（手）',
    save: '保存复核规则',
    saved: '复核规则已保存',
    noChecker: '当前没有第二位风控：需复核的操作将直接生效',
  },
  approvals: {
    nav: '复核',
    title: '复核申请',
    subtitle: '他人提交、需要您复核的操作；复核通过后立即生效且只生效一次',
    pending: '待复核',
    history: '已处理',
    empty: '暂无待复核的申请',
    columns: {
      action: '操作',
      subject: '对象',
      change: '变更',
      maker: '提交人',
      createdAt: '提交时间',
      status: '状态',
      checker: '复核人',
      actions: '操作',
    },
    statuses: { pending: '待复核', approved: '已通过', rejected: '已驳回', failed: '未能生效' } as Record<
      string,
      string
    >,
    approve: '通过',
    reject: '驳回',
    approveConfirm: (action: string, subject: string) =>
      `复核通过「${action} · ${subject}」？通过后该操作立即生效，不可撤销。`,
    rejectReason: '驳回理由',
    approved: '已复核通过，操作已生效',
    rejected: '已驳回',
    own: '本人提交',
    submitted: (id: number) => `已提交复核申请（编号 ${id}），须另一位风控复核通过后生效`,
    /** Server refusals. */
    selfApproval: '不能复核自己提交的申请',
    notFound: '复核申请不存在',
    decided: '该申请已处理，不能重复复核',
    stale: '申请提交后对象已变更，申请已失效，请重新提交',
    noChecker: '公司没有第二位风控，无法复核',
    /** The maker's notification. */
    noticeApproved: (action: string, subject: string) => `您提交的「${action} · ${subject}」已复核通过并生效`,
    noticeRejected: (action: string, subject: string, reason: string) =>
      `您提交的「${action} · ${subject}」被驳回：${reason}`,
    before: '变更前',
    after: '变更后',
    /** The figures a request changes, as the inbox shows them. */
    fields: {
      balance: '资金余额',
      credit_line: '授信额度',
      settled_quantity: '已结算',
      status: '状态',
      locked: '登录锁定',
      total_quantity: '总数量',
      remaining_quantity: '未点价',
      to_instrument_id: '转入期货合约',
      spread: '月差',
      fee_open: '应收费用',
    } as Record<string, string>,
    units: {
      balance: '元',
      credit_line: '元',
      settled_quantity: '手',
      total_quantity: '手',
      remaining_quantity: '手',
      fee_open: '元',
    } as Record<string, string>,
    values: { active: '正常', inactive: '已停用', pending: '待激活', true: '是', false: '否' } as Record<
      string,
      string
    >,
    funds: (kind: string, amount: string, bankRef: string | null) =>
      `${kind} ${amount} 元${bankRef ? ` · 银行流水号 ${bankRef}` : ''}`,
    reasonOf: (reason: string) => `原因：${reason}`,
    decidedBy: (name: string) => `复核人：${name}`,
    madeBy: (name: string, at: string) => `${name} 提交于 ${at}`,
    cancel: '取消',
    loadFailed: (message: string) => `复核申请加载失败：${message}`,
    failed: (message: string) => `复核失败：${message}`,
    badge: (n: number) => `${n} 条待复核`,
  },
  ledger: { bankRef: '银行流水号', maker: '经办人', checker: '复核人', bankRefRequired: '请填写银行流水号' },
} as const;
