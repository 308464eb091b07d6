export type WsErrorReason = 'server' | 'closed' | 'timeout' | 'not_connected' | 'send_failed';

export interface WsErrorInfo {
  /** 失败原因：服务端返回错误 / 连接关闭 / 超时 / 未连接 / 发送失败。 */
  reason: WsErrorReason;
  aid: string;
  reqId?: string | undefined;
  /** 服务端返回的错误文本（仅 reason === 'server' 且服务端给出文本时）。 */
  serverMessage?: string | undefined;
  /** 服务端返回的错误码（若有）。 */
  code?: string | undefined;
}

/**
 * ws-core 拒绝 Promise 时使用的错误：就是普通的 `Error`（message 为中文说明），
 * 额外挂了不可枚举的元信息字段，可用 {@link isWsError} 判断后读取。
 */
export type WsError = Error & Readonly<WsErrorInfo>;

export function createWsError(message: string, info: WsErrorInfo): WsError {
  const err = new Error(message);
  for (const [key, value] of Object.entries(info)) {
    Object.defineProperty(err, key, { value, enumerable: false, writable: false, configurable: true });
  }
  return err as WsError;
}

export function isWsError(err: unknown): err is WsError {
  return err instanceof Error && typeof (err as Partial<WsErrorInfo>).reason === 'string';
}

export const MSG_NOT_CONNECTED = 'WebSocket is not connected.';
export const MSG_REQUEST_FAILED = '请求失败';
export const MSG_SUBSCRIBE_FAILED = '视图订阅失败';
export const MSG_SUBSCRIBE_CANCELLED = '视图订阅已取消';
export const MSG_MISSING_TASK_ID = 'startTask 响应中缺少 "task_id"';
