import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors';

export const DEADLINE_MESSAGE = '服务器繁忙，请稍后重试';

/**
 * Every request is answered within `ms` (docs/security.md): past it, a 503 in Chinese goes out
 * even if the handler still waits (e.g. on a frozen database, whose own timeouts then end the
 * wait). What the handler produces later is dropped.
 */
export function installDeadline(app: FastifyInstance, ms: number) {
  app.addHook('onRequest', (req, reply, done) => {
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
      req.log.warn({ deadline_ms: ms }, 'request deadline passed: answered 503');
      void reply.code(503).header('retry-after', '5').send(errorBody('deadline_exceeded', DEADLINE_MESSAGE));
      // The late result of the handler is not sent (wrap-thenable skips hijacked replies).
      reply.hijack();
    }, ms);
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}
