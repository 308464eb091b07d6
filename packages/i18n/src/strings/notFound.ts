/** UI strings: notFound. */
export const notFound = {
  code: '404',
  title: '页面未找到',
  message: '抱歉，您访问的页面不存在。',
  pathLabel: '访问路径：',
  backHome: '返回首页',
  backPrevious: '返回上一页',
  causesTitle: '可能的原因：',
  causes: ['网址输入错误', '页面已被移动或删除', '链接已过期', '您没有访问权限'],
} as const;
