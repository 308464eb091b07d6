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
  maxAnonymousConnections: 120,
  maxAnonymousFutures: 16,
  maxCompanyViews: 24,
  maxCompanyFutures: 4,
  maxSignedInFutures: 16,
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
  busy: '服务器繁忙，公开行情连接已达上限，请稍后重试',
  busyFutures: '服务器繁忙，公开行情可查看的期货合约已达上限，请先查看他人正在查看的合约或稍后重试',
  companyViews: (n: number) => `同一公司同时打开的波动率视图已达上限（最多 ${n} 个），请关闭其他页面后重试`,
  companyFutures: (n: number) =>
    `同一公司同时查看的期货合约已达上限（最多 ${n} 个），请先查看同事正在查看的合约或关闭其他页面后重试`,
  busySignedIn: '服务器繁忙，可查看的期货合约已达上限，请先查看他人正在查看的合约或稍后重试',
} as const;

/**
 * What a view holding server resources (the futures whose chains it keeps computed) takes from a budget:
 * the reason in Chinese when it may not, else null (and the resources are taken until `give`).
 */
export interface ViewBudget {
  take(resources: readonly string[]): string | null;
  give(resources: readonly string[]): void;
}

/** Close code 1013 "try again later" (RFC 6455 registry) for connections refused by a cap. */
export const TRY_AGAIN_LATER = 1013;

/**
 * Open connections per client address and overall, and the per-server budget of anonymous ones (issue 30):
 * 12 addresses × 20 anonymous connections must not slow the desks. Anonymous connections together stay
 * within `maxAnonymousConnections`. When the budget is full, a newcomer whose address holds less than its
 * fair share (budget / addresses) takes the slot of the address holding the most — that address's newest
 * connection is closed — otherwise it is refused: the budget ends up split evenly between the addresses.
 * Signed-in connections (the desks) are counted apart, per address and overall only, so a flood from an
 * office's address does not keep its own desks out.
 */
export class ConnectionGate {
  private readonly anonymous = new Map<string, number>();
  private readonly signedIn = new Map<string, number>();
  private anonymousTotal = 0;
  private total = 0;
  constructor(
    private readonly limits: Pick<WsLimits, 'maxConnections' | 'maxConnectionsPerAddress' | 'maxAnonymousConnections'>,
  ) {}

  /**
   * Takes a slot, or says why not (the Chinese reason). `evict`: the address one of whose anonymous
   * connections must be closed now — its slot is already this newcomer's (do not release it again).
   */
  admit(address: string, authenticated = false): { refused: string } | { refused: null; evict?: string } {
    if (this.total >= this.limits.maxConnections) return { refused: WS_LIMIT_MESSAGES.overall };
    const byAddress = authenticated ? this.signedIn : this.anonymous;
    const n = byAddress.get(address) ?? 0;
    if (n >= this.limits.maxConnectionsPerAddress) return { refused: WS_LIMIT_MESSAGES.perAddress };
    if (authenticated || this.anonymousTotal < this.limits.maxAnonymousConnections) {
      byAddress.set(address, n + 1);
      if (!authenticated) this.anonymousTotal++;
      this.total++;
      return { refused: null };
    }
    const addresses = this.anonymous.size + (n === 0 ? 1 : 0);
    const share = Math.max(1, Math.floor(this.limits.maxAnonymousConnections / addresses));
    let largest: [string, number] | undefined;
    for (const entry of this.anonymous) if (!largest || entry[1] > largest[1]) largest = entry;
    // Below its share, some other address must be above it (the budget is full): that one gives a slot.
    if (n >= share || !largest || largest[1] <= n + 1) return { refused: WS_LIMIT_MESSAGES.busy };
    this.drop(this.anonymous, largest[0]);
    this.anonymous.set(address, n + 1);
    return { refused: null, evict: largest[0] };
  }

  release(address: string, authenticated = false) {
    this.drop(authenticated ? this.signedIn : this.anonymous, address);
    if (!authenticated) this.anonymousTotal = Math.max(0, this.anonymousTotal - 1);
    this.total = Math.max(0, this.total - 1);
  }

  private drop(byAddress: Map<string, number>, address: string) {
    const n = byAddress.get(address) ?? 0;
    if (n <= 1) byAddress.delete(address);
    else byAddress.set(address, n - 1);
  }

  get size() {
    return this.total;
  }

  get anonymousSize() {
    return this.anonymousTotal;
  }
}

/**
 * The futures whose chains anonymous connections keep computed, over the whole server (issue 30): the
 * work of a flood is the chains it keeps busy, not its sockets. An anonymous view may add a future
 * only while fewer than `max` are held; futures already held (by anyone anonymous) are free to share.
 */
export class FuturesBudget {
  private readonly held = new Map<string, number>();
  constructor(private readonly max: number) {}

  /** Takes the futures, or false when they would pass the budget (nothing taken then). */
  take(futures: readonly string[]): boolean {
    const fresh = new Set(futures.filter((f) => !this.held.has(f)));
    if (fresh.size > 0 && this.held.size + fresh.size > this.max) return false;
    for (const f of futures) this.held.set(f, (this.held.get(f) ?? 0) + 1);
    return true;
  }

  give(futures: readonly string[]) {
    for (const f of futures) {
      const n = this.held.get(f) ?? 0;
      if (n <= 1) this.held.delete(f);
      else this.held.set(f, n - 1);
    }
  }

  get size() {
    return this.held.size;
  }
}

/** The anonymous connections' share: the server's futures budget alone (issue 30). */
export function anonymousViewBudget(futures: FuturesBudget): ViewBudget {
  return {
    take: (resources) => (futures.take(resources) ? null : WS_LIMIT_MESSAGES.busyFutures),
    give: (resources) => futures.give(resources),
  };
}

/**
 * Signed-in volatility views (issue 40): a customer token of any company opened 240 connections and kept
 * all 437 chains computed — other companies' desks went from 38 ms to seconds. Their views count, per
 * company (`account`), against `maxCompanyViews` views and `maxCompanyFutures` futures (a future the company
 * already watches is free), and every company's together against `maxSignedInFutures` futures per server (a
 * future some signed-in view already watches is free). Desk views hold no resources and are never counted.
 */
export class SignedInBudget {
  private readonly server: FuturesBudget;
  private readonly companies = new Map<string, { views: number; futures: FuturesBudget }>();
  constructor(private readonly limits: Pick<WsLimits, 'maxCompanyViews' | 'maxCompanyFutures' | 'maxSignedInFutures'>) {
    this.server = new FuturesBudget(limits.maxSignedInFutures);
  }

  /** The budget of one company's views. */
  of(account: string): ViewBudget {
    return {
      take: (resources) => {
        let company = this.companies.get(account);
        if (!company)
          this.companies.set(
            account,
            (company = { views: 0, futures: new FuturesBudget(this.limits.maxCompanyFutures) }),
          );
        if (company.views >= this.limits.maxCompanyViews)
          return WS_LIMIT_MESSAGES.companyViews(this.limits.maxCompanyViews);
        if (!company.futures.take(resources)) return WS_LIMIT_MESSAGES.companyFutures(this.limits.maxCompanyFutures);
        if (!this.server.take(resources)) {
          company.futures.give(resources);
          return WS_LIMIT_MESSAGES.busySignedIn;
        }
        company.views++;
        return null;
      },
      give: (resources) => {
        const company = this.companies.get(account);
        if (!company) return;
        company.views--;
        company.futures.give(resources);
        this.server.give(resources);
        if (company.views <= 0) this.companies.delete(account);
      },
    };
  }

  /** Futures signed-in views keep computed, over the server. */
  get futures() {
    return this.server.size;
  }

  /** Views and futures one company holds. */
  held(account: string) {
    const company = this.companies.get(account);
    return { views: company?.views ?? 0, futures: company?.futures.size ?? 0 };
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
