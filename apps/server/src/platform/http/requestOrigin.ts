import type { FastifyInstance } from 'fastify';
import { origins } from '../requestOrigin';

/** The longest User-Agent kept (the audit log's column; browsers send ~150 characters). */
export const USER_AGENT_MAX = 512;

/** Every request runs with its origin (platform/requestOrigin.ts): address and browser. */
export function installRequestOrigin(app: FastifyInstance) {
  app.addHook('onRequest', (req, _reply, done) => {
    const ua = req.headers['user-agent'];
    origins.run({ ip: req.ip, userAgent: (typeof ua === 'string' ? ua : '').slice(0, USER_AGENT_MAX) }, done);
  });
}
