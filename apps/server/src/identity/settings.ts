import type { LoginGuardOptions } from '../platform/auth/loginGuard';
import type { Database } from '../platform/db/database';
import type { Logger } from '../platform/logger';
import type { KeyBox } from './keys';
import { UriRules } from './redirectUris';

export interface IdentityProviderOptions {
  db: Database;
  /** The external origin of the server, e.g. `https://pfp.example.com` (no trailing slash). */
  origin: string;
  /** Keycloak realm name: the issuer is `${origin}/realms/${realm}`. */
  realm?: string;
  /** The one (public, PKCE) client: the trader SPA. */
  clientId?: string;
  /** `aud` of the access tokens, i.e. what the API expects (OIDC_AUDIENCE). Defaults to the client id. */
  audience?: string;
  /** The resource indicator (RFC 8707) the access tokens are minted for; `${origin}/api` by default. */
  resource?: string;
  /**
   * Exact URIs and `…/*` prefixes. 'origin-wildcard' (default): `${origin}/trader` and
   * `${origin}/trader/*`.
   */
  redirectUris?: string[] | 'origin-wildcard';
  /** Same syntax; default `${origin}`, `${origin}/`, `${origin}/trader`, `${origin}/trader/*`. */
  postLogoutRedirectUris?: string[];
  /** Seconds; access and ID tokens. Default 300 (Keycloak's default). */
  accessTokenTtl?: number;
  /**
   * Seconds; the longest a sign-in lasts: refresh tokens (rotated, keeping the original expiry),
   * the provider session and the grant. Default 8 h, a trading day.
   */
  refreshTokenTtl?: number;
  /** Seconds a login page stays usable. Default 30 min. */
  interactionTtl?: number;
  /** Keys signing the provider's cookies; newest first (rotate by prepending). */
  cookieKeys: readonly string[];
  /** Seals the private signing key in `oidc_keys`; without it the key is stored as plain JWK. */
  keyBox?: KeyBox;
  /** Honour X-Forwarded-Proto/Host (behind a reverse proxy: TRUST_PROXY). Default true. */
  proxy?: boolean;
  /** The customer login's protection, for the trader login page too (auth/loginGuard.ts). */
  loginGuard?: LoginGuardOptions;
  productName?: string;
  logger?: Logger;
}

export const PROTOCOL = '/protocol/openid-connect';

/** The options with their defaults filled in, and what follows from them (issuer, URI rules). */
export function resolveSettings(opts: IdentityProviderOptions) {
  const origin = opts.origin.replace(/\/+$/, '');
  const realm = opts.realm ?? 'pfp';
  const clientId = opts.clientId ?? 'shinny_web';
  const accessTokenTtl = opts.accessTokenTtl ?? 300;
  const refreshTokenTtl = opts.refreshTokenTtl ?? 8 * 3600;
  const interactionTtl = opts.interactionTtl ?? 30 * 60;
  if (!opts.cookieKeys.length || opts.cookieKeys.some((k) => !k)) throw new Error('cookieKeys must be non-empty');
  for (const ttl of [accessTokenTtl, refreshTokenTtl, interactionTtl])
    if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new Error('token lifetimes must be positive integers (seconds)');

  const issuerPath = `/realms/${encodeURIComponent(realm)}`;
  const redirectRules = new UriRules(
    opts.redirectUris === undefined || opts.redirectUris === 'origin-wildcard'
      ? [`${origin}/trader`, `${origin}/trader/*`]
      : opts.redirectUris,
  );
  const postLogoutRules = new UriRules(
    opts.postLogoutRedirectUris ?? [origin, `${origin}/`, `${origin}/trader`, `${origin}/trader/*`],
  );
  return {
    origin,
    realm,
    clientId,
    audience: opts.audience ?? clientId,
    resource: opts.resource ?? `${origin}/api`,
    accessTokenTtl,
    refreshTokenTtl,
    interactionTtl,
    productName: opts.productName ?? '快期点价宝',
    loginGuard: opts.loginGuard ?? {},
    cookieKeys: [...opts.cookieKeys],
    issuerPath,
    issuer: `${origin}${issuerPath}`,
    redirectRules,
    postLogoutRules,
    /** Where the login form may post and pages may be framed from: the apps' origins. */
    formActions: [...new Set([...redirectRules.registered()].map((u) => new URL(u).origin))],
    /** Where "back to the app" links go. */
    homeUrl: redirectRules.registered()[0] ?? origin,
    /** The provider's session cookie (cleared again by the logout shortcut). */
    longCookie: { httpOnly: true, sameSite: 'lax' as const, path: issuerPath },
  };
}

export type IdentitySettings = ReturnType<typeof resolveSettings>;

/** The profile claims of a trader, as Keycloak puts them in tokens and userinfo. */
export const profileClaims = (trader: { id: string; username: string; name: string | null; email: string | null }) => ({
  sub: trader.id,
  preferred_username: trader.username,
  name: trader.name ?? trader.username,
  ...(trader.email ? { email: trader.email } : {}),
});
