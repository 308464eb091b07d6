import type { FastifyRequest } from 'fastify';

/**
 * What the server logs of a request: no secret ever reaches a log line (docs/security.md). Bodies
 * and headers are not logged at all; URLs are, with the values of secret-bearing query parameters
 * (tokens, id_token_hint, authorization codes, passwords) replaced.
 */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'jwt_token',
  'code',
  'code_verifier',
  'password',
  'new_password',
  'client_secret',
  'logout_token',
]);

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
      return SECRET_PARAMS.has(name) ? `${pair.slice(0, eq < 0 ? pair.length : eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Fastify's request serializer, with the URL redacted and the client address as trusted (TRUST_PROXY). */
export const requestSerializer = (req: FastifyRequest): { [key: string]: unknown; url: string } => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
});

/** Fields that could carry a secret in objects the code logs itself. */
export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.password',
  'req.body.new_password',
  '*.password',
  '*.new_password',
  '*.futures_password',
  '*.jwt_token',
  '*.token',
  '*.id_token_hint',
];
