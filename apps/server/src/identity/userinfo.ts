import type { FastifyInstance } from 'fastify';
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Database } from '../platform/db/database';
import { PROTOCOL, profileClaims, type IdentitySettings } from './settings';
import { findTraderById } from './traders';

/**
 * Keycloak's userinfo: the bearer is one of our JWT access tokens (oidc-provider's own endpoint
 * refuses audience-restricted JWT access tokens). Claims follow the token's scopes.
 */
export function userinfoRoute(scope: FastifyInstance, s: IdentitySettings, db: Database, keys: JWTVerifyGetKey) {
  scope.route({
    method: ['GET', 'POST'],
    url: `${s.issuerPath}${PROTOCOL}/userinfo`,
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(request.headers.authorization ?? '');
      const deny = (error: string, description: string) =>
        reply
          .code(error === 'invalid_request' ? 400 : 401)
          .header('WWW-Authenticate', `Bearer realm="${s.realm}", error="${error}", error_description="${description}"`)
          .send({ error, error_description: description });
      if (!match?.[1]) return deny('invalid_request', 'no access token provided');
      let claims;
      try {
        ({ payload: claims } = await jwtVerify(match[1], keys, {
          issuer: s.issuer,
          audience: s.audience,
          algorithms: ['RS256'],
          requiredClaims: ['sub', 'exp'],
        }));
      } catch {
        return deny('invalid_token', 'invalid access token');
      }
      const trader = await findTraderById(db, claims.sub!);
      if (!trader) return deny('invalid_token', 'unknown subject');
      const scopes = new Set(typeof claims.scope === 'string' ? claims.scope.split(' ') : []);
      const { sub, name, preferred_username, email } = profileClaims(trader);
      return {
        sub,
        ...(scopes.has('profile') ? { name, preferred_username } : {}),
        ...(scopes.has('email') && email ? { email } : {}),
      };
    },
  });
}
