import { MSG_SUBSCRIBE_CANCELLED, MSG_SUBSCRIBE_FAILED, createWsError } from './errors';
import type { Requests } from './requests';
import type { WsLogger } from './types';

export type ViewCallback<T = unknown> = (data: T) => void;

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

/**
 * The subscribed views (SPEC §7 subscribe_view / unsubscribe_view): queued while disconnected,
 * subscribed again after a reconnect, and fed with what peek_message returns for them.
 */
export class Views {
  private readonly views = new Map<string, ViewEntry>();

  constructor(
    private readonly requests: Requests,
    private readonly isOpen: () => boolean,
    private readonly logger: WsLogger,
  ) {}

  has(viewId: string): boolean {
    return this.views.has(viewId);
  }

  ids(): string[] {
    return [...this.views.keys()];
  }

  subscribe<T = unknown>(
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

  unsubscribe(viewId: string): Promise<void> {
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
      this.requests.send(
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

  /** A new connection: send the queued subscriptions, then subscribe the confirmed views again. */
  resend(): void {
    for (const entry of [...this.views.values()]) {
      if (entry.status === 'queued') this.sendSubscribe(entry);
    }
    for (const entry of [...this.views.values()]) {
      if (entry.status === 'active') this.sendSubscribe(entry);
    }
  }

  /** Fails the first subscriptions still waiting for a connection. */
  rejectQueued(message: string): void {
    for (const entry of [...this.views.values()]) {
      if (entry.status !== 'queued' || !entry.settle) continue;
      this.views.delete(entry.viewId);
      const settle = entry.settle;
      entry.settle = undefined;
      settle.reject(createWsError(message, { reason: 'closed', aid: 'subscribe_view' }));
    }
  }

  /** A peek reply: data keyed by view id, each entry to that view's callback. */
  deliverPeek(data: unknown): void {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
    for (const [viewId, viewData] of Object.entries(data)) {
      const entry = this.views.get(viewId);
      if (entry && entry.status !== 'queued') this.deliver(entry, viewData);
    }
  }

  private sendSubscribe(entry: ViewEntry): void {
    const isInitial = entry.settle !== undefined;
    entry.status = 'pending';
    this.requests.send(
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

  private deliver(entry: ViewEntry, data: unknown): void {
    try {
      entry.onData(data);
    } catch (err) {
      this.logger.error(`[ws-core] 视图 ${entry.viewId} 的数据回调出错`, err);
    }
  }
}
