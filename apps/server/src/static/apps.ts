import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';

const REMOTE_DIRS = ['trader', 'pricer', 'volatility'] as const;

/**
 * The one origin: the host at /, each remote's build under /remotes/{name}/, the runtime
 * manifest at /remotes.json, and index.html for every client-side route (history fallback).
 */
export async function serveApps(app: FastifyInstance, appsDir: string, remotes: Record<string, string>) {
  app.get('/remotes.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return remotes;
  });

  for (const name of REMOTE_DIRS) {
    await app.register(fastifyStatic, {
      root: path.join(appsDir, name, 'dist'),
      prefix: `/remotes/${name}/`,
      decorateReply: false,
      // remoteEntry.js and the manifest keep their names across deploys: never cache them.
      setHeaders: (reply, file) => {
        const base = path.basename(file);
        reply.header(
          'cache-control',
          base.startsWith('remoteEntry') || base.endsWith('.json') ? 'no-cache' : 'public, max-age=31536000, immutable',
        );
      },
    });
  }

  await app.register(fastifyStatic, {
    root: path.join(appsDir, 'host', 'dist'),
    prefix: '/',
    index: false,
    wildcard: false,
    setHeaders: (reply, file) => {
      reply.header('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  // Hashed assets are fixed paths: serve them; everything else gets the app's index.html.
  app.get('/assets/*', (req, reply) => reply.sendFile((req.params as { '*': string })['*'], path.join(appsDir, 'host', 'dist', 'assets')));

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send(notFound(url));
    if (url.startsWith('/api/') || url.startsWith('/remotes/') || path.extname(url) !== '') {
      return reply.code(404).send(notFound(url));
    }
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html').sendFile('index.html', path.join(appsDir, 'host', 'dist'));
  });
}

export const notFound = (url: string) => ({
  result: 'error',
  error: { code: 'NOT_FOUND', message: `未找到：${url}` },
});
