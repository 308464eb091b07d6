/**
 * Token checks the provider adapter of the spec makes (§5 "Login provider checks", §8 adapter messages):
 * a token has three dot-separated parts whose payload is base64url JSON.
 */

export const TOKEN_DECODE_ERROR = 'Unable to decode token, payload not found';
export const CRYPTO_UNAVAILABLE = 'Web Crypto API is not available';

function base64UrlDecode(part: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new Error(TOKEN_DECODE_ERROR);
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The payload of a JWT; throws {@link TOKEN_DECODE_ERROR} unless header and payload are base64url JSON objects. */
export function decodeJwtPayload(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[0] || !parts[1]) throw new Error(TOKEN_DECODE_ERROR);
  try {
    const header: unknown = JSON.parse(base64UrlDecode(parts[0]));
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    if (!isObject(header) || !isObject(payload)) throw new Error(TOKEN_DECODE_ERROR);
    return payload;
  } catch {
    throw new Error(TOKEN_DECODE_ERROR);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A random url-safe value for the authorization request's nonce. */
export function randomNonce(cryptoImpl: Crypto | undefined = globalThis.crypto): string {
  if (!cryptoImpl?.getRandomValues) throw new Error(CRYPTO_UNAVAILABLE);
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(24));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The signed-in trader (SPEC §3): from the token claims; avatarUrl is always empty. */
export interface TraderIdentity {
  sub: string;
  name: string;
  preferred_username: string;
  email: string;
  avatarUrl: '';
}

/**
 * The trader from the id token's claims. With scope 'openid' the provider puts only `sub` into the
 * id token; like Keycloak's adapter we fall back to the access token's claims for name and username.
 */
export function traderFromTokens(idTokenClaims: Record<string, unknown>, accessToken: string): TraderIdentity {
  const access = decodeJwtPayload(accessToken);
  const pick = (key: string): string => {
    const fromId = idTokenClaims[key];
    if (typeof fromId === 'string' && fromId !== '') return fromId;
    const fromAccess = access[key];
    return typeof fromAccess === 'string' ? fromAccess : '';
  };
  const preferred = pick('preferred_username');
  return {
    sub: pick('sub'),
    name: pick('name') || preferred,
    preferred_username: preferred,
    email: pick('email'),
    avatarUrl: '',
  };
}
