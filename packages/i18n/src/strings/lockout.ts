/** The trader unlocks a customer locked out by failed logins (issue 30): the row button and its confirmation. */
export const lockout = {
  unlock: '解锁',
  title: (username: string) => `解除登录锁定：${username}`,
  body: '该客户（或他人以该客户的用户名）多次输错密码后，登录会被暂停。解除后，所有地址上记录的失败次数全部清除，客户可立即用现有密码登录。',
  caution: '如怀疑有人在猜测密码，请改用“重置密码”：新密码同样会解除锁定。',
  cancel: '取消',
  confirm: '解除锁定',
  unlocking: '解除中...',
} as const;
