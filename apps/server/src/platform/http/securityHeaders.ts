import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The browser-side defence of every page (docs/security.md): scripts only from this origin and
 * the configured remote origins — no inline script, no eval — so that an injected string cannot
 * run and read the customer token the desk keeps in local storage. Styles may be inline (Mantine
 * injects its CSS variables). The identity provider's pages set a stricter policy of their own.
 */
export function cspDirectives(opts: { publicUrl: string; remotes: Record<string, string>; oidcAuthority: string }) {
  const origins = (urls: string[]) => [
    ...new Set(
      urls.flatMap((u) => {
        try {
          return /^https?:\/\//.test(u) ? [new URL(u).origin] : [];
        } catch {
          return [];
        }
      }),
    ),
  ];
  const self = new URL(opts.publicUrl);
  const remotes = origins(Object.values(opts.remotes)).filter((o) => o !== self.origin);
  const oidc = origins([opts.oidcAuthority]).filter((o) => o !== self.origin);
  const ws = `${self.protocol === 'https:' ? 'wss' : 'ws'}://${self.host}`;
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...remotes],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
    imgSrc: ["'self'", 'data:', 'blob:', ...remotes],
    fontSrc: ["'self'", 'data:', ...remotes],
    connectSrc: ["'self'", ws, ...remotes, ...oidc],
    frameSrc: ["'self'", ...oidc],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'", ...oidc],
    frameAncestors: ["'none'"],
    // Only behind https: on plain http (development, the e2e run) it would break every request.
    upgradeInsecureRequests: self.protocol === 'https:' ? [] : null,
  };
}

export async function installSecurityHeaders(
  app: FastifyInstance,
  opts: { publicUrl: string; remotes: Record<string, string>; oidcAuthority: string },
) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    // The remotes may come from another origin (a CDN): no cross-origin isolation requirements.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only over HTTPS (issue 30): on plain HTTP the header means nothing and misleads a scan.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    // req.protocol believes X-Forwarded-Proto only from a TRUST_PROXY address.
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/** helmet's default policy, sent only when the request came over HTTPS. */
export const HSTS = 'max-age=31536000; includeSubDomains';
