import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { EventEmitter } from 'node:events';
import { IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import type { Logger } from '../platform/logger';
import { applyClientPolicy } from './clientPolicy';
import { refuseControlChars } from './controlChars';
import { providerConfiguration } from './configuration';
import { interactionRoutes } from './interactions';
import { loadSigningKeys } from './keys';
import { logoutWithoutConfirmation } from './logout';
import { resolveSettings, type IdentityProviderOptions } from './settings';
import { userinfoRoute } from './userinfo';

export type { IdentityProviderOptions };

/** oidc-provider's own limit on a body it reads. */
const FORM_LIMIT = 56 * 1024;

/** A request whose body was read here, as oidc-provider reads one: the same head, the same bytes, unread. */
function replay(raw: IncomingMessage, body: Buffer): IncomingMessage {
  const req = new IncomingMessage(raw.socket);
  Object.assign(req, {
    method: raw.method,
    url: raw.url,
    headers: raw.headers,
    rawHeaders: raw.rawHeaders,
    httpVersion: raw.httpVersion,
    httpVersionMajor: raw.httpVersionMajor,
    httpVersionMinor: raw.httpVersionMinor,
    // Read to its end, it is complete: an incomplete one destroys its socket (the real answer's) on close.
    complete: true,
  });
  req.push(body);
  req.push(null);
  return req;
}

export interface IdentityProvider {
  issuer: string;
  /** The public signing keys (what `certs` serves); for the API's token verifier. */
  jwks(): JSONWebKeySet;
  /** Mounts the realm under `/realms/${realm}` on the app. */
  register(app: FastifyInstance): Promise<void>;
  provider: Provider;
}

/**
 * The embedded OpenID Connect provider: a Keycloak look-alike (same URL layout, same token
 * shape) so that pointing OIDC_ISSUER at a real Keycloak realm needs no code change. Its parts:
 * settings.ts (options and defaults), configuration.ts (oidc-provider's configuration),
 * clientPolicy.ts, logout.ts, interactions.ts (login pages), userinfo.ts.
 */
export async function createIdentityProvider(opts: IdentityProviderOptions): Promise<IdentityProvider> {
  const s = resolveSettings(opts);
  const db = opts.db;
  const keys = await loadSigningKeys(db, opts.keyBox);
  let log: Logger | undefined = opts.logger;

  const provider = new Provider(s.issuer, providerConfiguration(s, db, keys.privateJwks));
  provider.proxy = opts.proxy ?? true;
  applyClientPolicy(provider, s);
  logoutWithoutConfirmation(provider, s, db);

  provider.on('server_error', (_ctx, err) => log?.error({ err }, 'oidc provider error'));
  // Koa prints errors to stderr unless someone listens.
  const koa: EventEmitter = provider;
  koa.on('error', (err: unknown) => log?.error({ err }, 'oidc provider error'));
  const rejected = (event: string) => (_ctx: unknown, err: Error) =>
    log?.info({ event, error: err.message }, 'oidc request rejected');
  provider.on('authorization.error', rejected('authorization.error'));
  provider.on('grant.error', rejected('grant.error'));
  provider.on('end_session.error', rejected('end_session.error'));
  provider.on('revocation.error', rejected('revocation.error'));

  async function register(app: FastifyInstance) {
    log ??= app.log;

    // Pages of our own: the login form and userinfo. Only form bodies are parsed here.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      scope.addHook('preHandler', refuseControlChars);
      interactionRoutes(scope, provider, s, db, () => log);
      userinfoRoute(scope, s, db, createLocalJWKSet(keys.publicJwks));
    });

    // Everything else under the realm is oidc-provider's, which reads the raw request itself.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      // A form (token, revoke, introspection …) is read here, checked like the query string and handed on
      // as it came: a NUL in `code` or `refresh_token` used to reach PostgreSQL and answer 500.
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'buffer', bodyLimit: FORM_LIMIT },
        (_req, body, done) => done(null, body),
      );
      scope.addHook('preHandler', async (req, reply) => {
        const form = Buffer.isBuffer(req.body)
          ? Object.fromEntries(new URLSearchParams(req.body.toString('utf8')))
          : undefined;
        return refuseControlChars(Object.assign(Object.create(req) as FastifyRequest, { body: form }), reply);
      });
      const callback = provider.callback();
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const req = (
          Buffer.isBuffer(request.body) ? replay(request.raw, request.body) : request.raw
        ) as IncomingMessage & {
          baseUrl?: string;
        };
        // oidc-provider routes on the path below its mount point and builds URLs from baseUrl.
        req.baseUrl = s.issuerPath;
        req.url = req.url!.slice(s.issuerPath.length) || '/';
        return callback(req, reply.raw as ServerResponse);
      };
      scope.all(`${s.issuerPath}/*`, handler);
    });
  }

  return { issuer: s.issuer, jwks: () => keys.publicJwks, register, provider };
}
