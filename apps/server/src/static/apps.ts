import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import path from 'node:path';

const REMOTE_DIRS = ['trader', 'pricer', 'volatility'] as const;

/**
 * The one origin: the host at /, each remote's build under /remotes/{name}/, and index.html for
 * every client-side route (history fallback).
 */
export async function serveApps(app: FastifyInstance, appsDir: string) {
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
    setHeaders: (reply, file) => {
      reply.header('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });

  // Files that don't exist end here: API and asset misses are 404s, client routes get index.html.
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send(notFound(url));
    if (url.startsWith('/api/') || url.startsWith('/remotes/') || path.extname(url) !== '') {
      return reply.code(404).send(notFound(url));
    }
    return sendIndex(reply);
  });
  app.get('/', (_req, reply) => sendIndex(reply));

  function sendIndex(reply: FastifyReply) {
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html').sendFile('index.html', path.join(appsDir, 'host', 'dist'));
  }
}

export const notFound = (url: string) => ({
  result: 'error',
  error: { code: 'not_found', message: `未找到：${url}` },
});

/**
 * Where the host finds each remote's entry. Published even when another server (a CDN, the
 * compose gateway) serves the builds.
 */
export async function remotesManifest(app: FastifyInstance, remotes: Record<string, string>) {
  app.get('/remotes.json', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return remotes;
  });
}
