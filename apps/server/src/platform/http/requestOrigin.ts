import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** Where a request came from: the client address (TRUST_PROXY-aware) and its browser. */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

const origins = new AsyncLocalStorage<RequestOrigin>();

/** The longest User-Agent kept (the audit log's column; browsers send ~150 characters). */
export const USER_AGENT_MAX = 512;

/**
 * Every request's origin, readable by what it calls without passing it down (the audit log records
 * "who pressed 点价 from where", issue 30). Outside a request (the deadline job, a trigger) there is none.
 */
export function installRequestOrigin(app: FastifyInstance) {
  app.addHook('onRequest', (req, _reply, done) => {
    const ua = req.headers['user-agent'];
    origins.run({ ip: req.ip, userAgent: (typeof ua === 'string' ? ua : '').slice(0, USER_AGENT_MAX) }, done);
  });
}

export const requestOrigin = (): RequestOrigin | undefined => origins.getStore();
