/** 授权点价人 (issue 43 item 4, docs/authorised-pricers.md): the console's list and dialogs, the desk's line. */
export const authorisedPricers = {
  rowAction: '点价人',
  rowActionLabel: (customer: string) => `授权点价人 ${customer}`,
  title: (customer: string) => `授权点价人 · ${customer}`,
  intro:
    '只有授权中的点价人可以为该客户点价、下条件单；每人用自己的登录账号登录点价端，确认单和审计日志记下是谁点的价。',
  loading: '正在读取授权点价人…',
  loadFailed: (reason: string) => `读取授权点价人失败：${reason}`,
  empty: '还没有授权点价人：该客户现在不能点价。',
  primary: '客户首个登录',
  active: '授权中',
  inactive: '已停用',
  idTypes: {
    id_card: '身份证',
    passport: '护照',
    hk_macau_permit: '港澳居民来往内地通行证',
    taiwan_permit: '台湾居民来往大陆通行证',
    other: '其他证件',
  } as Record<string, string>,
  idLine: (type: string | null, last4: string | null) =>
    type && last4 ? `${type} 尾号 ${last4}` : type ? type : '证件未登记',
  phoneLine: (phone: string | null) => (phone ? `手机 ${phone}` : '手机未登记'),
  loginLine: (username: string) => `登录账号 ${username}`,
  waiting: (n: number) => `等待中的条件单 ${n} 张`,
  add: '新增授权点价人',
  edit: '编辑',
  deactivate: '停用',
  resetPassword: '重置密码',
  /** What the reset does (the customer's 重置密码's rule: the same call behind both). */
  resetEffect: (name: string, username: string) =>
    `重置后，${name}（登录账号 ${username}）须用新密码登录，其当前登录的点价端会立即退出；客户和其他点价人不受影响。`,
  resetPrimaryEffect:
    '这是客户自己的登录账号，其密码就是客户的密码：与「客户管理 → 重置密码」相同，重置后该客户须用新密码登录，该客户（含各授权点价人）当前登录的点价端都会立即退出。',
  reactivate: '恢复',
  close: '完成',
  back: '返回列表',
  form: {
    name: '姓名',
    namePlaceholder: '如 赵敏',
    idType: '证件类型',
    idLast4: '证件号后 4 位',
    idLast4Placeholder: '只填后 4 位，如 123X',
    idLast4Help: '系统只保存证件号后 4 位，请勿填写完整证件号。',
    phone: '手机号',
    phonePlaceholder: '如 13800138000',
    username: '登录账号',
    usernamePlaceholder: '点价端登录用，如 acme-zhao',
    password: '初始密码',
    passwordPlaceholder: '至少 6 个字符，告知本人后请其登录',
    addEffect: (customer: string) =>
      `保存后，此人即可用该登录账号和初始密码登录点价端，为 ${customer} 点价、下条件单；确认单上写明点价人姓名。`,
    save: '保存',
    saving: '保存中…',
    cancel: '取消',
    unchanged: '没有修改',
  },
  added: (name: string) => `已新增授权点价人 ${name}`,
  saved: (name: string) => `已保存 ${name} 的资料`,
  saveFailed: (reason: string) => `保存失败：${reason}`,
  confirm: {
    deactivateTitle: (name: string) => `停用 ${name} 的点价授权？`,
    deactivateBody: (name: string, username: string) =>
      `停用后，${name}（登录账号 ${username}）不能再点价、下条件单，点价时会被拒绝。`,
    deactivateSession: '其本人登录的点价端会立即退出，且不能再登录。',
    deactivatePrimary: '这是客户自己的登录账号：停用授权后仍可登录查看合同与确认单，但不能点价。',
    deactivateConditionals: (n: number) =>
      n > 0
        ? `其已下的 ${n} 张等待中的条件单保留，触发后仍会照常点价；如需撤销，请到「条件单」页撤销。`
        : '其没有等待中的条件单。',
    reactivateTitle: (name: string) => `恢复 ${name} 的点价授权？`,
    reactivateBody: (name: string, username: string) =>
      `恢复后，${name} 可以重新用登录账号 ${username} 登录并点价、下条件单。`,
    confirmDeactivate: '确认停用',
    confirmReactivate: '确认恢复',
    updating: '处理中…',
    cancel: '取消',
  },
  deactivated: (name: string) => `已停用 ${name} 的点价授权`,
  reactivated: (name: string) => `已恢复 ${name} 的点价授权`,
  statusFailed: (reason: string) => `操作失败：${reason}`,
  /** The desk: who is signed in. */
  desk: {
    signedIn: (name: string) => `点价人：${name}`,
    notAuthorised: '当前登录账号不是本公司的授权点价人，不能点价。请联系贸易商。',
  },
  /** A confirmation's row. */
  fixedBy: '点价人',
  orderedAt: '委托时间',
  /** The audit log's actions and fields. */
  audit: {
    actions: {
      'add-authorised-pricer': '新增授权点价人',
      'update-authorised-pricer': '修改授权点价人',
      'deactivate-authorised-pricer': '停用授权点价人',
      'reactivate-authorised-pricer': '恢复授权点价人',
      'reset-authorised-pricer-password': '重置授权点价人密码',
    } as Record<string, string>,
    fields: {
      name: '姓名',
      id_type: '证件类型',
      id_last4: '证件号后 4 位',
      live_conditionals: '保留的条件单',
    } as Record<string, string>,
  },
} as const;
