import type { FastifyInstance } from 'fastify';

/**
 * A close that answers every request it has taken (main.ts shuts down through app.close()).
 *
 * Once app.close() begins, every answer says `Connection: close` (Fastify says it on the requests it
 * routes from then on, this hook on those already under way), so no client sends another request on a
 * connection that is about to go. For `drainMs` the server keeps listening and answering, so that a
 * request that was on its way (on a kept-alive connection, which Node's server.close() would drop as
 * idle at once) is still answered; then it stops accepting and waits for the requests in hand.
 * Connections whose answer had started before the close (a download) are closed as soon as they fall
 * idle: Node closes the idle ones only once, and a kept-alive one would otherwise hold the close up for
 * the keep-alive timeout (72 s).
 */
export function installGracefulClose(app: FastifyInstance, opts: { drainMs?: number } = {}) {
  let closing = false;
  let reaper: ReturnType<typeof setInterval> | undefined;
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    closing = true;
    if (opts.drainMs) await new Promise((resolve) => setTimeout(resolve, opts.drainMs));
    reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(reaper);
    done();
  });
}
