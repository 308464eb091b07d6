import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { AppContext } from './modules/context';
import { registerCapabilities } from './modules';
import { installGracefulClose } from './platform/http/close';
import { installDeadline } from './platform/http/deadline';
import { installErrorHandler } from './platform/http/errors';
import { openApi } from './platform/http/openapi';
import { installOverload } from './platform/http/overload';
import { redirectToPublicHost } from './platform/http/publicHost';
import { installSecurityHeaders } from './platform/http/securityHeaders';
import { installRequestOrigin } from './platform/http/requestOrigin';
import { installZod } from './platform/http/zod';
import { createLogger, type RootLogger } from './platform/logger';
import { notFound, remotesManifest, serveApps } from './platform/static/apps';

/**
 * The HTTP server of the one origin; everything it serves hangs off the context. It logs through
 * `logger` (main.ts: the process's one logger), or one of its own at the configured level, on
 * `logStream` if given (tests). On close it answers what it has taken, after `drainMs` more of
 * answering (platform/http/close.ts).
 */
export async function buildApp(
  ctx: AppContext,
  opts: { logger?: RootLogger; logStream?: { write(line: string): void }; drainMs?: number } = {},
) {
  const { config } = ctx;
  // Secrets never reach a log line (platform/logger.ts, http/logging.ts).
  const logger: FastifyBaseLogger =
    opts.logger ?? createLogger({ level: config.logLevel, ...(opts.logStream ? { stream: opts.logStream } : {}) });
  const app = Fastify({
    loggerInstance: logger,
    // A request that reaches a closing server is still served, its connection closed after it.
    return503OnClosing: false,
    bodyLimit: 64 * 1024,
    // X-Forwarded-For only from the configured proxies (TRUST_PROXY); otherwise the socket address.
    trustProxy: config.trustProxy === false ? false : config.trustProxy,
  });
  installErrorHandler(app);
  installGracefulClose(app, { drainMs: opts.drainMs ?? 0 });
  // First: a shed request costs no more than its 503.
  await installOverload(app, config.overload);
  installDeadline(app, config.requestDeadlineMs);
  // Route schemas come from @pfp/contract: validation, answers and the OpenAPI document.
  installZod(app);
  await openApi(app);
  installRequestOrigin(app); // the audit log's address and browser (issue 30)
  await installSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    remotes: config.remotes,
    oidcAuthority: ctx.oidc.authority,
  });
  redirectToPublicHost(app, config.publicUrl);
  if (ctx.identity) await ctx.identity.register(app);
  await registerCapabilities(app, ctx);
  await remotesManifest(app, config.remotes);
  if (config.appsDir) await serveApps(app, config.appsDir);
  else app.setNotFoundHandler((req, reply) => reply.code(404).send(notFound(req.url)));
  return app;
}
