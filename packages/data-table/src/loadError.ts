/**
 * 表格加载失败时，标题“数据加载失败”下面显示的说明：服务端的中文 error.message（HttpError 的
 * serverMessage），或本身就是中文的错误说明。传输层的英文原文（“HTTP error! status: …, body: {…}”、
 * “Failed to fetch”）不显示给用户。
 */
export function loadErrorDetail(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const server = (error as { serverMessage?: unknown }).serverMessage;
  if (typeof server === 'string' && server.trim() !== '') return server.trim();
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && /[\u4e00-\u9fff]/.test(message) && !message.startsWith('HTTP error!')) {
    return message.trim();
  }
  return null;
}
