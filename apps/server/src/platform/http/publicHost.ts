import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * One address: a browser page that opens on another host name than PUBLIC_URL's (127.0.0.1 for
 * localhost, a bare IP, an old name) is sent to the same path and query on PUBLIC_URL. There the
 * trader's sign-in returns to an address the identity provider knows, instead of its raw
 * invalid_redirect_uri page; and the browser's storage (sessions, tokens) is that of one origin.
 *
 * Only page navigations move (GET or HEAD asking for HTML): API calls, the provider's JSON
 * endpoints, static files and WebSocket answer on any host, so scripts, tests and the CLI can use
 * 127.0.0.1. Only the host is compared, not the scheme: behind a TLS proxy that does not say
 * X-Forwarded-Proto a scheme check would redirect forever.
 */
export function redirectToPublicHost(app: FastifyInstance, publicUrl: string) {
  const target = new URL(publicUrl);
  app.addHook('onRequest', async (request, reply) => {
    if (!isPageNavigation(request) || hostOf(request, target.protocol) === target.host) return;
    return reply.redirect(`${target.origin}${request.url}`, 302);
  });
}

function isPageNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.url.startsWith('/api/')) return false;
  // Browsers ask for text/html when they navigate; fetch() and scripts ask for */* or JSON.
  return request.headers.accept?.includes('text/html') ?? false;
}

/** The host the browser used (X-Forwarded-Host behind a proxy), normalised as URL does it. */
function hostOf(request: FastifyRequest, protocol: string): string | undefined {
  try {
    return new URL(`${protocol}//${request.host}`).host;
  } catch {
    return undefined; // not a host name at all: send it to the public one
  }
}
