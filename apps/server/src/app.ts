import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import type { AppContext } from './context';
import { healthRoutes } from './health/routes';
import { redirectToPublicHost } from './http/publicHost';
import { installErrorHandler } from './http/errors';
import { marketRoutes } from './market/routes';
import { pricerRoutes } from './pricer/routes';
import { notFound, remotesManifest, serveApps } from './static/apps';
import { traderRoutes } from './trader/routes';

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
  await app.register(helmet, {
    // The apps load their remotes' modules from this origin (or a configured CDN).
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
  });
  redirectToPublicHost(app, config.publicUrl);
  await app.register(healthRoutes);
  // The apps' runtime configuration: where traders sign in.
  app.get('/api/config', async () => ({
    result: 'ok',
    data: { oidc: { authority: ctx.oidc.authority, client_id: ctx.oidc.clientId } },
  }));
  if (ctx.identity) await ctx.identity.register(app);
  await app.register(async (api) => traderRoutes(api, ctx));
  await app.register(async (api) => pricerRoutes(api, ctx));
  await app.register(async (api) => marketRoutes(api, ctx));
  await remotesManifest(app, config.remotes);
  if (config.appsDir) await serveApps(app, config.appsDir);
  else app.setNotFoundHandler((req, reply) => reply.code(404).send(notFound(req.url)));
  return app;
}
