export type WsState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

export interface WsLogger {
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  info?(...args: unknown[]): void;
  debug?(...args: unknown[]): void;
}

/**
 * 浏览器 WebSocket 与 Node `ws` 包都满足的最小结构。
 * 事件参数用 any，以便两者的事件类型都能赋值进来。
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /* eslint-disable @typescript-eslint/no-explicit-any */
  onopen: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
  onmessage: ((event: any) => void) | null;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** 服务端回复：带相同 req_id，成功时有 result/data，失败时有 error。 */
export interface WsReply {
  req_id?: string;
  aid?: string;
  result?: unknown;
  data?: unknown;
  error?: string | { message?: string; code?: string } | null;
}
