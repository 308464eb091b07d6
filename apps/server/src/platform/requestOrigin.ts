import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a request came from: the client address (TRUST_PROXY-aware) and its browser. */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

/**
 * The origin of the request being served, readable by what it calls without passing it down (the
 * audit log records "who pressed 点价 from where", issue 30). platform/http/requestOrigin.ts sets it
 * for every request; outside a request (the deadline job, a trigger) there is none.
 */
export const origins = new AsyncLocalStorage<RequestOrigin>();

export const requestOrigin = (): RequestOrigin | undefined => origins.getStore();
