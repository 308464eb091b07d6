import { reconnectDelay } from './backoff';
import {
  MSG_MISSING_TASK_ID,
  MSG_NOT_CONNECTED,
  MSG_REQUEST_FAILED,
  MSG_SUBSCRIBE_CANCELLED,
  MSG_SUBSCRIBE_FAILED,
  createWsError,
  type WsError,
} from './errors';
import type { WebSocketConstructor, WebSocketLike, WsLogger, WsReply, WsState } from './types';
import { buildWsUrl } from './url';

const WS_OPEN = 1;

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

export type ViewCallback<T = unknown> = (data: T) => void;
export type StateListener = (state: WsState, prev: WsState) => void;

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

interface PendingRequest {
  aid: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve: (data: unknown) => void;
  reject: (err: WsError) => void;
}

type ViewStatus = 'queued' | 'pending' | 'active';

interface ViewEntry {
  viewId: string;
  viewName: string;
  params: Record<string, unknown>;
  onData: ViewCallback<unknown>;
  status: ViewStatus;
  /** 首次订阅的 Promise 回调；首次订阅完成后清空。 */
  settle: { resolve: (data: unknown) => void; reject: (err: Error) => void } | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function replyErrorText(msg: WsReply): string | undefined {
  const err = msg.error;
  if (typeof err === 'string') return err || undefined;
  if (isRecord(err) && typeof err.message === 'string' && err.message) return err.message;
  return undefined;
}

function isErrorReply(msg: WsReply): boolean {
  const err: unknown = msg.error;
  return (err !== undefined && err !== null && err !== false && err !== '') || msg.result === 'error';
}

function decodeData(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(data as ArrayBuffer);
  }
  if (Array.isArray(data)) {
    // ws 的分片 Buffer[]
    const parts = data.filter((d): d is Uint8Array => d instanceof Uint8Array);
    const total = parts.reduce((n, p) => n + p.byteLength, 0);
    const buf = new Uint8Array(total);
    let off = 0;
    for (const p of parts) {
      buf.set(p, off);
      off += p.byteLength;
    }
    return new TextDecoder().decode(buf);
  }
  return undefined;
}

function noop(): void {}

class WsClientImpl implements WsClient {
  private readonly url: string;
  private readonly tokenOpt: WsClientOptions['token'];
  private readonly Impl: WebSocketConstructor | undefined;
  private readonly peekDelayMs: number;
  private readonly peekIntervalMs: number | undefined;
  private readonly maxReconnectAttempts: number;
  private readonly requestTimeoutMs: number;
  private readonly reconnectBaseMs: number;
  private readonly reconnectMaxMs: number;
  private readonly logger: WsLogger;

  private _state: WsState = 'disconnected';
  private readonly listeners = new Set<StateListener>();
  private ws: WebSocketLike | null = null;
  private explicitlyClosed = false;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** 每次连接打开/断开递增，用于丢弃过期的回调。 */
  private generation = 0;

  private readonly pending = new Map<string, PendingRequest>();
  private readonly reqPrefix = Math.random().toString(36).slice(2, 10) + '-';
  private seq = 0;

  private readonly views = new Map<string, ViewEntry>();

  private peekInFlight = false;
  private peekTimeout: ReturnType<typeof setTimeout> | undefined;
  private peekInterval: ReturnType<typeof setInterval> | undefined;

  constructor(opts: WsClientOptions) {
    this.url = opts.url;
    this.tokenOpt = opts.token;
    this.Impl = opts.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.peekDelayMs = opts.peekDelayMs ?? 100;
    this.peekIntervalMs =
      opts.peekIntervalMs !== undefined && opts.peekIntervalMs > 0 ? opts.peekIntervalMs : undefined;
    this.maxReconnectAttempts = opts.maxReconnectAttempts ?? 10;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 10000;
    this.reconnectBaseMs = opts.reconnectBaseMs ?? 1000;
    this.reconnectMaxMs = opts.reconnectMaxMs ?? 30000;
    this.logger = opts.logger ?? console;
  }

  // ---------------------------------------------------------------- state

  get state(): WsState {
    return this._state;
  }

  onStateChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private setState(next: WsState): void {
    const prev = this._state;
    if (prev === next) return;
    this._state = next;
    for (const l of [...this.listeners]) {
      try {
        l(next, prev);
      } catch (err) {
        this.logger.error('[ws-core] onStateChange 回调出错', err);
      }
    }
  }

  private isOpen(): boolean {
    return this._state === 'connected' && this.ws !== null && this.ws.readyState === WS_OPEN;
  }

  // ------------------------------------------------------------ lifecycle

  connect(): void {
    if (this._state === 'connected' || this._state === 'connecting') return;
    this.explicitlyClosed = false;
    this.clearReconnectTimer();
    this.attempts = 0;
    this.openSocket();
  }

  close(): void {
    this.explicitlyClosed = true;
    this.clearReconnectTimer();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      this.detach(ws);
      try {
        ws.close(1000, 'client closed');
      } catch (err) {
        this.logger.warn('[ws-core] 关闭 WebSocket 出错', err);
      }
    }
    this.teardownConnection();
    this.rejectQueuedSubscriptions(MSG_SUBSCRIBE_FAILED);
    this.setState('disconnected');
  }

  private resolveToken(): string | null | undefined {
    const t = this.tokenOpt;
    return typeof t === 'function' ? t() : t;
  }

  private openSocket(): void {
    const Impl = this.Impl;
    if (!Impl) {
      throw new Error('当前环境没有可用的 WebSocket 实现，请通过 WebSocketImpl 传入');
    }
    this.setState('connecting');
    let ws: WebSocketLike;
    try {
      ws = new Impl(buildWsUrl(this.url, this.resolveToken()));
    } catch (err) {
      this.logger.error('[ws-core] 创建 WebSocket 失败', err);
      this.handleDisconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws === this.ws) this.handleOpen();
    };
    ws.onmessage = (event: { data?: unknown }) => {
      if (ws === this.ws) this.handleMessage(event?.data);
    };
    ws.onerror = (event: { message?: unknown; error?: unknown }) => {
      if (ws !== this.ws) return;
      const detail = event?.message ?? event?.error ?? '';
      this.logger.warn('[ws-core] WebSocket 错误', detail);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.detach(ws);
      this.ws = null;
      this.handleDisconnect();
    };
  }

  private detach(ws: WebSocketLike): void {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    // 保留一个空的 error 处理器：Node `ws` 在握手中被关闭时会触发 error，
    // 没有监听器会变成未捕获异常。
    ws.onerror = noop;
  }

  private handleOpen(): void {
    this.generation++;
    this.attempts = 0;
    this.setState('connected');
    // 1) 发送排队中的订阅
    for (const entry of [...this.views.values()]) {
      if (entry.status === 'queued') this.sendSubscribe(entry);
    }
    // 2) 重新订阅已确认的视图
    for (const entry of [...this.views.values()]) {
      if (entry.status === 'active') this.sendSubscribe(entry);
    }
    // 3) 启动 peek 循环
    this.startPeekLoop();
  }

  /** 连接断开（非主动关闭）：拒绝在途请求并按退避策略安排重连。 */
  private handleDisconnect(): void {
    this.teardownConnection();
    if (this.explicitlyClosed) {
      this.setState('disconnected');
      return;
    }
    this.setState('disconnected');
    if (this.attempts >= this.maxReconnectAttempts) {
      this.logger.error(`[ws-core] WebSocket 重连失败，已达到最大重试次数 ${this.maxReconnectAttempts}`);
      this.rejectQueuedSubscriptions(MSG_SUBSCRIBE_FAILED);
      return;
    }
    const delay = reconnectDelay(this.attempts, this.reconnectBaseMs, this.reconnectMaxMs);
    this.attempts++;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.explicitlyClosed) return;
      this.openSocket();
    }, delay);
  }

  private teardownConnection(): void {
    this.generation++;
    this.stopPeekLoop();
    this.failAllPending();
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer !== undefined) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
    }
  }

  // ------------------------------------------------------------- requests

  private nextReqId(): string {
    this.seq++;
    return this.reqPrefix + this.seq;
  }

  /** 发送请求；回调同步触发，便于在关闭时保持状态一致。 */
  private send(
    aid: string,
    payload: Record<string, unknown>,
    resolve: (data: unknown) => void,
    reject: (err: WsError) => void,
    timeoutMs: number = this.requestTimeoutMs,
  ): void {
    const ws = this.ws;
    if (!ws || !this.isOpen()) {
      reject(createWsError(MSG_NOT_CONNECTED, { reason: 'not_connected', aid }));
      return;
    }
    const reqId = this.nextReqId();
    const entry: PendingRequest = { aid, timer: undefined, resolve, reject };
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      entry.timer = setTimeout(() => {
        if (this.pending.get(reqId) !== entry) return;
        this.pending.delete(reqId);
        reject(createWsError(`请求超时（${aid}）`, { reason: 'timeout', aid, reqId }));
      }, timeoutMs);
    }
    this.pending.set(reqId, entry);
    try {
      ws.send(JSON.stringify({ ...payload, aid, req_id: reqId }));
    } catch (err) {
      this.pending.delete(reqId);
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      this.logger.warn('[ws-core] 发送失败', err);
      reject(createWsError(MSG_REQUEST_FAILED, { reason: 'send_failed', aid, reqId }));
    }
  }

  private failAllPending(): void {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    for (const [reqId, p] of entries) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      p.reject(createWsError(MSG_REQUEST_FAILED, { reason: 'closed', aid: p.aid, reqId }));
    }
  }

  private handleMessage(raw: unknown): void {
    const text = decodeData(raw);
    if (text === undefined) {
      this.logger.warn('[ws-core] 无法识别的消息类型', raw);
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.logger.warn('[ws-core] 无法解析的消息', text.slice(0, 200));
      return;
    }
    if (!isRecord(msg)) return;
    const reply = msg as WsReply;
    const reqId = reply.req_id;
    if (typeof reqId !== 'string') {
      this.logger.debug?.('[ws-core] 忽略没有 req_id 的消息', reply);
      return;
    }
    const p = this.pending.get(reqId);
    if (!p) {
      this.logger.debug?.('[ws-core] 忽略未知 req_id 的回复', reqId);
      return;
    }
    this.pending.delete(reqId);
    if (p.timer !== undefined) clearTimeout(p.timer);
    if (isErrorReply(reply)) {
      const serverMessage = replyErrorText(reply);
      const code = isRecord(reply.error) && typeof reply.error.code === 'string' ? reply.error.code : undefined;
      p.reject(
        createWsError(serverMessage ?? MSG_REQUEST_FAILED, {
          reason: 'server',
          aid: p.aid,
          reqId,
          serverMessage,
          code,
        }),
      );
      return;
    }
    p.resolve('data' in reply ? reply.data : reply.result);
  }

  request<T = unknown>(aid: string, payload: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.send(aid, payload, (data) => resolve(data as T), reject);
    });
  }

  async startTask(taskName: string, params: Record<string, unknown> = {}): Promise<string> {
    const data = await this.request<unknown>('start_task', { task_name: taskName, params });
    if (!isRecord(data) || typeof data.task_id !== 'string') {
      throw new Error(MSG_MISSING_TASK_ID);
    }
    return data.task_id;
  }

  interveneTask<T = unknown>(taskId: string, intervention: string, params?: Record<string, unknown>): Promise<T> {
    const inner: Record<string, unknown> = { task_id: taskId, intervention };
    if (params !== undefined) inner.params = params;
    return this.request<T>('intervene_task', { params: inner });
  }

  // ---------------------------------------------------------------- views

  hasView(viewId: string): boolean {
    return this.views.has(viewId);
  }

  viewIds(): string[] {
    return [...this.views.keys()];
  }

  subscribeView<T = unknown>(
    viewId: string,
    viewName: string,
    params: Record<string, unknown> | undefined,
    onData: ViewCallback<T>,
  ): Promise<T | undefined> {
    if (this.views.has(viewId)) {
      this.logger.warn(`[ws-core] 视图 ${viewId} 已订阅，忽略重复订阅`);
      return Promise.resolve(undefined);
    }
    return new Promise<T | undefined>((resolve, reject) => {
      const entry: ViewEntry = {
        viewId,
        viewName,
        params: params ?? {},
        onData: onData as ViewCallback<unknown>,
        status: 'queued',
        settle: { resolve: (d) => resolve(d as T), reject },
      };
      this.views.set(viewId, entry);
      if (this.isOpen()) this.sendSubscribe(entry);
    });
  }

  private sendSubscribe(entry: ViewEntry): void {
    const isInitial = entry.settle !== undefined;
    entry.status = 'pending';
    this.send(
      'subscribe_view',
      { ...entry.params, view_id: entry.viewId, view_name: entry.viewName },
      (data) => {
        const current = this.views.get(entry.viewId) === entry;
        if (current) entry.status = 'active';
        const settle = entry.settle;
        entry.settle = undefined;
        if (settle) {
          settle.resolve(data);
        } else if (current && data !== undefined && data !== null) {
          this.deliver(entry, data);
        }
      },
      (err) => {
        const current = this.views.get(entry.viewId) === entry;
        if (err.reason === 'closed' && current) {
          // 连接断开：保留订阅，重连后重发（首次订阅的 Promise 继续等待）。
          entry.status = isInitial ? 'queued' : 'active';
          return;
        }
        if (current) this.views.delete(entry.viewId);
        const message = err.reason === 'server' && err.serverMessage ? err.serverMessage : MSG_SUBSCRIBE_FAILED;
        const settle = entry.settle;
        entry.settle = undefined;
        if (settle) {
          settle.reject(
            createWsError(message, {
              reason: err.reason,
              aid: err.aid,
              reqId: err.reqId,
              serverMessage: err.serverMessage,
              code: err.code,
            }),
          );
        } else if (current) {
          this.logger.error(`[ws-core] 视图 ${entry.viewId} 重新订阅失败: ${message}`);
        }
      },
    );
  }

  private rejectQueuedSubscriptions(message: string): void {
    for (const entry of [...this.views.values()]) {
      if (entry.status !== 'queued' || !entry.settle) continue;
      this.views.delete(entry.viewId);
      const settle = entry.settle;
      entry.settle = undefined;
      settle.reject(createWsError(message, { reason: 'closed', aid: 'subscribe_view' }));
    }
  }

  unsubscribeView(viewId: string): Promise<void> {
    const entry = this.views.get(viewId);
    if (!entry) return Promise.resolve();
    this.views.delete(viewId);
    if (entry.status === 'queued') {
      // 尚未发送：直接取消
      const settle = entry.settle;
      entry.settle = undefined;
      settle?.reject(createWsError(MSG_SUBSCRIBE_CANCELLED, { reason: 'closed', aid: 'subscribe_view' }));
      return Promise.resolve();
    }
    if (!this.isOpen()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.send(
        'unsubscribe_view',
        { view_id: viewId },
        () => resolve(),
        (err) => {
          if (err.reason !== 'closed') {
            this.logger.warn(`[ws-core] 取消订阅视图 ${viewId} 失败: ${err.message}`);
          }
          resolve();
        },
      );
    });
  }

  private deliver(entry: ViewEntry, data: unknown): void {
    try {
      entry.onData(data);
    } catch (err) {
      this.logger.error(`[ws-core] 视图 ${entry.viewId} 的数据回调出错`, err);
    }
  }

  // ----------------------------------------------------------------- peek

  private startPeekLoop(): void {
    this.stopPeekLoop();
    this.sendPeek();
    if (this.peekIntervalMs !== undefined) {
      this.peekInterval = setInterval(() => this.sendPeek(), this.peekIntervalMs);
    }
  }

  private stopPeekLoop(): void {
    if (this.peekTimeout !== undefined) clearTimeout(this.peekTimeout);
    if (this.peekInterval !== undefined) clearInterval(this.peekInterval);
    this.peekTimeout = undefined;
    this.peekInterval = undefined;
    this.peekInFlight = false;
  }

  private sendPeek(): void {
    if (this.peekInFlight || !this.isOpen()) return;
    this.peekInFlight = true;
    const gen = this.generation;
    const after = () => {
      if (gen !== this.generation) return;
      this.peekInFlight = false;
      if (this.peekIntervalMs === undefined) {
        this.peekTimeout = setTimeout(() => {
          this.peekTimeout = undefined;
          this.sendPeek();
        }, this.peekDelayMs);
      }
    };
    this.send(
      'peek_message',
      {},
      (data) => {
        if (gen !== this.generation) return;
        if (isRecord(data)) {
          for (const [viewId, viewData] of Object.entries(data)) {
            const entry = this.views.get(viewId);
            if (entry && entry.status !== 'queued') this.deliver(entry, viewData);
          }
        }
        after();
      },
      (err) => {
        if (err.reason !== 'closed') this.logger.warn(`[ws-core] peek_message 失败: ${err.message}`);
        after();
      },
      0, // peek 可能被服务端长轮询挂起，不设超时
    );
  }
}

export function createWsClient(options: WsClientOptions): WsClient {
  return new WsClientImpl(options);
}
