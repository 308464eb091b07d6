/** UI strings: shell. */
export const shell = {
  loadingApp: '正在加载应用...',
  verifyingIdentity: '正在验证身份...',
  redirectingToLogin: '正在跳转到登录页...',
  close: '关闭',
  /** The toaster's region; Alt+T moves the focus there (SPEC §9). */
  notifications: '通知 Alt+T',
  togglePassword: '显示或隐藏密码',
} as const;
