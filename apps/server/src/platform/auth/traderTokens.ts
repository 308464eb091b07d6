import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { RememberedTokens } from './rememberedTokens';

export interface TraderIdentity {
  sub: string;
  email?: string;
  name?: string;
  preferredUsername?: string;
}

export interface TraderVerifierOptions {
  issuer: string;
  audience: string;
  /** A JWKS URL (a real provider) or the key set itself (the embedded provider, tests). */
  jwks: URL | JSONWebKeySet | (() => JSONWebKeySet);
  /**
   * When the trader's password last changed (ms), or undefined: tokens issued before are refused.
   * The embedded provider knows it; an external one revokes its own sessions.
   */
  passwordChangedAt?: (sub: string) => Promise<number | undefined>;
  /** The clock (ms), for expiry; default Date.now. */
  now?: () => number;
}

/**
 * Access tokens only (ID tokens share issuer and audience): `typ: at+jwt` in the header (RFC 9068,
 * the embedded provider), or Keycloak's `typ: Bearer` claim.
 */
function isAccessToken(token: string, payload: Record<string, unknown>): boolean {
  const typ = String(decodeProtectedHeader(token).typ ?? '').toLowerCase();
  return typ === 'at+jwt' || typ === 'application/at+jwt' || payload.typ === 'Bearer';
}

/**
 * Verifies the bearer access token of every /api/trader call: signature against the issuer's
 * JWKS, issuer, audience and expiry. Asymmetric algorithms only.
 *
 * A token that verified is remembered until its exp (rememberedTokens.ts): the dashboard sends the
 * same token with every poll, and the signature check (RSA through WebCrypto) was ~0.5 ms of each
 * request (docs/performance.md). The password-change check still runs on every call.
 */
export class TraderVerifier {
  private readonly getKey: JWTVerifyGetKey;
  private readonly verified: RememberedTokens<JWTPayload>;
  constructor(private readonly opts: TraderVerifierOptions) {
    const { jwks } = opts;
    if (jwks instanceof URL) this.getKey = createRemoteJWKSet(jwks, { cooldownDuration: 30_000 });
    else if (typeof jwks === 'function') this.getKey = (h, t) => createLocalJWKSet(jwks())(h, t);
    else this.getKey = createLocalJWKSet(jwks);
    this.verified = new RememberedTokens(opts.now);
  }

  private verifiedPayload(token: string): Promise<JWTPayload> {
    return this.verified.get(token, async (now) => {
      const { payload } = await jwtVerify(token, this.getKey, {
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(now),
      });
      if (!isAccessToken(token, payload)) throw new Error('not an access token');
      return { value: payload, until: payload.exp! * 1000 };
    });
  }

  async verify(token: string): Promise<TraderIdentity> {
    const payload = await this.verifiedPayload(token);
    const changedAt = await this.opts.passwordChangedAt?.(payload.sub!);
    // iat has whole seconds: a token of the very second of the change still passes.
    if (changedAt !== undefined && (payload.iat ?? 0) < Math.floor(changedAt / 1000))
      throw new Error('issued before the password changed');
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const identity: TraderIdentity = { sub: payload.sub! };
    const email = str(payload.email);
    const name = str(payload.name);
    const preferred = str(payload.preferred_username);
    if (email) identity.email = email;
    if (name) identity.name = name;
    if (preferred) identity.preferredUsername = preferred;
    return identity;
  }
}
