/** The customer's legal identity and desk settings (issue 29): the trader's dialogs and list. */
export const customers = {
  fullName: '客户全称',
  fullNamePlaceholder: '选填，合同与确认单上的法定名称，如 江南饲料科技有限公司',
  contactName: '联系人',
  contactNamePlaceholder: '选填，如 王经理',
  confirmBeforeFix: '点价前确认',
  confirmBeforeFixHelp: '开启时，客户每次点价（市价、限价、条件单）前都先看到确认单再发送。仅对熟悉业务的客户关闭。',
  confirmOn: '开启',
  confirmOff: '已关闭',
  editTitle: (username: string) => `编辑客户 ${username}`,
  save: '保存',
  saving: '保存中…',
  cancel: '取消',
  saved: '客户资料已保存',
  saveFailed: (reason: string) => `保存失败：${reason}`,
  unchanged: '没有修改',
} as const;
