export { createWsClient, type WsClient, type WsClientOptions, type ViewCallback, type StateListener } from './client';
export { reconnectDelay } from './backoff';
export { buildWsUrl } from './url';
export {
  createWsError,
  isWsError,
  MSG_NOT_CONNECTED,
  MSG_REQUEST_FAILED,
  MSG_SUBSCRIBE_FAILED,
  MSG_SUBSCRIBE_CANCELLED,
  MSG_MISSING_TASK_ID,
  type WsErrorReason,
  type WsError,
  type WsErrorInfo,
} from './errors';
export type { WsState, WsLogger, WebSocketLike, WebSocketConstructor, WsReply } from './types';
