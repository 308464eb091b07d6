import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { WsLimitsConfig } from '../config';

/**
 * What one WebSocket client may ask of the server (docs/security.md): without these, one
 * anonymous connection could subscribe thousands of option chains and slow every desk. Over a
 * limit the client gets an error reply in Chinese; the server carries on.
 */
export type WsLimits = WsLimitsConfig;

export const DEFAULT_WS_LIMITS: WsLimits = {
  maxViews: 8,
  maxCurves: 16,
  maxFutures: 2,
  maxConnectionsPerAddress: 20,
  maxConnections: 5000,
  maxMessageBytes: 16 * 1024,
  maxMessagesPerSecond: 20,
};

export const WS_LIMIT_MESSAGES = {
  tooManyViews: (n: number) => `订阅的视图过多（每个连接最多 ${n} 个）`,
  tooManyFutures: (n: number) => `订阅的期货合约过多（每个连接最多 ${n} 个）`,
  tooLarge: (bytes: number) => `消息过大（最大 ${Math.round(bytes / 1024)} KB）`,
  tooFast: '消息过于频繁，请稍后再试',
  perAddress: '来自同一地址的连接过多，请关闭其他页面后重试',
  overall: '服务器连接数已满，请稍后重试',
} as const;

/** Close code 1013 "try again later" (RFC 6455 registry) for connections refused by a cap. */
export const TRY_AGAIN_LATER = 1013;

/** Open connections per client address and overall. */
export class ConnectionGate {
  private readonly byAddress = new Map<string, number>();
  private total = 0;
  constructor(private readonly limits: Pick<WsLimits, 'maxConnections' | 'maxConnectionsPerAddress'>) {}

  /** Takes a slot, or says why not (the Chinese reason). */
  admit(address: string): string | null {
    if (this.total >= this.limits.maxConnections) return WS_LIMIT_MESSAGES.overall;
    const n = this.byAddress.get(address) ?? 0;
    if (n >= this.limits.maxConnectionsPerAddress) return WS_LIMIT_MESSAGES.perAddress;
    this.byAddress.set(address, n + 1);
    this.total++;
    return null;
  }

  release(address: string) {
    const n = this.byAddress.get(address) ?? 0;
    if (n <= 1) this.byAddress.delete(address);
    else this.byAddress.set(address, n - 1);
    this.total = Math.max(0, this.total - 1);
  }

  get size() {
    return this.total;
  }
}

/** A token bucket: `perSecond` messages a second, bursts of twice that. */
export class MessageRate {
  private tokens: number;
  private last = performance.now();
  constructor(private readonly perSecond: number) {
    this.tokens = perSecond * 2;
  }
  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.perSecond * 2, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The client's address as the HTTP routes see it: X-Forwarded-For only from trusted proxies (TRUST_PROXY). */
export function clientAddress(req: IncomingMessage, trustProxy: string[] | false): string {
  if (!trustProxy) return req.socket.remoteAddress ?? '';
  return proxyAddr(req, proxyAddr.compile(trustProxy));
}
