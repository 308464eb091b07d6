/** UI strings: errors. */
export const errors = {
  requestFailed: '请求失败',
  subscribeFailed: '视图订阅失败',
  unauthorized: '未授权访问',
  authFailed: (body: string) => `认证失败: ${body}`,
} as const;
