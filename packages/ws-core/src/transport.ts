import { reconnectDelay } from './backoff';
import type { WebSocketConstructor, WebSocketLike, WsLogger, WsState } from './types';
import { buildWsUrl } from './url';

const WS_OPEN = 1;

export type StateListener = (state: WsState, prev: WsState) => void;

export interface TransportOptions {
  url: string;
  token: string | null | undefined | (() => string | null | undefined);
  WebSocketImpl: WebSocketConstructor | undefined;
  maxReconnectAttempts: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  logger: WsLogger;
}

/** What the layers above hear from the socket, in this order around each state change. */
export interface TransportEvents {
  /** The socket is open and the state is already 'connected'. */
  opened(): void;
  message(raw: unknown): void;
  /** The socket is gone (any reason), before the state changes: fail what was in flight. */
  down(): void;
  /** close() was called: after down(), before the state becomes 'disconnected'. */
  stopped(): void;
  /** The reconnect attempts ran out: after the state became 'disconnected'. */
  gaveUp(): void;
}

function noop(): void {}

/**
 * One WebSocket at a time, its state, and reconnecting with exponential backoff
 * (SPEC §9: at most 10 attempts, 2^attempt × 1000 ms capped at 30000 ms).
 */
export class Transport {
  private _state: WsState = 'disconnected';
  private readonly listeners = new Set<StateListener>();
  private ws: WebSocketLike | null = null;
  private explicitlyClosed = false;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly opts: TransportOptions,
    private readonly events: TransportEvents,
  ) {}

  get state(): WsState {
    return this._state;
  }

  onStateChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  isOpen(): boolean {
    return this._state === 'connected' && this.ws !== null && this.ws.readyState === WS_OPEN;
  }

  /** Sends one frame; throws when the socket refuses it. */
  send(text: string): void {
    if (!this.ws) throw new Error('no socket');
    this.ws.send(text);
  }

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
        this.opts.logger.warn('[ws-core] 关闭 WebSocket 出错', err);
      }
    }
    this.events.down();
    this.events.stopped();
    this.setState('disconnected');
  }

  private setState(next: WsState): void {
    const prev = this._state;
    if (prev === next) return;
    this._state = next;
    for (const l of [...this.listeners]) {
      try {
        l(next, prev);
      } catch (err) {
        this.opts.logger.error('[ws-core] onStateChange 回调出错', err);
      }
    }
  }

  private resolveToken(): string | null | undefined {
    const t = this.opts.token;
    return typeof t === 'function' ? t() : t;
  }

  private openSocket(): void {
    const Impl = this.opts.WebSocketImpl;
    if (!Impl) {
      throw new Error('当前环境没有可用的 WebSocket 实现，请通过 WebSocketImpl 传入');
    }
    this.setState('connecting');
    let ws: WebSocketLike;
    try {
      ws = new Impl(buildWsUrl(this.opts.url, this.resolveToken()));
    } catch (err) {
      this.opts.logger.error('[ws-core] 创建 WebSocket 失败', err);
      this.handleDisconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempts = 0;
      this.setState('connected');
      this.events.opened();
    };
    ws.onmessage = (event: { data?: unknown }) => {
      if (ws === this.ws) this.events.message(event?.data);
    };
    ws.onerror = (event: { message?: unknown; error?: unknown }) => {
      if (ws !== this.ws) return;
      const detail = event?.message ?? event?.error ?? '';
      this.opts.logger.warn('[ws-core] WebSocket 错误', detail);
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

  /** 连接断开（非主动关闭）：通知上层并按退避策略安排重连。 */
  private handleDisconnect(): void {
    this.events.down();
    this.setState('disconnected');
    if (this.explicitlyClosed) return;
    const max = this.opts.maxReconnectAttempts;
    if (this.attempts >= max) {
      this.opts.logger.error(`[ws-core] WebSocket 重连失败，已达到最大重试次数 ${max}`);
      this.events.gaveUp();
      return;
    }
    const delay = reconnectDelay(this.attempts, this.opts.reconnectBaseMs, this.opts.reconnectMaxMs);
    this.attempts++;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.explicitlyClosed) return;
      this.openSocket();
    }, delay);
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer !== undefined) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
    }
  }
}
