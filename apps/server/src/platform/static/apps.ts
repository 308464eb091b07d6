import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import path from 'node:path';

const REMOTE_DIRS = ['trader', 'pricer', 'volatility'] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Content-hashed build output (a changed file gets a new name): Vite's assets/ and the host's
 * federation entry remoteEntry-<hash>.js. Everything else keeps its name across deploys and is
 * revalidated: index.html, a remote's remoteEntry.js and mf-manifest.json (that is what lets a
 * remote redeploy without the host), favicon.svg.
 */
export function isHashed(relativePath: string): boolean {
  return /^assets\//.test(relativePath) || /^remoteEntry-[\w-]{8}\.js(\.map)?$/.test(relativePath);
}

/**
 * Every build holds .br and .gz copies of its text files (written by the build): the browser gets
 * the one it accepts, with `Vary: Accept-Encoding`, else the file itself.
 */
function staticOptions(root: string) {
  return {
    root,
    preCompressed: true,
    setHeaders: (reply: FastifyReply, file: string) => {
      const served = path.relative(root, file).replace(/\.(br|gz)$/, '');
      reply.header('cache-control', isHashed(served) ? IMMUTABLE : 'no-cache');
    },
  };
}

/**
 * The one origin: the host at /, each remote's build under /remotes/{name}/, and index.html for
 * every client-side route (history fallback).
 */
export async function serveApps(app: FastifyInstance, appsDir: string) {
  for (const name of REMOTE_DIRS) {
    await app.register(fastifyStatic, {
      ...staticOptions(path.join(appsDir, name, 'dist')),
      prefix: `/remotes/${name}/`,
      decorateReply: false,
    });
  }

  await app.register(fastifyStatic, {
    ...staticOptions(path.join(appsDir, 'host', 'dist')),
    prefix: '/',
    index: false,
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

/**
 * What the start-up log says about the app builds: where they are served from, that APPS_DIR=''
 * switched them off on purpose (an API-only instance: the compose images, a CDN in front), or
 * that none were found where they are looked for by default (a checkout before `pnpm build`).
 */
export function logAppsSetting(
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  appsDir: string | null,
  env: NodeJS.ProcessEnv = process.env,
) {
  if (appsDir) log.info(`serving the app builds from ${appsDir}`);
  else if (env.APPS_DIR === '') log.info("APPS_DIR='': API only, the app builds are served elsewhere");
  else log.warn('no app builds found: run `pnpm build` to serve the apps');
}
