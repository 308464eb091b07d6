/** UI strings: shell. */
export const shell = {
  loadingApp: '正在加载应用...',
  verifyingIdentity: '正在验证身份...',
  redirectingToLogin: '正在跳转到登录页...',
  close: '关闭',
} as const;
