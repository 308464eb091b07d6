import Fastify from 'fastify';
import type { Config } from './config';
import { healthRoutes } from './health/routes';
import { notFound, remotesManifest, serveApps } from './static/apps';

export async function buildApp(config: Config) {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 1024 * 1024,
  });
  await app.register(healthRoutes);
  await remotesManifest(app, config.remotes);
  if (config.appsDir) await serveApps(app, config.appsDir);
  else app.setNotFoundHandler((req, reply) => reply.code(404).send(notFound(req.url)));
  return app;
}
