import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import type { AppContext } from './context';
import { installErrorHandler } from './http/errors';
import { openApi } from './http/openapi';
import { redirectToPublicHost } from './http/publicHost';
import { installZod } from './http/zod';
import { appRoutes } from './routes/app';
import { marketRoutes } from './routes/market';
import { pricerRoutes } from './routes/pricer';
import { traderRoutes } from './routes/trader';
import { notFound, remotesManifest, serveApps } from './static/apps';

/** The HTTP server of the one origin; everything it serves hangs off the context. */
export async function buildApp(ctx: AppContext) {
  const { config } = ctx;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secrets never reach a log line.
      redact: ['req.headers.authorization', 'req.body.password', 'req.body.new_password', '*.futures_password'],
    },
    bodyLimit: 64 * 1024,
    trustProxy: true,
  });
  installErrorHandler(app);
  // Route schemas come from @pfp/contract: validation, answers and the OpenAPI document.
  installZod(app);
  await openApi(app);
  await app.register(helmet, {
    // The apps load their remotes' modules from this origin (or a configured CDN).
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
  });
  redirectToPublicHost(app, config.publicUrl);
  await app.register(async (api) => appRoutes(api, ctx));
  if (ctx.identity) await ctx.identity.register(app);
  await app.register(async (api) => traderRoutes(api, ctx));
  await app.register(async (api) => pricerRoutes(api, ctx));
  await app.register(marketRoutes);
  await remotesManifest(app, config.remotes);
  if (config.appsDir) await serveApps(app, config.appsDir);
  else app.setNotFoundHandler((req, reply) => reply.code(404).send(notFound(req.url)));
  return app;
}
