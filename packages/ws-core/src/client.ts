import { decodeReply } from './decode';
import { MSG_SUBSCRIBE_FAILED } from './errors';
import { PeekLoop } from './peek';
import { Requests } from './requests';
import { interveneTask, startTask } from './tasks';
import { Transport, type StateListener } from './transport';
import type { WebSocketConstructor, WsLogger, WsState } from './types';
import { Views, type ViewCallback } from './views';

export type { StateListener } from './transport';
export type { ViewCallback } from './views';

export interface WsClientOptions {
  /** 例如 `wss://host/ws` 或 `ws://host/ws?app=vol`。 */
  url: string;
  /** 作为 `?token=` 附加；传函数时每次（重新）连接都会重新取值。 */
  token?: string | null | (() => string | null | undefined);
  /** WebSocket 实现；浏览器默认 globalThis.WebSocket，Node 中传入 `ws` 包的 WebSocket。 */
  WebSocketImpl?: WebSocketConstructor;
  /** 每次 peek 回复后等待多久再发下一次 peek，默认 100ms。 */
  peekDelayMs?: number;
  /** 设置后改为按固定间隔 peek（例如波动率应用用 2000），同一时刻最多一个 peek 在途。 */
  peekIntervalMs?: number;
  /** 最大连续重连次数，默认 10。 */
  maxReconnectAttempts?: number;
  /** 请求超时，默认 10000ms；0 表示不超时。peek_message 不受此限制（服务端可能长轮询）。 */
  requestTimeoutMs?: number;
  /** 重连退避基数，默认 1000ms：等待 min(base × 2^attempt, reconnectMaxMs)。 */
  reconnectBaseMs?: number;
  /** 重连等待上限，默认 30000ms。 */
  reconnectMaxMs?: number;
  logger?: WsLogger;
}

export interface WsClient {
  readonly state: WsState;
  /** 订阅状态变化，返回取消订阅函数。 */
  onStateChange(listener: StateListener): () => void;
  connect(): void;
  /** 主动关闭：不再重连，拒绝所有在途请求与排队中的订阅。已确认的视图会在下次 connect() 时重新订阅。 */
  close(): void;
  /**
   * 订阅视图，返回初始数据。之后 peek 到的该视图数据会推给 onData；
   * 断线重连后重新订阅得到的数据也会推给 onData。
   */
  subscribeView<T = unknown>(
    viewId: string,
    viewName: string,
    params: Record<string, unknown> | undefined,
    onData: ViewCallback<T>,
  ): Promise<T | undefined>;
  /** 取消订阅；从不拒绝（失败只记录日志）。 */
  unsubscribeView(viewId: string): Promise<void>;
  hasView(viewId: string): boolean;
  viewIds(): string[];
  request<T = unknown>(aid: string, payload?: Record<string, unknown>): Promise<T>;
  /** 启动任务，返回 task_id。 */
  startTask(taskName: string, params?: Record<string, unknown>): Promise<string>;
  interveneTask<T = unknown>(taskId: string, intervention: string, params?: Record<string, unknown>): Promise<T>;
}

/**
 * The client wires four parts together: the transport (socket, state, reconnect), request
 * correlation by req_id, the subscribed views with their peek loop, and the task calls.
 */
export function createWsClient(opts: WsClientOptions): WsClient {
  const logger = opts.logger ?? console;
  const peekIntervalMs = opts.peekIntervalMs !== undefined && opts.peekIntervalMs > 0 ? opts.peekIntervalMs : undefined;

  // The parts refer to each other through these closures; all are assigned before any socket opens.
  const isOpen = () => transport.isOpen();
  const requests: Requests = new Requests(
    { isOpen, send: (text) => transport.send(text) },
    logger,
    opts.requestTimeoutMs ?? 10000,
  );
  const views = new Views(requests, isOpen, logger);
  const peek = new PeekLoop(
    requests,
    isOpen,
    (data) => views.deliverPeek(data),
    logger,
    opts.peekDelayMs ?? 100,
    peekIntervalMs,
  );
  const transport: Transport = new Transport(
    {
      url: opts.url,
      token: opts.token,
      WebSocketImpl: opts.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket,
      maxReconnectAttempts: opts.maxReconnectAttempts ?? 10,
      reconnectBaseMs: opts.reconnectBaseMs ?? 1000,
      reconnectMaxMs: opts.reconnectMaxMs ?? 30000,
      logger,
    },
    {
      opened: () => {
        views.resend();
        peek.start();
      },
      message: (raw) => {
        const reply = decodeReply(raw, logger);
        if (reply) requests.settle(reply);
      },
      down: () => {
        peek.stop();
        requests.failAll();
      },
      stopped: () => views.rejectQueued(MSG_SUBSCRIBE_FAILED),
      gaveUp: () => views.rejectQueued(MSG_SUBSCRIBE_FAILED),
    },
  );

  return {
    get state() {
      return transport.state;
    },
    onStateChange: (listener) => transport.onStateChange(listener),
    connect: () => transport.connect(),
    close: () => transport.close(),
    subscribeView: (viewId, viewName, params, onData) => views.subscribe(viewId, viewName, params, onData),
    unsubscribeView: (viewId) => views.unsubscribe(viewId),
    hasView: (viewId) => views.has(viewId),
    viewIds: () => views.ids(),
    request: (aid, payload) => requests.request(aid, payload),
    startTask: (taskName, params) => startTask(requests, taskName, params),
    interveneTask: (taskId, intervention, params) => interveneTask(requests, taskId, intervention, params),
  };
}
