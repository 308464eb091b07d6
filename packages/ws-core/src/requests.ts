import { MSG_NOT_CONNECTED, MSG_REQUEST_FAILED, createWsError, type WsError } from './errors';
import type { WsLogger, WsReply } from './types';

/** The socket as the request layer sees it. */
export interface Outbox {
  isOpen(): boolean;
  /** Throws when the frame cannot be sent. */
  send(text: string): void;
}

interface PendingRequest {
  aid: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve: (data: unknown) => void;
  reject: (err: WsError) => void;
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

/**
 * Request correlation (SPEC §7): every request carries a unique req_id and is settled by the
 * reply with the same req_id, by its timeout, or by the connection going away.
 */
export class Requests {
  private readonly pending = new Map<string, PendingRequest>();
  private readonly reqPrefix = Math.random().toString(36).slice(2, 10) + '-';
  private seq = 0;

  constructor(
    private readonly outbox: Outbox,
    private readonly logger: WsLogger,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Sends a request; the callbacks run synchronously when it fails at once (not connected, send
   * failed), so callers keep a consistent state while the connection closes.
   */
  send(
    aid: string,
    payload: Record<string, unknown>,
    resolve: (data: unknown) => void,
    reject: (err: WsError) => void,
    timeoutMs: number = this.timeoutMs,
  ): void {
    if (!this.outbox.isOpen()) {
      reject(createWsError(MSG_NOT_CONNECTED, { reason: 'not_connected', aid }));
      return;
    }
    this.seq++;
    const reqId = this.reqPrefix + this.seq;
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
      this.outbox.send(JSON.stringify({ ...payload, aid, req_id: reqId }));
    } catch (err) {
      this.pending.delete(reqId);
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      this.logger.warn('[ws-core] 发送失败', err);
      reject(createWsError(MSG_REQUEST_FAILED, { reason: 'send_failed', aid, reqId }));
    }
  }

  request<T = unknown>(aid: string, payload: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.send(aid, payload, (data) => resolve(data as T), reject);
    });
  }

  /** Settles the request the reply answers; replies to nothing known are ignored. */
  settle(reply: WsReply): void {
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

  /** The connection went away: every request in flight fails with 请求失败. */
  failAll(): void {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    for (const [reqId, p] of entries) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      p.reject(createWsError(MSG_REQUEST_FAILED, { reason: 'closed', aid: p.aid, reqId }));
    }
  }
}
